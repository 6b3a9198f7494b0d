"""Pages of table and team links (docs/links.md): what a link opens, with no account,
its QR code and web-app manifest; and the organizer's Links tab with renewal and the
printable cards.

A link's page finds its link by the key in the address on every request, so a
renewed key stops at once. The table's page is the score page (sheets/views.py,
`score_response`) with the link as the actor; the team's page checks in, confirms
and raises disputes through the same services as a captain's.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from scoring.links import services
from tournament import services as tournament_services
from tournament.domain.errors import RuleError, marked
from tournament.domain.types import Role, TeamStatus, TournamentStatus
from tournament.models import Link, LinkKind
from tournament.web.links import LinkHolder, link_find, link_refusal
from tournament.web.pages import (
    htmx_request,
    live_etag,
    live_headers,
    page_action,
    unchanged,
    visible_tournament,
)
from tournament.web.zones import tournament_zone_activate
from tournament.words import words_said

from ..domain.rules import MatchStatus, Side
from ..models import Dispute, Match
from ..sheets import day
from ..sheets import services as sheet_services
from ..sheets.forms import ConfirmForm, DisputeForm
from ..sheets.reach import (
    link_side,
    match_reached,
    table_reach,
    tables_playing,
    team_sheets,
)
from ..sheets.selectors import (
    confirmations_withdrawn,
    match_get_visible,
    sheet_confirmable,
    sheet_confirmed,
    sheet_read,
)
from ..sheets.views import (
    ScoreAt,
    offline_context,
    preview_response,
    score_response,
    sheet_shown,
)
from ..words import locked_notice
from .qr import qr_inline, qr_svg
from .selectors import link_list, table_links, tables_needed

# What a score page needs to open without a network (the service worker keeps it).
OFFLINE_ASSETS = (
    "css/site.css",
    "vendor/htmx-2.0.11.min.js",
    "js/csrf.js",
    "js/print.js",
    "js/live.js",
    "js/failed.js",
    "js/confirm.js",
    "js/score/queue.js",
    "js/score/store.js",
    "js/score/send.js",
    "js/score/form.js",
    "js/score/page.js",
    "js/auction.js",
    "img/icon.svg",
)
# The sheets a team's link may confirm, once every deal is in: a locked sheet shows
# whether each side had confirmed it.
CONFIRMABLE = frozenset({MatchStatus.COMPLETED, MatchStatus.CONFIRMED})
NO_LINK = (
    "This link does not work: the organizer renewed it, or it is mistyped. Ask the "
    "organizer's desk for your table's or team's card."
)


def _link(key: str, kind: LinkKind | None = None) -> Link:
    link = link_find(key)
    if link is None or (kind is not None and link.kind != kind):
        raise Http404(NO_LINK)
    tournament_zone_activate(link.tournament)
    return link


def _private(response: HttpResponse) -> HttpResponse:
    """A link's pages hold its key: never kept by a shared cache, never sent to
    another site."""
    response["Cache-Control"] = "private, no-cache"
    response["Referrer-Policy"] = "same-origin"  # the key never leaves the site
    response["X-Robots-Tag"] = "noindex"
    return response


# What a link opens
# ----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def link_page(request: HttpRequest, key: str) -> HttpResponse:
    """A table's link opens the sheet its table plays now; a team's, the team's page."""
    link = _link(key)
    if link.kind == LinkKind.TEAM:
        return _private(_team_page(request, link))
    reach = table_reach(link)
    match = reach.current
    opened = match is not None and not match.locked
    if opened and request.method == "GET" and htmx_request(request):
        # The waiting page's poll: a new sheet is open here, so load it whole.
        answer = HttpResponse(status=204)
        answer["HX-Refresh"] = "true"
        return _private(answer)
    if request.method == "POST" or opened:
        if match is None or match.locked:
            messages.error(
                request, gettext("This sheet is no longer open at this table.")
            )
            return redirect("scoring:link", key=key)
        return _private(_table_score(request, link, match, reach, home=True))
    # The waiting page polls with the ETag of what it shows (static/js/live.js).
    etag = live_etag(request, [sheet_shown(m) for m in reach.matches])
    if htmx_request(request) and (same := unchanged(request, etag)) is not None:
        return _private(same)
    page = render(
        request,
        "scoring/link_table.html",
        {
            "link": link,
            "tournament": link.tournament,
            "reach": reach,
            "match": match,
            "view": sheet_read(match=match) if match else None,
            "poll": settings.DESK_POLL_SECONDS,
            "etag": etag,
        },
    )
    return _private(live_headers(page, etag))


@require_http_methods(["GET", "POST"])
def link_sheet_page(request: HttpRequest, key: str, pk: int) -> HttpResponse:
    """One sheet a table's link reaches: its current one or an earlier unconfirmed
    one. Any other sheet is refused, naming what the link reaches."""
    link = _link(key, LinkKind.TABLE)
    reach = table_reach(link)
    match = next((m for m in reach.matches if m.pk == pk), None)
    if match is None:
        raise PermissionDenied(words_said(link_refusal(link)))
    if match.locked:
        messages.info(request, locked_notice(match.status))
        return redirect("scoring:link", key=key)
    current = reach.current is not None and reach.current.pk == match.pk
    return _private(_table_score(request, link, match, reach, home=current))


def _table_score(request, link, match, reach, *, home: bool) -> HttpResponse:
    here = reverse("scoring:link-sheet", kwargs={"key": link.key, "pk": match.pk})
    at = ScoreAt(
        score_url=here,
        preview_url=reverse(
            "scoring:link-preview", kwargs={"key": link.key, "pk": match.pk}
        ),
        back=reverse("scoring:link", kwargs={"key": link.key}) if home else here,
        template="scoring/link_score.html",
        actor=LinkHolder(link),
        extra={
            "link": link,
            "reach": reach,
            "manifest_url": reverse("scoring:link-manifest", kwargs={"key": link.key}),
            "offline": offline_context(match, link_key=link.key),
        },
    )
    return score_response(request, match, frozenset(), at)


@require_GET
def link_preview(request: HttpRequest, key: str, pk: int) -> HttpResponse:
    link = _link(key, LinkKind.TABLE)
    match = match_reached(link, pk)
    if match is None:
        raise PermissionDenied(words_said(link_refusal(link)))
    return _private(preview_response(request, match))


def _team_page(request: HttpRequest, link: Link) -> HttpResponse:
    """Check the team in, confirm its sheets, raise disputes: a captain's powers for
    this team, and nothing else. While a sheet of the team is open, the part with
    its sheets and disputes refreshes itself (an ETag poll, static/js/live.js)."""
    holder = LinkHolder(link)
    team = link.team
    assert team is not None  # noqa: S101 - a team link names its team
    back = reverse("scoring:link", kwargs={"key": link.key})
    if request.method == "POST":
        answer = page_action(request, lambda: _team_act(request, link, holder), back)
        if answer is not None:
            return answer
    matches = team_sheets(link)
    etag = live_etag(request, team.checked_in_at, [sheet_shown(m) for m in matches])
    poll = htmx_request(request)
    if poll and (same := unchanged(request, etag)) is not None:
        return same
    disputes: dict[int, list[Dispute]] = {}
    for dispute in Dispute.objects.filter(match__in=matches).order_by("raised_at"):
        disputes.setdefault(dispute.match_id, []).append(dispute)
    withdrawn = confirmations_withdrawn(matches)
    sheets = [
        _team_sheet(
            link, match, disputes.get(match.pk, []), withdrawn.get(match.pk, {})
        )
        for match in matches
    ]
    playing = next((s for s in reversed(sheets) if not s["match"].final), None)
    context = {
        "link": link,
        "tournament": link.tournament,
        "team": team,
        "sheets": sheets,
        # The dispute form offers the sheet being played first, then the others,
        # newest first (a void sheet is not disputed).
        "disputable": sorted(
            (s for s in sheets if s["match"].status != MatchStatus.VOID),
            key=lambda s: (s is not playing, -sheets.index(s)),
        ),
        "dispute_form": DisputeForm(),
        # A team checks in here as on the registration desk: where check-in is not
        # required, it still tells the desk the team has arrived.
        "check_in_open": team.checked_in_at is None
        and team.status == TeamStatus.ACTIVE,
        # Before the draw a check-in made by mistake is undone here, as the
        # registration page undoes it (docs/links.md).
        "check_in_undo": team.checked_in_at is not None
        and link.tournament.status == TournamentStatus.REGISTRATION,
        "etag": etag,
        "live": any(not m.locked for m in matches),
        "poll": settings.DESK_POLL_SECONDS,
    }
    if poll:
        return live_headers(
            render(request, "scoring/_link_team_live.html", context), etag
        )
    return render(request, "scoring/link_team.html", context)


def _team_sheet(
    link: Link, match: Match, disputes: list[Dispute], withdrawn: dict[str, int]
) -> dict:
    """One sheet of a team link's page: the score from the team's side, whether each
    side confirmed it (or a dispute withdrew its confirmation: `withdrawn`), and its
    disputes with their rulings. The match's row says all of it: no sheet is read."""
    sides = link_side(link, match)
    side = next(iter(sides)) if sides else Side.A
    return {
        "match": match,
        "side": side.value,
        "opponent": match.team(side.other.value),
        "own": (match.total_a, match.total_b)[side is Side.B],
        "theirs": (match.total_a, match.total_b)[side is Side.A],
        "can_confirm": sheet_confirmable(match, roles=frozenset(), sides=sides),
        # Every deal is in: whether each side confirmed is worth saying.
        "confirming": match.status in CONFIRMABLE,
        "confirmed": sheet_confirmed(match, side),
        "other_confirmed": sheet_confirmed(match, side.other),
        "withdrawn": withdrawn.get(side.value),
        "other_withdrawn": withdrawn.get(side.other.value),
        "disputes": disputes,
    }


def _team_act(request: HttpRequest, link: Link, holder: LinkHolder) -> str:
    action = request.POST.get("action")
    if action == "check_in":
        tournament_services.team_check_in(team=link.team, user=holder)
        return gettext("%(team)s is checked in.") % {"team": link.team.name}
    if action == "check_in_undo":
        tournament_services.team_check_in_undo(team=link.team)
        return gettext("%(team)s is no longer checked in.") % {"team": link.team.name}
    raw = request.POST.get("match", "")
    match = match_reached(link, int(raw)) if raw.isdigit() and len(raw) < 19 else None
    if match is None:
        raise RuleError("unknown_match", link_refusal(link))
    sides = link_side(link, match)
    if action == "confirm":
        form = ConfirmForm(request.POST)
        if not form.is_valid():
            raise RuleError("invalid", marked("The page is out of date; reload it."))
        done = sheet_services.score_sheet_confirm(
            match_id=match.pk,
            user=holder,
            version=form.cleaned_data["version"],
            roles=frozenset(),
            sides=sides,
        )
        if done.locked:
            return gettext("Table %(table)s: the sheet is confirmed and locked.") % {
                "table": match.table
            }
        return gettext(
            "Table %(table)s: your confirmation is recorded; the other team's is next."
        ) % {"table": match.table}
    if action == "dispute":
        form = DisputeForm(request.POST)
        if not form.is_valid():
            raise RuleError("invalid", next(iter(form.errors.values()))[0])
        dispute = day.score_sheet_dispute_raise(
            match_id=match.pk,
            user=holder,
            roles=frozenset(),
            sides=sides,
            **form.cleaned_data,
        )
        said = gettext(
            "Your dispute on table %(table)s is recorded (number %(number)s); an "
            "organizer rules on it."
        ) % {"table": match.table, "number": dispute.pk}
        if dispute.withdrew & sides:
            said += " " + gettext(
                "It withdrew your confirmation of that sheet: confirm it again "
                "after the ruling."
            )
        return said
    raise RuleError("invalid", marked("Choose what to do."))


# A link's QR code and web-app manifest
# ----------------------------------------------------------------------------------


@require_GET
def link_qr(request: HttpRequest, key: str) -> HttpResponse:
    """The link's QR code as SVG: what the cards and paper sheets print."""
    link = _link(key)
    url = request.build_absolute_uri(reverse("scoring:link", kwargs={"key": link.key}))
    svg = qr_svg(url)
    return _private(HttpResponse(svg, content_type="image/svg+xml"))


@require_GET
def link_manifest(request: HttpRequest, key: str) -> HttpResponse:
    """The table's score page as an installable web app that opens at its link."""
    link = _link(key, LinkKind.TABLE)
    start = reverse("scoring:link", kwargs={"key": link.key})
    return _private(_manifest(link.tournament.name, link.table, start))


@require_GET
def score_manifest(request: HttpRequest, pk: int) -> HttpResponse:
    """The scorer's page of a sheet as an installable web app."""
    found = match_get_visible(user=request.user, pk=pk)
    if found is None:
        raise Http404("No such match")
    match = found[0]
    start = reverse("scoring:score", kwargs={"pk": pk})
    return _private(_manifest(match.tournament.name, match.table, start))


def _manifest(tournament: str, table: int, start: str) -> HttpResponse:
    """The web app's manifest in the language of the page that links it (the same
    cookie or browser asks for both): its name, and the language it says it in."""
    body = {
        "name": gettext("%(tournament)s · table %(table)s")
        % {"tournament": tournament, "table": table},
        "short_name": gettext("Table %(table)s") % {"table": table},
        "lang": get_language() or "en",
        "dir": "ltr",
        "start_url": start,
        "scope": start,
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1f4e78",
        "icons": [
            {"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return HttpResponse(json.dumps(body), content_type="application/manifest+json")


@never_cache
@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The score pages' service worker (static/js/score/page.js registers it): served
    from the site's root so that it may keep the score pages for offline use, and
    rendered so that it names the static files as collected (with their hashes)."""
    assets = [static(name) for name in OFFLINE_ASSETS]
    version = hashlib.sha256("\n".join(assets).encode()).hexdigest()[:16]
    response = render(
        request,
        "scoring/sw.js",
        {"assets": json.dumps(assets), "version": version},
        content_type="application/javascript",
    )
    response["Service-Worker-Allowed"] = "/"
    return response


# The organizer's Links tab and cards
# ----------------------------------------------------------------------------------


def _organizer(request: HttpRequest, slug: str):
    tournament, roles = visible_tournament(request, slug)
    if Role.ORGANIZER not in roles:
        raise PermissionDenied(
            gettext("Only the tournament's organizers see its links.")
        )
    return tournament


@require_http_methods(["GET", "POST"])
def links_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every table's and team's link with its QR code; renew one; print the cards."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = _organizer(request, slug)
    needed = tables_needed(tournament)
    services.links_ensure(tournament=tournament, tables=needed)
    if request.method == "POST":
        answer = page_action(
            request,
            lambda: _renew(request, tournament),
            reverse("scoring:links", args=[slug]),
        )
        if answer is not None:
            return answer
    tables, teams = link_list(tournament=tournament)
    tables = table_links(tables, needed)
    playing = tables_playing(tournament)
    for k in tables:  # the match each table plays now, beside its link
        k.playing_now = playing.get(k.table)
    return _private(
        render(
            request,
            "scoring/links.html",
            {
                "tournament": tournament,
                "roles": frozenset({Role.ORGANIZER}),
                "tables": tables,
                "teams": teams,
            },
        )
    )


def _renew(request: HttpRequest, tournament) -> str:
    raw = request.POST.get("link", "")
    kind, _, number = raw.partition("-")
    if kind not in LinkKind.values or not number.isdigit() or len(number) > 18:
        raise RuleError("invalid", marked("Choose the link to renew."))
    if kind == LinkKind.TABLE:
        link = services.link_renew(
            tournament=tournament, user=request.user, table=int(number)
        )
    else:
        link = services.link_renew(
            tournament=tournament, user=request.user, team=int(number)
        )
    if link.kind == LinkKind.TABLE:
        renewed = gettext(
            "The link of table %(table)s is renewed: the old one no longer works. "
            "Print its card again."
        )
    else:
        renewed = gettext(
            "The link of %(team)s is renewed: the old one no longer works. Print its "
            "card again."
        )
    return renewed % {"table": link.table, "team": link.team.name if link.team else ""}


@require_GET
def link_cards_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Printable cards: one per table (`?kind=table`) or per team (`?kind=team`),
    each with the tournament, the table or team, its QR code and what to do."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = _organizer(request, slug)
    needed = tables_needed(tournament)
    services.links_ensure(tournament=tournament, tables=needed)
    tables, teams = link_list(tournament=tournament)
    tables = table_links(tables, needed)
    kind = request.GET.get("kind", LinkKind.TABLE)
    links = teams if kind == LinkKind.TEAM else tables
    cards = [
        {
            "link": k,
            "qr": qr_inline(url),
            "url": url,
        }
        for k, url in (
            (k, request.build_absolute_uri(reverse("scoring:link", args=[k.key])))
            for k in links
        )
    ]
    return _private(
        render(
            request,
            "scoring/link_cards.html",
            {
                "tournament": tournament,
                "cards": cards,
                "kind": LinkKind.TEAM if kind == LinkKind.TEAM else LinkKind.TABLE,
            },
        )
    )
