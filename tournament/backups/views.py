"""The organizer's backup pages: a tournament's backups (take one, download one,
restore one after a confirmation), and the import of a tournament from another site
(docs/backups.md)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from tournament.web.pages import visible_tournament

from ..domain.errors import Words
from ..domain.types import Role
from ..models import Backup, Tournament
from ..words import backup_reason, exception_said, words_said
from . import selectors, services
from .archive import BackupRefused, release
from .upgrades import OLDEST


def _organizer(request: HttpRequest, slug: str) -> tuple[Tournament, frozenset]:
    tournament, roles = visible_tournament(request, slug)
    if Role.ORGANIZER not in roles:
        raise PermissionDenied(
            gettext("Only the tournament's organizers see its backups.")
        )
    return tournament, roles


@require_http_methods(["GET", "POST"])
def backup_list_page(request: HttpRequest, slug: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament, roles = _organizer(request, slug)
    if request.method == "POST":
        backup = services.backup_take(
            tournament=tournament, reason="by hand", user=request.user
        )
        messages.success(
            request,
            gettext("Backup %(number)s taken: %(rows)s rows of %(tournament)s.")
            % {"number": backup.pk, "rows": backup.rows, "tournament": tournament},
        )
        return redirect("tournament:backups", slug=slug)
    backups = selectors.backup_list(tournament=tournament)
    for backup in backups:
        _said(backup)
    return render(
        request,
        "tournament/backups.html",
        {
            "tournament": tournament,
            "roles": roles,
            "backups": backups,
            "kept": settings.BACKUPS_KEPT,
        },
    )


def _said(backup: Backup) -> None:
    """A backup's reason, and whether it restores here, in the page's language."""
    backup.reason_said = backup_reason(backup.reason)
    backup.refusal_said = (
        exception_said(backup.state.refusal) if backup.state.refusal else ""
    )
    backup.written_by_said = _release_said(backup.state.written_by)


def _release_said(written_by: Words | str) -> str:
    """The release that wrote a file, as a page says it ("0.3.0", or "a build after
    0.3.0" in its language)."""
    return words_said(written_by) if isinstance(written_by, Words) else written_by


def _brought_up(state) -> str:
    """The sentence a page adds after loading an earlier release's file."""
    if not state.older:
        return ""
    return " " + gettext(
        "It was written by %(release)s and brought up to this release (%(here)s)."
    ) % {"release": _release_said(state.written_by), "here": release()}


def _backup(tournament: Tournament, pk: int) -> Backup:
    """One of the tournament's backups, without its bytes (404 if not its own)."""
    return get_object_or_404(
        Backup.objects.defer("content"), pk=pk, tournament=tournament
    )


def backup_download(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament, _ = _organizer(request, slug)
    backup = _backup(tournament, pk)
    response = HttpResponse(
        services.backup_content(backup), content_type="application/gzip"
    )
    name = f"{tournament.slug}-{backup.created_at:%Y%m%dT%H%M%S}-{backup.scope}.56.gz"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_http_methods(["GET", "POST"])
def backup_restore_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Restore after a confirmation: the page says what will be replaced."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament, roles = _organizer(request, slug)
    backup = selectors.backup_get(tournament=tournament, pk=pk)
    if backup is None:
        raise Http404
    if request.method == "POST":
        if request.POST.get("confirm") != tournament.slug:
            messages.error(
                request,
                gettext(
                    "Nothing was restored: type the tournament's slug (%(slug)s) to "
                    "confirm."
                )
                % {"slug": tournament.slug},
            )
            return redirect("tournament:backup-restore", slug=slug, pk=pk)
        try:
            restored, safety = services.backup_restore(
                tournament=tournament,
                content=services.backup_content(backup),
                user=request.user,
                trusted=True,
                setting="BACKUP_IMPORT_MAX_BYTES",
            )
        except BackupRefused as refused:
            messages.error(
                request,
                gettext("Nothing was restored: %(reason)s")
                % {"reason": exception_said(refused)},
            )
            return redirect("tournament:backups", slug=slug)
        messages.success(
            request,
            gettext(
                "Restored backup %(number)s (%(reason)s). What it replaced is kept as "
                "backup %(safety)s."
            )
            % {
                "number": backup.pk,
                "reason": backup_reason(backup.reason),
                "safety": safety.pk,
            }
            + _brought_up(restored.state),
        )
        return redirect("tournament:backups", slug=slug)
    _said(backup)
    return render(
        request,
        "tournament/backup_restore.html",
        {"tournament": tournament, "roles": roles, "backup": backup},
    )


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Backup file"),
        help_text=_(
            "A tournament's backup (.56.gz), downloaded from its Backups page."
        ),
    )
    slug = forms.SlugField(
        required=False,
        max_length=60,
        label=_("Address"),
        help_text=_(
            "/t/<address>/: leave empty to keep the file's; give another where it is "
            "taken"
        ),
    )


@require_http_methods(["GET", "POST"])
def tournament_import_page(request: HttpRequest) -> HttpResponse:
    """A tournament from another site: the people who may create tournaments."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.has_perm("tournament.add_tournament"):
        raise PermissionDenied(
            gettext("Only people who may create tournaments import one.")
        )
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > settings.BACKUP_UPLOAD_MAX_BYTES:
            form.add_error(
                "file",
                gettext(
                    "Not imported: the file is %(size)s MB; a backup uploaded here may "
                    "be at most %(most)s MB (BACKUP_UPLOAD_MAX_BYTES)."
                )
                % {
                    "size": upload.size // 2**20,
                    "most": settings.BACKUP_UPLOAD_MAX_BYTES // 2**20,
                },
            )
        else:
            try:
                tournament = services.tournament_import(
                    content=upload.read(),
                    user=request.user,
                    slug=form.cleaned_data["slug"] or None,
                    setting="BACKUP_IMPORT_MAX_BYTES",
                )
            except BackupRefused as refused:
                form.add_error(
                    "file",
                    gettext("Not imported: %(reason)s")
                    % {"reason": exception_said(refused)},
                )
            else:
                messages.success(
                    request,
                    gettext("%(tournament)s is imported; you are its organizer.")
                    % {"tournament": tournament.name}
                    + _brought_up(tournament.file_state),
                )
                return redirect("tournament:detail", slug=tournament.slug)
    return render(
        request,
        "tournament/import.html",
        {"form": form, "release": release(), "oldest": OLDEST},
        status=400 if form.errors else 200,
    )
