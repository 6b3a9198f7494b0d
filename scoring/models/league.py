"""The league: its draws, rounds and byes, the lots that order equal teams, and the
desk's announcements for the venue screen."""

from django.db import models
from django.db.models import Q

from tournament.models import Team, Tournament, someone

# The league and the desk's lines: made by the tournament app's migrations, and
# still in its tables (moved here by scoring 0017 and tournament 0014, state only: the
# tables kept their names).


class LeagueDraw(models.Model):
    """One draw of a tournament's league: its seed and algorithm reproduce it. A redraw
    adds a row and marks the earlier one as no longer current, so the seeds of every
    draw an organizer made stay on record."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="draws"
    )
    number = models.PositiveSmallIntegerField(help_text="1 for the first draw.")
    seed = models.BigIntegerField()
    algorithm = models.CharField(max_length=40)
    rounds = models.PositiveSmallIntegerField()
    teams = models.PositiveIntegerField()
    restarts = models.PositiveSmallIntegerField(default=0)
    most_from_one_section = models.PositiveSmallIntegerField()
    mean_sections_met = models.FloatField()
    current = models.BooleanField(default=True)
    created_by = someone()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournament_leaguedraw"  # the tournament app made it
        ordering = ["tournament", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournament_draw_number_once"
            ),
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(current=True),
                name="tournament_draw_one_current",
            ),
            models.CheckConstraint(
                condition=Q(seed__gte=0), name="tournament_draw_seed_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, rounds__gte=1, teams__gte=2),
                name="tournament_draw_counts_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"draw {self.number} of {self.tournament} (seed {self.seed})"


class LeagueRound(models.Model):
    """A round of the drawn league: a draft until the organizer releases it, and only
    then shown to people without a role in the tournament."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="league_rounds_drawn"
    )
    number = models.PositiveSmallIntegerField()
    released_at = models.DateTimeField(null=True, blank=True)
    released_by = someone()

    class Meta:
        db_table = "tournament_leagueround"  # the tournament app made it
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournament_round_once"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1), name="tournament_round_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament}"

    @property
    def released(self) -> bool:
        return self.released_at is not None


class Bye(models.Model):
    """A league round without a match for one team (an odd count); it counts as a
    win (rules.md §5)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="byes"
    )
    round = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="byes")

    class Meta:
        db_table = "tournament_bye"  # the tournament app made it
        ordering = ["tournament", "round"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round"], name="tournament_bye_once_per_round"
            ),
            models.UniqueConstraint(
                fields=["tournament", "team"], name="tournament_bye_once_per_team"
            ),
            models.CheckConstraint(
                condition=Q(round__gte=1), name="tournament_bye_round_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} has the bye in round {self.round}"


class Announcement(models.Model):
    """A line an organizer writes on the desk for the venue screen (docs/desk.md)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = someone()
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = someone()

    class Meta:
        db_table = "tournament_announcement"  # the tournament app made it
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(text=""), name="announcement_text_present"
            ),
        ]

    def __str__(self) -> str:
        return self.text


class StandingsLot(models.Model):
    """The lot that orders equal teams where a place must be decided (rules.md §5):
    the qualifying line and the seeding of the qualifiers. Drawn once per tournament
    from a recorded seed, when the league is final; the same seed orders any equal
    teams the same way, so a sheet reopened afterwards is ranked by the same lot."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="standings_lot"
    )
    seed = models.BigIntegerField()
    algorithm = models.CharField(max_length=40)
    places = models.PositiveSmallIntegerField(
        help_text="The places it had to decide: the tournament's qualifiers."
    )
    decided = models.JSONField(
        default=list,
        help_text="The groups of equal teams it ordered when drawn (team ids, in the "
        "order the lot gave them).",
    )
    drawn_by = someone()
    drawn_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(seed__gte=0), name="scoring_lot_seed_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(places__gte=1), name="scoring_lot_places_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"lots of {self.tournament} (seed {self.seed})"
