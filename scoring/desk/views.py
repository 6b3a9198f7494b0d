"""Pages of the tournament day at a glance: the desk (organizers and scorers), the
venue screen (public for a published tournament) and "where do I play?".

Interfaces only: each POST names an action, a form checks its shape, one service does
the work. The desk and the screen refresh themselves with htmx polls of their own
address, which answer the part that changes.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from tournament.domain.errors import RuleError
from tournament.domain.types import Role
from tournament.models import Bye
from tournament.views import htmx_request, visible_tournament

from ..domain import desk as rules
from ..domain.rules import Stage
from ..league import services as league_services
from ..league.selectors import standings_get
from . import services
from .forms import AnnouncementForm, RowForm, WhereForm
from .selectors import (
    announcement_list,
    desk_get,
    round_marks,
    round_tables,
    where_do_i_play,
)

DESK_ROLES = frozenset({Role.ORGANIZER, Role.SCORER})


@require_http_methods(["GET", "POST"])
def desk_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The current round's tables at a glance, with counts per state and the late
    ones marked; organizers release the next round and write announcements here."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament, roles = visible_tournament(request, slug)
    if not roles & DESK_ROLES:
        raise PermissionDenied(
            "The desk is for the tournament's organizers and scorers."
        )
    organizer = Role.ORGANIZER in roles
    form = AnnouncementForm(
        request.POST if request.POST.get("action") == "announce" else None
    )
    if request.method == "POST":
        if not organizer:
            raise PermissionDenied("Only organizers release rounds and announce.")
        try:
            done = _act(request, tournament, form)
        except RuleError as error:
            messages.error(request, error.message)
            return redirect("scoring:desk", slug=slug)
        if done is not None:
            messages.success(request, done)
            return redirect("scoring:desk", slug=slug)
    desk = desk_get(tournament=tournament, wanted=request.GET.get("round"))
    context = {
        "tournament": tournament,
        "roles": roles,
        "desk": desk,
        "states": [(s, desk.counts[s]) for s in rules.TableState],
        "poll": settings.DESK_POLL_SECONDS,
        "announcements": list(announcement_list(tournament=tournament)),
        "form": form,
    }
    if htmx_request(request):
        return render(request, "scoring/_desk.html", context)
    return render(
        request,
        "scoring/desk.html",
        context,
        status=400 if form.is_bound else 200,
    )


def _act(request, tournament, form) -> str | None:
    action = request.POST.get("action")
    if action == "announce":
        if not form.is_valid():
            return None
        services.announcement_create(
            tournament=tournament, user=request.user, text=form.cleaned_data["text"]
        )
        return "The announcement is on the venue screen."
    if action == "end":
        row = RowForm(request.POST)
        if not row.is_valid():
            raise RuleError("invalid", "Choose an announcement of the list.")
        announcement = get_object_or_404(
            announcement_list(tournament=tournament), pk=row.cleaned_data["row"]
        )
        services.announcement_end(announcement=announcement, user=request.user)
        return "The announcement is off the screen."
    if action == "release":
        row = RowForm(request.POST)
        if not row.is_valid():
            raise RuleError("invalid", "Choose a round to release.")
        number = row.cleaned_data["row"]
        league_services.league_round_release(
            tournament=tournament, user=request.user, number=number
        )
        return f"Round {number} is released: its pairings are public now."
    raise RuleError("invalid", "Choose what to do from the page.")


# The venue screen
# ----------------------------------------------------------------------------------

PAIRINGS_PER_VIEW = 24  # two columns of 12 in large type on 1920×1080
STANDINGS_ON_SCREEN = 12


@require_GET
def screen_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A full-screen page for a projector: the current round's pairings by table (over
    as many views as they need) and the top of the standings, in turn, with the
    announcements; it asks for its next view every SCREEN_SECONDS."""
    tournament, _roles = visible_tournament(request, slug)
    marks = round_marks(tournament=tournament, drafts=False)
    current = rules.current_round(marks)
    tables = list(round_tables(tournament=tournament, mark=current)) if current else []
    byes = (
        list(
            Bye.objects.filter(
                tournament=tournament, round=current.number
            ).select_related("team")
        )
        if current is not None and current.stage == Stage.LEAGUE
        else []
    )
    views: list[tuple[str, range | None]] = [
        ("pairings", part)
        for part in rules.screen_views(len(tables), PAIRINGS_PER_VIEW)
    ]
    pairing_views = len(views)
    if any(m.stage == Stage.LEAGUE and m.decided for m in marks):
        views.append(("standings", None))
    try:
        index = int(request.GET.get("view", "0")) % max(len(views), 1)
    except ValueError:
        index = 0
    kind, part = views[index] if views else ("empty", None)
    shown = [tables[i] for i in part] if part is not None else []
    standings = standings_get(tournament=tournament) if kind == "standings" else None
    context = {
        "tournament": tournament,
        "round": current,
        "kind": kind,
        "tables": shown,
        "byes": byes if kind == "pairings" and index == pairing_views - 1 else [],
        "part": index + 1,
        "parts": pairing_views,
        "rows": standings.rows[:STANDINGS_ON_SCREEN] if standings else [],
        "announcements": list(
            announcement_list(tournament=tournament)[: services.ANNOUNCEMENTS_SHOWN]
        ),
        "next": reverse("scoring:screen", args=[slug])
        + f"?view={(index + 1) % max(len(views), 1)}",
        "seconds": settings.SCREEN_SECONDS,
    }
    template = (
        "scoring/_screen.html" if htmx_request(request) else "scoring/screen.html"
    )
    return render(request, template, context)


# Where do I play?
# ----------------------------------------------------------------------------------


@require_GET
def where_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A team's current match and its next one, found by the team's or a player's
    name; the tournament page asks it with htmx, a phone without script opens it."""
    tournament, roles = visible_tournament(request, slug)
    form = WhereForm(request.GET or None)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    context = {
        "tournament": tournament,
        "roles": roles,
        "form": form,
        "query": query,
        "found": where_do_i_play(tournament=tournament, query=query),
    }
    template = "scoring/_where.html" if htmx_request(request) else "scoring/where.html"
    return render(request, template, context)
