"""Pages of the tournament day at a glance: the desk (organizers and scorers), the
venue screen (public for a published tournament) and "where do I play?".

Interfaces only: each POST names an action, a form checks its shape, one service does
the work. The desk and the screen refresh themselves with htmx polls of their own
address, which answer the part that changes.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET, require_http_methods

from tournament.db.cache import cached, cached_many, keep_many
from tournament.domain.errors import RuleError
from tournament.domain.types import Role
from tournament.models import Player
from tournament.ops.version import VERSION
from tournament.persons.selectors import TeamPeople
from tournament.web.pages import htmx_request, page_action, visible_tournament

from ..domain import desk as rules
from ..league import services as league_services
from ..sheets.fingerprints import decided_fingerprint
from . import services
from .forms import AnnouncementForm, RowForm, WhereForm
from .selectors import (
    WHERE_MIN,
    Screen,
    announcement_list,
    desk_get,
    screen_get,
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
            gettext("The desk is for the tournament's organizers and scorers.")
        )
    organizer = Role.ORGANIZER in roles
    form = AnnouncementForm(
        request.POST if request.POST.get("action") == "announce" else None
    )
    if request.method == "POST":
        if not organizer:
            raise PermissionDenied(
                gettext("Only organizers release rounds and announce.")
            )
        answer = page_action(
            request,
            lambda: _act(request, tournament, form),
            reverse("scoring:desk", args=[slug]),
        )
        if answer is not None:
            return answer
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
        return gettext("The announcement is on the venue screen.")
    if action == "end":
        row = RowForm(request.POST)
        if not row.is_valid():
            raise RuleError("invalid", gettext("Choose an announcement of the list."))
        announcement = get_object_or_404(
            announcement_list(tournament=tournament), pk=row.cleaned_data["row"]
        )
        services.announcement_end(announcement=announcement, user=request.user)
        return gettext("The announcement is off the screen.")
    if action == "release":
        row = RowForm(request.POST)
        if not row.is_valid():
            raise RuleError("invalid", gettext("Choose a round to release."))
        number = row.cleaned_data["row"]
        league_services.league_round_release(
            tournament=tournament, user=request.user, number=number
        )
        return gettext("Round %(number)s is released: its pairings are public now.") % {
            "number": number
        }
    raise RuleError("invalid", gettext("Choose what to do from the page."))


# The venue screen
# ----------------------------------------------------------------------------------


@require_GET
def screen_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A full-screen page for a projector: the current round's pairings by table (over
    as many views as they need) and the top of the standings, in turn, with the
    announcements; it asks for its next view every SCREEN_SECONDS."""
    tournament, _roles = visible_tournament(request, slug)
    try:
        view = int(request.GET.get("view", "0"))
    except ValueError:
        view = 0
    part = screen_part(tournament, view)
    if htmx_request(request):
        return HttpResponse(part)
    return render(
        request, "scoring/screen.html", {"tournament": tournament, "part": part}
    )


def screen_part(tournament, view: int) -> str:  # type: ignore[no-untyped-def]
    """One view of the screen, rendered once per change of what it shows (the
    decided sheets, the round's state, the names, the announcements: one query),
    per language and time zone, and kept in the shared cache: every screen of the
    venue, on every worker, turns to the same render.

    A view number turns round (the ninth of eight views is the first), so a render
    is kept under its place in the turn, never under the number the address
    carried: `?view=12345` makes no key of its own (issue 51). The number of views
    is kept beside the renders; a screen's own next address is always in the turn,
    so its view and that number come in one round trip."""
    key = repr(
        (
            decided_fingerprint(tournament=tournament, what="screen 1"),
            [(a.pk, a.text) for a in announcement_list(tournament=tournament)[:3]],
            get_language(),
            timezone.get_current_timezone_name(),
            VERSION,
        )
    )
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    turn = f"screen-views:{tournament.pk}:{digest}"

    def part(index: int) -> str:
        return f"screen-part:{tournament.pk}:{digest}:{index}"

    def render_part(screen: Screen) -> str:
        return render_to_string(
            "scoring/_screen.html",
            {
                "tournament": tournament,
                "screen": screen,
                "next": reverse("scoring:screen", args=[tournament.slug])
                + f"?view={screen.next_view}",
                "seconds": settings.SCREEN_SECONDS,
            },
        )

    found = cached_many([turn, part(view)])
    views = found.get(turn)
    if views is not None:
        index = view % views
        if index == view and part(index) in found:
            return found[part(index)]
        return cached(
            part(index),
            lambda: render_part(screen_get(tournament=tournament, view=index)),
        )
    screen = screen_get(tournament=tournament, view=view)
    html = render_part(screen)
    keep_many({turn: screen.views, part(screen.index): html})
    return html


# Where do I play?
# ----------------------------------------------------------------------------------


def _players_people(teams: list) -> dict[int, list[tuple[str, int | None]]]:
    """Each team's registered players, with the person each is (two queries)."""
    found = TeamPeople([t.pk for t in teams])
    city = {t.pk: t.captain_city for t in teams}
    players: dict[int, list[tuple[str, int | None]]] = {t.pk: [] for t in teams}
    for team, name in (
        Player.objects.filter(team__in=list(city))
        .order_by("team", "position")
        .values_list("team", "name")
    ):
        players[team].append((name, found.of(team, name, city[team])))
    return players


@require_GET
def where_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A team's current match and its next one, found by the team's or a player's
    name; the tournament page asks it with htmx, a phone without script opens it."""
    tournament, roles = visible_tournament(request, slug)
    form = WhereForm(request.GET or None)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    found = where_do_i_play(tournament=tournament, query=query)
    people = _players_people([w.team for w in found])
    context = {
        "tournament": tournament,
        "roles": roles,
        "form": form,
        "query": query,
        "found": found,
        "people": people,
        # The length of the search itself (not of what was typed, spaces and all),
        # the one limit where_do_i_play applies.
        "too_short": len(query.strip()) < WHERE_MIN,
        "where_min": WHERE_MIN,
    }
    template = "scoring/_where.html" if htmx_request(request) else "scoring/where.html"
    return render(request, template, context)
