"""A tournament's backups kept on the site, and the copies of its sheets kept for
the next one (docs/backups.md)."""

from django.db import models
from django.db.models import Q

from .tournaments import Tournament, someone


class BackupScope(models.TextChoices):
    TOURNAMENT = "tournament"
    SHEETS = "sheets"


class Backup(models.Model):
    """A backup of one tournament, or of some of its sheets, kept in the database so
    that every web worker on every machine lists and restores the same ones, and so
    that it is written in the transaction of the step it comes before: it exists if
    and only if the step was taken (docs/backups.md). `content` is the file itself,
    as downloaded (tournament/backups/archive.py). It holds no secret."""

    tournament = models.ForeignKey(
        Tournament,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="backups",
    )
    slug = models.SlugField(max_length=60, help_text="Kept if the tournament goes.")
    scope = models.CharField(max_length=12, choices=BackupScope.choices)
    sheets = models.JSONField(
        default=list, blank=True, help_text="The sheets it holds (scope sheets)."
    )
    reason = models.CharField(max_length=300)
    automatic = models.BooleanField(default=True)
    created_by = someone()
    created_at = models.DateTimeField()
    counts = models.JSONField(default=dict, help_text="Rows per model.")
    rows = models.PositiveIntegerField()
    size = models.PositiveIntegerField(help_text="Bytes of the file.")
    sha256 = models.CharField(max_length=64, help_text="The rows' checksum.")
    content = models.BinaryField(editable=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(scope__in=[s.value for s in BackupScope]),
                name="tournament_backup_scope_known",
            ),
            models.CheckConstraint(
                condition=Q(size__gte=1), name="tournament_backup_not_empty"
            ),
            models.CheckConstraint(
                condition=~Q(reason=""), name="tournament_backup_has_reason"
            ),
        ]
        indexes = [
            models.Index(
                fields=["tournament", "automatic", "created_at"],
                name="tournament_backup_kept",
            )
        ]

    def __str__(self) -> str:
        return (
            f"backup of {self.slug} ({self.reason}, {self.created_at:%Y-%m-%d %H:%M})"
        )


class SheetCopy(models.Model):
    """One score sheet's rows at one version, as a line of a backup file, compressed:
    a cache that lets a backup of a tournament reuse what an earlier one read instead
    of reading every sheet again. Never restored; rebuilt whenever missing or old
    (tournament/backups/archive.py)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+"
    )
    sheet = models.BigIntegerField(help_text="The id of the score sheet (a match).")
    version = models.PositiveIntegerField()
    line = models.BinaryField(help_text="One gzip member: the sheet's line.")
    sha256 = models.CharField(max_length=64, help_text="Of the line's text.")
    counts = models.JSONField(default=dict)
    people = models.JSONField(default=list, help_text="The ids of people it names.")

    class Meta:
        verbose_name_plural = "sheet copies"
        constraints = [
            models.UniqueConstraint(fields=["sheet"], name="tournament_sheet_copy_once")
        ]

    def __str__(self) -> str:
        return f"copy of sheet {self.sheet} at version {self.version}"
