"""The ratings as stored (docs/ratings.md, "Ratings"): each confirmed match as the
ratings took it, each player's rating after it, and each person's rating now.

All three are the site's and are made from the sheets: `ratings_refresh` recomputes
them from a point in the ratings' order on, and `manage.py ratings_rebuild` from the
start, to exactly these figures. A match is held by its id, not a foreign key: a
restore replaces a tournament's sheets by raw deletes, and the ratings follow it.
"""

from django.db import models
from django.db.models import Q

from tournament.models import Person, Tournament


class RatedGame(models.Model):
    """A confirmed match the ratings took: where it stands in their order, who played
    it for each side (people's ids) and who won."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+"
    )
    match = models.BigIntegerField(unique=True, help_text="The score sheet's id.")
    position = models.CharField(
        max_length=64, unique=True, help_text="Its place in the ratings' order."
    )
    stage = models.CharField(max_length=10)
    round = models.PositiveSmallIntegerField()
    outcome = models.CharField(max_length=3)
    side_a = models.JSONField(default=list)
    side_b = models.JSONField(default=list)

    class Meta:
        app_label = "scoring"
        ordering = ["position"]
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome__in=["A", "B", "tie"]),
                name="rated_game_outcome_known",
            ),
        ]

    def __str__(self) -> str:
        return f"rated match {self.match}"


class RatingStep(models.Model):
    """A person's rating after one rated match: the rating's history."""

    game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="steps")
    person = models.ForeignKey(
        Person, on_delete=models.CASCADE, related_name="rating_steps"
    )
    position = models.CharField(max_length=64)
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField()

    class Meta:
        app_label = "scoring"
        ordering = ["person", "position"]
        indexes = [
            models.Index(fields=["person", "position"], name="rating_step_person"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "person"], name="rating_step_once_per_game"
            ),
            models.CheckConstraint(
                condition=Q(sigma__gt=0, matches__gte=1),
                name="rating_step_sigma_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person_id} after {self.game_id}"


class PersonRating(models.Model):
    """A person's rating now: their last step (people with a rated match only)."""

    person = models.OneToOneField(
        Person, on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField()
    display = models.IntegerField(db_index=True)

    class Meta:
        app_label = "scoring"
        ordering = ["-display", "person"]
        constraints = [
            models.CheckConstraint(
                condition=Q(sigma__gt=0, matches__gte=1),
                name="person_rating_sigma_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person_id}: {self.display}"


class RebuildWanted(models.Model):
    """Every rating is to be computed again: written in the transaction of what asked
    (a merge, a split, a restore, an import, a tournament published or its first day
    moved), removed by the rebuild that read the sheets after it. So a rebuild whose
    task was never sent (Redis down) or never finished (a worker killed) leaves a row
    that the ratings' look finds (`ratings_behind`) and the worker's beat acts on."""

    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "scoring"

    def __str__(self) -> str:
        return f"rebuild wanted since {self.at:%Y-%m-%d %H:%M:%S}"


class RebuildQueue(models.Model):
    """The one row that says whether a rebuild's task is queued (docs/ratings.md,
    "When"): at most one waits for the worker however many writes ask for one (200
    edits of a tournament's first day cost one rebuild, not 200). A wish sets
    `queued_at` and sends the task only when it was not set (or is older than
    `STALE`: its task lost); the task clears it as it starts, so a wish made while a
    rebuild runs queues the next. `rebuilds` counts the rebuilds done. The row is
    made by the first wish."""

    STALE_SECONDS = 15 * 60
    ONLY = 1

    id = models.PositiveSmallIntegerField(primary_key=True, default=ONLY)
    queued_at = models.DateTimeField(null=True, blank=True)
    rebuilds = models.PositiveBigIntegerField(default=0)

    class Meta:
        app_label = "scoring"
        constraints = [
            models.CheckConstraint(condition=Q(id=1), name="rebuild_queue_one_row"),
        ]

    def __str__(self) -> str:
        return f"rebuild queued at {self.queued_at}" if self.queued_at else "idle"
