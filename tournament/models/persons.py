"""A person across tournaments, the seats they hold on teams, and the history of a
site administrator's merges and splits (RULES.md §10; docs/ratings.md, "People").

A seat is a name that plays for a team: one of its registered players or a
substitute who came in. Each is one person's. The seats are the site's link from a
tournament's names (its rosters, its score sheets' bidders) to people; people are the
site's, outlive any one tournament, and are never deleted but by a merge.
"""

from django.db import models
from django.db.models import Q

from .tournaments import Team, someone


class Person(models.Model):
    """One player across tournaments: the name and city first seen, and `key`, what
    identifies them (tournament/domain/persons.py: person_key)."""

    name = models.CharField(max_length=80)
    city = models.CharField(max_length=80, blank=True)
    key = models.CharField(max_length=170, db_index=True)
    hidden = models.BooleanField(
        default=False, help_text="Left out of public lists; their matches still count."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tournament"
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(name="") & ~Q(key=""), name="person_name_present"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.city})" if self.city else self.name


class Seat(models.Model):
    """A name that plays for a team (a registered player or a substitute), and the
    person it is. One per name (`key`: the name and the team's city) on a team."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="seats")
    name = models.CharField(max_length=80)
    key = models.CharField(max_length=170)
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        app_label = "tournament"
        ordering = ["team", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "key"], name="seat_key_once_per_team"
            ),
            models.CheckConstraint(
                condition=~Q(name="") & ~Q(key=""), name="seat_name_present"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} of {self.team}"


class PersonChange(models.Model):
    """A site administrator's merge or split, kept for good: who, when, which people
    and which seats moved (their ids, names and teams as they were)."""

    class Kind(models.TextChoices):
        MERGE = "merge"
        SPLIT = "split"

    kind = models.CharField(max_length=8, choices=Kind.choices)
    person = models.ForeignKey(
        Person, null=True, on_delete=models.SET_NULL, related_name="changes"
    )
    other_id = models.BigIntegerField(help_text="The person merged in or split off.")
    other_name = models.CharField(max_length=80)
    seats = models.JSONField(default=list, help_text="[{id, name, team, tournament}]")
    by = someone()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tournament"
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["merge", "split"]),
                name="person_change_kind_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.other_name}"


class NamesakeSuggestion(models.Model):
    """A new person who has the name and city of a person already known, in a
    tournament whose players the site does not join to its people by itself (one
    not rated: docs/ratings.md, "What the site trusts"). A suggested match waits for
    a site administrator: a merge makes them one person, a dismissal keeps them two.
    Marking the tournament rated accepts its suggestions."""

    person = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="namesake_of"
    )
    namesake = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="suggested"
    )
    tournament = models.ForeignKey(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tournament"
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["person", "namesake"], name="namesake_suggested_once"
            ),
            models.CheckConstraint(
                condition=~Q(person=models.F("namesake")),
                name="namesake_not_oneself",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person_id} may be {self.namesake_id}"
