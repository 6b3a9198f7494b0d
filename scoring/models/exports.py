"""The tournament workbook's export jobs, built by the worker (docs/exports.md)."""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from tournament.domain.zones import zone
from tournament.models import Tournament, someone
from tournament.ops.schedule import WORKER_BEAT_SECONDS


class ExportStatus(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


# The error of a job whose task the worker's queue never received (Redis down):
# the pages say it in the visitor's words instead (ExportJob.unsent).
EXPORT_UNSENT = (
    "the worker's queue cannot be reached, so the build was not started; start it "
    "again in a minute"
)


class ExportJob(models.Model):
    """One build of a tournament's workbook (docs/exports.md).

    The file is kept in the row itself: it is written in the same transaction that
    marks the job done, so a worker killed mid-build leaves a job that is not done and
    offers no file, whatever storage the web and worker processes share. `beat_at` is
    the job's last sign of life, so that a job nobody works on any more is seen and
    sent again (scoring/excel/services.py).
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="exports"
    )
    requested_by = someone()
    status = models.CharField(
        max_length=10, choices=ExportStatus.choices, default=ExportStatus.QUEUED
    )
    progress = models.PositiveIntegerField(
        default=0, help_text="Score sheets written so far."
    )
    total = models.PositiveIntegerField(default=0, help_text="Score sheets to write.")
    content = models.BinaryField(null=True, blank=True, editable=False)
    size = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    beat_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The job's last sign of life: its task sent, or its build's "
        "beat, every EXPORT_BEAT_SECONDS.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in ExportStatus]),
                name="scoring_export_status_known",
            ),
            models.CheckConstraint(
                condition=~Q(status="done")
                | (Q(content__isnull=False) & Q(finished_at__isnull=False)),
                name="scoring_export_done_has_file",
            ),
            models.CheckConstraint(
                condition=Q(status="done") | Q(content__isnull=True),
                name="scoring_export_file_only_when_done",
            ),
            models.CheckConstraint(
                condition=Q(progress__lte=F("total")),
                name="scoring_export_progress_within_total",
            ),
        ]
        indexes = [
            models.Index(
                fields=["tournament", "status"], name="scoring_export_t_status"
            )
        ]

    def __str__(self) -> str:
        return f"export {self.pk} of {self.tournament_id}: {self.status}"

    @property
    def filename(self) -> str:
        at = timezone.localtime(
            self.finished_at or self.created_at, zone(self.tournament.time_zone)
        )
        stamp = at.strftime("%Y%m%d-%H%M")  # the tournament's time, as its pages
        return f"{self.tournament.slug}-{stamp}.xlsx"

    @property
    def unsent(self) -> bool:
        """Failed because its task could not be sent: no worker ever saw it."""
        return self.status == ExportStatus.FAILED and self.error == EXPORT_UNSENT

    @property
    def percent(self) -> int:
        if self.status == ExportStatus.DONE:
            return 100
        return (100 * self.progress // self.total) if self.total else 0

    @property
    def waiting_for_worker(self) -> bool:
        """Queued or running, but no worker has shown a sign of life for it for longer
        than the beat allows: no worker is building it just now (docs/exports.md,
        "When no worker is there"). A build beats every EXPORT_BEAT_SECONDS, and a
        live worker sends a job whose beat is EXPORT_STALE_SECONDS old again within
        one of its own beats (WORKER_BEAT_SECONDS), which marks it afresh; one beat
        more is slack. Past that no worker is running: the job goes on, from the
        start, when one is back (the broker keeps its task, acks late, and the
        worker's first beat sends it again). Read from the row alone: no query, so
        that the Excel tab's poll stays one query."""
        if self.status not in (ExportStatus.QUEUED, ExportStatus.RUNNING):
            return False
        allowed = settings.EXPORT_STALE_SECONDS + 2 * WORKER_BEAT_SECONDS
        return self.beat_at is None or self.beat_at < timezone.now() - timedelta(
            seconds=allowed
        )
