"""The knockout: a bracket seeded from the final league standings, its seeds, the
matches of the bracket and the score sheets (games) each is played on.

A knockout match's places are filled from seeds or from the winner or loser of an
earlier match (brackets/domain/progression.py); its games are score sheets of the
scoring app (stage "knockout"), one for most matches and up to three for the final.
A sheet set aside by a reset stays, void, with its history.
"""

from django.db import models
from django.db.models import F, Q

from scoring.models import SIDES, Match, StandingsLot
from tournament.models import Team, Tournament, someone

from .domain.progression import Feed, Kind
from .domain.seeding import QUALIFIERS_MAX, QUALIFIERS_MIN

FEEDS = [f.value for f in Feed]
KINDS = [k.value for k in Kind]


class Bracket(models.Model):
    tournament = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, related_name="bracket"
    )
    qualifiers = models.PositiveSmallIntegerField()
    size = models.PositiveSmallIntegerField(help_text="Places: a power of two.")
    deals = models.JSONField(help_text="Deals per match of each stage.")
    final_best_of = models.PositiveSmallIntegerField(default=3)
    lot = models.ForeignKey(
        StandingsLot,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The lot that ordered equal teams where a seed depended on it.",
    )
    seeded_by = someone()
    seeded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(qualifiers__gte=QUALIFIERS_MIN)
                & Q(qualifiers__lte=QUALIFIERS_MAX),
                name="brackets_bracket_qualifiers_range",
            ),
            models.CheckConstraint(
                # P is the smallest power of two that holds the qualifiers.
                condition=Q(size__gte=F("qualifiers"), size__lt=F("qualifiers") * 2),
                name="brackets_bracket_size_fits",
            ),
            models.CheckConstraint(
                condition=Q(final_best_of__in=[1, 3, 5]),
                name="brackets_bracket_final_best_of_odd",
            ),
        ]

    def __str__(self) -> str:
        return f"knockout of {self.tournament} ({self.qualifiers} qualifiers)"


class Seed(models.Model):
    bracket = models.ForeignKey(Bracket, on_delete=models.CASCADE, related_name="seeds")
    number = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    by_lot = models.BooleanField(
        default=False, help_text="Its place among equal teams was decided by lot."
    )

    class Meta:
        ordering = ["bracket", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["bracket", "number"], name="brackets_seed_number_once"
            ),
            models.UniqueConstraint(
                fields=["bracket", "team"], name="brackets_seed_team_once"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1), name="brackets_seed_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"seed {self.number}: {self.team}"


class KnockoutMatch(models.Model):
    bracket = models.ForeignKey(
        Bracket, on_delete=models.CASCADE, related_name="matches"
    )
    number = models.PositiveSmallIntegerField(help_text="In the order of play.")
    round = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16, default=Kind.MAIN)
    stage = models.CharField(max_length=20)
    best_of = models.PositiveSmallIntegerField(default=1)
    deals_scheduled = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Per game; empty in the tables format."
    )
    # Where each place comes from: a seed, or the winner or loser of an earlier match.
    feed_a = models.CharField(max_length=6)
    feed_b = models.CharField(max_length=6)
    seed_a = models.PositiveSmallIntegerField(null=True, blank=True)
    seed_b = models.PositiveSmallIntegerField(null=True, blank=True)
    from_a = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    from_b = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    team_a = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    team_b = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    winner = models.CharField(max_length=1, blank=True, default="")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "knockout matches"
        ordering = ["bracket", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["bracket", "number"], name="brackets_match_number_once"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=KINDS), name="brackets_match_kind_known"
            ),
            models.CheckConstraint(
                condition=Q(feed_a__in=FEEDS, feed_b__in=FEEDS),
                name="brackets_match_feed_known",
            ),
            models.CheckConstraint(
                # A place comes from a seed, or from an earlier match: one of them.
                condition=(
                    Q(feed_a=Feed.SEED, seed_a__isnull=False, from_a__isnull=True)
                    | (
                        ~Q(feed_a=Feed.SEED)
                        & Q(seed_a__isnull=True, from_a__isnull=False)
                    )
                )
                & (
                    Q(feed_b=Feed.SEED, seed_b__isnull=False, from_b__isnull=True)
                    | (
                        ~Q(feed_b=Feed.SEED)
                        & Q(seed_b__isnull=True, from_b__isnull=False)
                    )
                ),
                name="brackets_match_place_has_one_source",
            ),
            models.CheckConstraint(
                condition=~Q(team_a=F("team_b")), name="brackets_match_teams_differ"
            ),
            models.CheckConstraint(
                condition=Q(winner__in=["", *SIDES]), name="brackets_match_winner_known"
            ),
            models.CheckConstraint(
                condition=Q(winner="", decided_at__isnull=True)
                | (
                    Q(winner__in=SIDES, decided_at__isnull=False)
                    & Q(team_a__isnull=False, team_b__isnull=False)
                ),
                name="brackets_match_winner_with_both_teams",
            ),
            models.CheckConstraint(
                condition=Q(best_of__in=[1, 3, 5]), name="brackets_match_best_of_odd"
            ),
        ]

    def __str__(self) -> str:
        a = self.team_a.name if self.team_a_id else "?"
        b = self.team_b.name if self.team_b_id else "?"
        return f"{a} v {b} ({self.stage.replace('_', ' ')})"

    def team_id(self, side: str) -> int | None:
        return self.team_a_id if side == "A" else self.team_b_id


class Game(models.Model):
    """One score sheet of a knockout match: the only one, or a game of the final."""

    knockout_match = models.ForeignKey(
        KnockoutMatch, on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveSmallIntegerField()
    sheet = models.OneToOneField(
        Match, on_delete=models.PROTECT, related_name="knockout_game"
    )
    voided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["knockout_match", "number", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["knockout_match", "number"],
                condition=Q(voided_at__isnull=True),
                name="brackets_game_number_once_live",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=5),
                name="brackets_game_number_1_5",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.number} of {self.knockout_match}"


class Season(models.Model):
    """Tournaments grouped for a season's standings (RULES.md §10, docs/ratings.md):
    a table of points by final place, made by a site administrator."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    points = models.JSONField(help_text="{place: points}, a step table of places.")
    tournaments = models.ManyToManyField(Tournament, related_name="seasons")
    created_by = someone()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="season_name_present"),
        ]

    def __str__(self) -> str:
        return self.name
