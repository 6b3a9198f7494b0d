"""The API of Excel: the tournament workbook (built in the background when large),
paper score sheets, and filled score sheets imported back (docs/exports.md).

Interfaces only: the workbook is scoring/excel/workbook.py fed by the selectors; the
import is services.score_sheets_import.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.domain.errors import ConflictError
from tournament.domain.types import Role
from tournament.selectors import tournament_roles
from tournament.web.api import (
    XLSX,
    ReadOnlyOrAuthenticated,
    RolesMixin,
    TournamentScopedMixin,
    xlsx_response,
)
from tournament.xlsx.uploads import upload_content

from ..domain.rules import Stage
from ..models import STAGE_CHOICES, Deal, ExportJob, ExportStatus
from ..sheets.apis import (
    MatchScopedMixin,
)
from ..sheets.selectors import (
    match_list,
    sees_drafts,
    sheet_read,
)
from . import paper, services
from .selectors import (
    sheet_printed,
    sheets_printed,
    tournament_workbook,
)

STAFF = (Role.ORGANIZER, Role.SCORER)


# A job whose beat stopped: no worker is running (ExportJob.waiting_for_worker). Its
# task is kept by the broker (acks late) and sent again by the first worker's beat.
WAITING_FOR_WORKER = (
    "No worker is building this workbook just now. Nothing is lost: it starts again "
    "by itself, from the first score sheet, as soon as a worker is back. If it has not "
    "moved in a few minutes, tell the site's administrator that the site's worker is "
    "not running; asking for it again does not help until then."
)


class ExportOutput(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.SlugField(source="tournament.slug")
    status = serializers.ChoiceField(choices=[s.value for s in ExportStatus])
    progress = serializers.IntegerField(help_text="Score sheets written so far.")
    total = serializers.IntegerField(help_text="Score sheets to write.")
    percent = serializers.IntegerField()
    size = serializers.IntegerField(help_text="Bytes of the file, once done.")
    error = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    file = serializers.SerializerMethodField(
        help_text="Where the workbook is, once done; null before."
    )
    waiting_for_worker = serializers.BooleanField(
        help_text="Queued or running, but no worker has shown a sign of life for it "
        "for longer than its beat allows: no worker is building it just now. It goes "
        "on by itself, from the start, when a worker is back (docs/exports.md)."
    )
    note = serializers.SerializerMethodField(
        help_text="What a person is told about the job when it waits for a worker; "
        "empty otherwise."
    )

    def get_file(self, obj) -> str | None:
        if obj.status != ExportStatus.DONE:
            return None
        return reverse("scoring-api:export-file", kwargs={"pk": obj.pk})

    def get_note(self, obj) -> str:
        return WAITING_FOR_WORKER if obj.waiting_for_worker else ""


# Redis down: the job's task could not be sent, and the job was failed rather than
# left queued (services.export_request). Not the database's 503: nothing is lost,
# the client asks again later.
WORKER_UNAVAILABLE = (
    "The workbook cannot be built now: the worker's queue cannot be reached. The job "
    "was not started; ask again in a minute, and if it keeps failing, tell the site's "
    "administrator."
)
WORKER_UNAVAILABLE_RETRY = "30"


def _requested(job: ExportJob, code: int) -> Response:
    """The answer to a request for a build: the job, or 503 when it was not sent."""
    if not job.unsent:
        return _job_answer(job, code)
    return Response(
        {"detail": WORKER_UNAVAILABLE, "code": "worker_unavailable", "job": job.pk},
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": WORKER_UNAVAILABLE_RETRY},
    )


def _job_answer(job: ExportJob, code: int) -> Response:
    response = Response(ExportOutput(job).data, status=code)
    if job.status in services.LIVE_EXPORT:
        where = reverse("scoring-api:export-detail", kwargs={"pk": job.pk})
        response["Location"] = where
        response["Retry-After"] = "2"
    return response


class TournamentExportApi(TournamentScopedMixin, APIView):
    """The whole tournament as one workbook: the sheets Teams, Draw, Standings, Score
    sheets and Bracket (API.md, Exports). Organizers and scorers.

    A tournament of up to EXPORT_INLINE_MAX_DEALS deals (and any tournament when
    Celery runs eagerly, the embedded default) gets the file in the answer. A larger
    one gets 202 with the background job (as `GET /exports/{id}/`) and its Location:
    poll it, then fetch its `file`; or 503 `worker_unavailable` when the worker's
    queue cannot be reached (the job is failed, not left queued).
    """

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="workbook_download",
        responses={
            (200, XLSX): OpenApiResponse(bytes, description="The workbook."),
            202: ExportOutput,
        },
    )
    def get(self, request, slug):
        self.require(*STAFF)
        tournament = self.tournament
        deals = Deal.objects.filter(match__tournament=tournament).count()
        if (
            settings.CELERY_TASK_ALWAYS_EAGER
            or deals <= settings.EXPORT_INLINE_MAX_DEALS
        ):
            return xlsx_response(
                tournament_workbook(tournament=tournament), f"{tournament.slug}.xlsx"
            )
        job, _ = services.export_request(tournament=tournament, user=request.user)
        job.refresh_from_db()  # failed if its task could not be sent
        return _requested(job, status.HTTP_202_ACCEPTED)


class ExportListApi(TournamentScopedMixin, APIView):
    """The tournament's workbooks: the last ones built, and any being built now.
    POST starts a build in the background (or answers the one already under way);
    503 `worker_unavailable` with Retry-After when the worker's queue cannot be
    reached: the job is failed at once, not left queued."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="export_list", responses=ExportOutput(many=True))
    def get(self, request, slug):
        self.require(*STAFF)
        jobs = ExportJob.objects.filter(tournament=self.tournament).select_related(
            "tournament"
        )[:20]
        return Response(ExportOutput(jobs, many=True).data)

    @extend_schema(
        operation_id="export_create",
        request=None,
        responses={202: ExportOutput, 200: ExportOutput},
    )
    def post(self, request, slug):
        self.require(*STAFF)
        job, created = services.export_request(
            tournament=self.tournament, user=request.user
        )
        job.refresh_from_db()  # with eager Celery it is built by now
        code = status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK
        return _requested(job, code)


class ExportJobMixin(RolesMixin):
    """Loads `self.job`, 404 unless the caller is staff of its tournament."""

    job: ExportJob

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        job = (
            ExportJob.objects.select_related("tournament")
            .defer("content")
            .filter(pk=kwargs["pk"])
            .first()
        )
        roles = (
            tournament_roles(user=request.user, tournament=job.tournament)
            if job is not None
            else frozenset()
        )
        if job is None or not roles.intersection(STAFF):
            raise Http404("No such export")
        self.job, self.roles = job, roles


class ExportDetailApi(ExportJobMixin, APIView):
    """One build of the workbook: queued, running (with progress), done or failed."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="export_get", responses=ExportOutput)
    def get(self, request, pk):
        return _job_answer(self.job, status.HTTP_200_OK)


class ExportFileApi(ExportJobMixin, APIView):
    """The workbook of a finished build; 409 `export_not_ready` before."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="export_download", responses={(200, XLSX): OpenApiResponse(bytes)}
    )
    def get(self, request, pk):
        job = self.job
        if job.status != ExportStatus.DONE:
            raise ConflictError(
                "export_not_ready",
                f"this workbook is {job.status}"
                + (f" ({job.error})" if job.error else "")
                + "; poll the export until it is done, or start another.",
            )
        content = ExportJob.objects.values_list("content", flat=True).get(pk=job.pk)
        return xlsx_response(bytes(content), job.filename)


# Paper score sheets and their import
# ----------------------------------------------------------------------------------


class MatchSheetFileApi(MatchScopedMixin, APIView):
    """The match's paper score sheet (.xlsx): pre-filled with the teams, table, round
    and a row for each scheduled deal (and the tie-break's in a knockout), holding
    whatever the sheet already has. The import reads this layout back."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(
        operation_id="match_sheet_download",
        responses={(200, XLSX): OpenApiResponse(bytes)},
    )
    def get(self, request, pk):
        match = self.match
        content = paper.score_sheet_build([sheet_printed(sheet_read(match=match))])
        return xlsx_response(
            content,
            f"{match.tournament.slug}-{match.stage}-r{match.round}-t{match.table}.xlsx",
        )


class RoundSheetsFileApi(TournamentScopedMixin, APIView):
    """The paper score sheets of a whole round, one worksheet per table, for the
    tournaments that score on paper first. Organizers and scorers."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="round_sheets_download",
        parameters=[
            OpenApiParameter("round", int, required=True),
            OpenApiParameter("stage", str, enum=[s for s, _ in STAGE_CHOICES]),
        ],
        responses={(200, XLSX): OpenApiResponse(bytes)},
    )
    def get(self, request, slug):
        self.require(*STAFF)
        query = RoundQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        number, stage = query.validated_data["round"], query.validated_data["stage"]
        matches = list(
            match_list(
                tournament=self.tournament,
                round=number,
                stage=stage,
                drafts=sees_drafts(self.roles),
            )
        )
        if not matches:
            raise Http404(f"No {stage} matches in round {number}")
        content = paper.score_sheet_build(sheets_printed(matches=matches))
        return xlsx_response(content, f"{slug}-{stage}-round-{number}.xlsx")


class RoundQuery(serializers.Serializer):
    round = serializers.IntegerField(min_value=1)
    stage = serializers.ChoiceField(
        choices=[s for s, _ in STAGE_CHOICES], default=Stage.LEAGUE.value
    )


class FileProblemOutput(serializers.Serializer):
    worksheet = serializers.CharField()
    row = serializers.IntegerField(allow_null=True)
    field = serializers.CharField()
    message = serializers.CharField()


class ImportedOutput(serializers.Serializer):
    match = serializers.IntegerField(source="match.pk")
    worksheet = serializers.CharField()
    version = serializers.IntegerField(source="match.version")
    status = serializers.CharField(source="match.status")
    total_a = serializers.IntegerField(source="match.total_a")
    total_b = serializers.IntegerField(source="match.total_b")
    unchanged = serializers.BooleanField()
    added = serializers.IntegerField()
    replaced = serializers.IntegerField()
    deleted = serializers.IntegerField()
    penalties_added = serializers.IntegerField()
    penalties_deleted = serializers.IntegerField()
    toss = serializers.BooleanField()


def problems_data(problems: list[paper.FileProblem]) -> list[dict[str, Any]]:
    return [
        {"worksheet": p.worksheet, "row": p.row, "field": p.field, "message": p.message}
        for p in problems
    ]


class ScoreSheetImportApi(TournamentScopedMixin, APIView):
    """Record filled paper score sheets from an .xlsx in the layout of `sheet.xlsx`
    (one worksheet per match), all or nothing. Organizers only. Every bad row is
    reported with its worksheet, row, field and reason; the history of each sheet
    shows the file and row each change came from."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]  # an upload: multipart only (API.md)

    class InputSerializer(serializers.Serializer):
        file = serializers.FileField()

    class OutputSerializer(serializers.Serializer):
        sheets = ImportedOutput(many=True)

    class RefusedSerializer(serializers.Serializer):
        """Bad rows (`detail` and every row's problem in `errors`), or a file that
        is not a workbook of score sheets at all (`file`)."""

        detail = serializers.CharField(required=False)
        errors = FileProblemOutput(many=True, required=False)
        file = serializers.ListField(child=serializers.CharField(), required=False)

    @extend_schema(
        operation_id="score_sheets_import",
        request={"multipart/form-data": InputSerializer},
        responses={200: OutputSerializer, 400: RefusedSerializer},
    )
    def post(self, request, slug):
        self.require(Role.ORGANIZER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        upload = data.validated_data["file"]
        try:
            done = services.score_sheets_import_file(
                tournament=self.tournament,
                user=request.user,
                content=upload_content(upload),
                filename=upload.name,
            )
        except services.SheetImportRefused as refused:
            return Response(
                {"detail": refused.message, "errors": problems_data(refused.problems)},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response({"sheets": ImportedOutput(done, many=True).data})
