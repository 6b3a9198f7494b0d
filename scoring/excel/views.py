"""Pages of Excel (docs/exports.md): the organizers' Excel tab (the tournament
workbook built with progress, a round's paper sheets, the import of filled ones) and
the print-ready paper score sheets.

Interfaces only: the workbook is built by services.export_request (a Celery task,
eager in the embedded default), the import by services.score_sheets_import.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from scoring.links.services import table_links
from scoring.models import LeagueRound
from tournament.domain.types import Role
from tournament.web.api import xlsx_response
from tournament.web.pages import htmx_request, visible_tournament
from tournament.web.zones import tournament_zone_activate
from tournament.xlsx.uploads import upload_content

from ..domain.rules import Stage
from ..links.qr import qr_inline
from ..models import ExportJob, ExportStatus, Match
from ..sheets.selectors import (
    match_get_visible,
    match_list,
    sees_drafts,
    sheet_read,
)
from . import paper, services
from .selectors import (
    sheet_printed,
    sheets_printed,
)

STAFF = frozenset({Role.ORGANIZER, Role.SCORER})


def _staff_tournament(request: HttpRequest, slug: str):
    tournament, roles = visible_tournament(request, slug)
    if not request.user.is_authenticated:
        raise PermissionDenied(
            gettext("Sign in as the tournament's organizer or scorer.")
        )
    if not roles & STAFF:
        raise PermissionDenied(gettext("Only the tournament's organizers and scorers."))
    return tournament, roles


@require_http_methods(["GET", "POST"])
def excel_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The Excel tab: build the workbook, print a round, import filled sheets."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament, roles = _staff_tournament(request, slug)
    imported = problems = None
    import_error = ""
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "export":
            job, _ = services.export_request(tournament=tournament, user=request.user)
            if htmx_request(request):
                return _job_fragment(request, tournament, job.pk)
            return redirect("scoring:excel", slug=slug)
        if action == "import":
            if Role.ORGANIZER not in roles:
                raise PermissionDenied(
                    gettext("Only the tournament's organizers import.")
                )
            upload = request.FILES.get("file")
            if upload is None:
                import_error = gettext(
                    "file: choose the filled score sheet (.xlsx) to import."
                )
            else:
                try:
                    imported = services.score_sheets_import_file(
                        tournament=tournament,
                        user=request.user,
                        content=upload_content(upload),
                        filename=upload.name,
                    )
                except services.SheetImportRefused as refused:
                    problems, import_error = refused.problems, refused.message
    jobs = list(
        ExportJob.objects.filter(tournament=tournament)
        .defer("content")
        .select_related("tournament")[:6]
    )
    rounds = list(
        LeagueRound.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("number", flat=True)
    )
    # The knockout's rounds with sheets: their paper sheets too (one query).
    knockout_rounds = list(
        Match.objects.filter(tournament=tournament, stage=Stage.KNOCKOUT)
        .order_by("round")
        .values_list("round", flat=True)
        .distinct()
    )
    return render(
        request,
        "scoring/excel.html",
        {
            "tournament": tournament,
            "roles": roles,
            "jobs": jobs,
            "live": next((j for j in jobs if j.status in services.LIVE_EXPORT), None),
            # The last request's task could not be sent (Redis down): said on top.
            "unsent": jobs[0] if jobs and jobs[0].unsent else None,
            "rounds": rounds,
            "knockout_rounds": knockout_rounds,
            "imported": imported,
            "problems": problems,
            "import_error": import_error,
        },
        status=400 if import_error else 200,
    )


def _job_fragment(request: HttpRequest, tournament, pk: int) -> HttpResponse:
    job = (
        ExportJob.objects.defer("content")
        .select_related("tournament")
        .filter(tournament=tournament, pk=pk)
        .first()
    )
    if job is None:
        raise Http404("No such export")
    return render(
        request,
        "scoring/_export_job.html",
        {
            "tournament": tournament,
            "job": job,
            "live": job.status in services.LIVE_EXPORT,
        },
    )


@require_GET
def export_job_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One build's progress (the fragment htmx polls while it runs)."""
    tournament, _ = _staff_tournament(request, slug)
    return _job_fragment(request, tournament, pk)


@require_GET
def export_download(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    if not request.user.is_authenticated:  # a link followed after the session ended
        return redirect_to_login(request.get_full_path())
    tournament, _ = _staff_tournament(request, slug)
    job = (
        ExportJob.objects.select_related("tournament")
        .filter(tournament=tournament, pk=pk, status=ExportStatus.DONE)
        .first()
    )
    if job is None:
        raise Http404("This workbook is not ready, or no longer kept.")
    return xlsx_response(bytes(job.content), job.filename)


@require_GET
def match_print_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The paper score sheet of one match, ready to print (A4 portrait)."""
    found = match_get_visible(user=request.user, pk=pk)
    if found is None:
        raise Http404("No such match")
    match, roles = found
    tournament_zone_activate(match.tournament)
    sheet = sheet_printed(sheet_read(match=match))
    qr = (
        table_qr_codes(request, match.tournament, {match.table})
        if roles & STAFF
        else {}
    )
    return render(
        request,
        "scoring/print.html",
        {
            "tournament": match.tournament,
            "sheets": [_printable(sheet, qr.get(match.table))],
        },
    )


@require_GET
def round_print_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The paper score sheets of a round, one page per table (`?round=`,
    `&stage=knockout` for the knockout's)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament, roles = _staff_tournament(request, slug)
    try:
        number = int(request.GET.get("round", ""))
    except ValueError:
        raise Http404("round: give the round's number, as ?round=3") from None
    stage = request.GET.get("stage", Stage.LEAGUE.value)
    matches = list(
        match_list(
            tournament=tournament,
            round=number,
            stage=stage,
            drafts=sees_drafts(roles),
        )
    )
    if not matches:
        raise Http404(f"No {stage} matches in round {number}")
    # The staff's printed sheets carry their table's link as a QR code, so that the
    # table can switch to entering on a phone (docs/links.md).
    qr = table_qr_codes(request, tournament, {m.table for m in matches})
    return render(
        request,
        "scoring/print.html",
        {
            "tournament": tournament,
            "sheets": [
                _printable(s, qr.get(s[0].table))
                for s in sheets_printed(matches=matches)
            ],
        },
    )


def table_qr_codes(
    request: HttpRequest, tournament, tables: set[int]
) -> dict[int, str]:
    """These tables' links as inline QR codes, by table number."""
    return {
        table: qr_inline(
            request.build_absolute_uri(reverse("scoring:link", args=[link.key]))
        )
        for table, link in table_links(tournament=tournament, tables=tables).items()
    }


def _printable(sheet: paper.PrintedSheet, qr: str | None = None) -> dict:
    """A paper sheet for the template: its rows as the .xlsx lays them out."""
    heading, deals, penalties = sheet
    by_number = {d.number: d for d in deals}
    rows = [
        {"line": line, "deal": by_number.get(line.number)}
        for line in paper.paper_rows(heading, list(by_number))
    ]
    blank = max(0, paper.PENALTY_ROWS - len(penalties))
    return {
        "heading": heading,
        "qr": qr,
        "rows": rows,
        "penalties": penalties,
        "blank_penalties": range(blank),
    }
