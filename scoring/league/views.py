"""Pages of the league: the Draw tab (sizes, the draw, release), the standings and a
team's page with every deal of every match, refreshed while matches are played.

Interfaces only: each POST names an action, a form checks its shape, one service does
the work.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from tournament.db.cache import cached
from tournament.domain.errors import RuleError, marked
from tournament.domain.roster import roster_now
from tournament.domain.types import Role
from tournament.models import Team, Tournament
from tournament.ops.version import VERSION
from tournament.persons.selectors import TeamPeople
from tournament.selectors import substitution_list, swaps_of
from tournament.web.pages import (
    form_errors,
    htmx_request,
    live_etag,
    live_headers,
    unchanged,
    visible_tournament,
)
from tournament.words import refusal, words_said

from ..domain.desk import current_round
from ..domain.rounds import round_name
from ..sheets import services as sheet_services
from ..sheets.fingerprints import standings_fingerprint
from ..sheets.forms import MatchForm
from ..sheets.selectors import (
    sees_drafts,
)
from ..statistics.labels import FIGURE_COLUMNS
from ..statistics.selectors import QUOTE, player_url, team_players_get
from . import services
from .forms import (
    DrawForm,
    LotForm,
    ReleaseForm,
    SectionFilterForm,
    SubstituteForm,
    WithdrawForm,
)
from .selectors import (
    draw_state,
    round_list,
    round_marks,
    round_pick,
    standings_get,
    team_matches_shown,
    team_sheets,
)

# The league draw and a team's rounds
# ----------------------------------------------------------------------------------


# The draw's problems (scoring/domain/draw.py) by the page where each is fixed:
# the number of rounds is a setting, the teams and sections are the registration desk's.
FIXED_IN_SETTINGS = frozenset({"no_rounds", "too_few_opponents", "sections_too_large"})
FIXED_ON_DESK = frozenset(
    {
        "too_few_teams",
        "one_section",
        "section_too_large",
        "too_few_opponents",
        "sections_too_large",
    }
)


@require_http_methods(["GET", "POST"])
def draw_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizer's draw: the field and why no draw can be made (before the
    button), the draw with its seed, spread and checker, and the release of rounds."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament, roles = visible_tournament(request, slug)
    if Role.ORGANIZER not in roles:
        raise PermissionDenied(
            gettext("Only the tournament's organizers draw the league.")
        )
    action = request.POST.get("action") if request.method == "POST" else None
    form = DrawForm(request.POST if action == "draw" else None)
    if action == "draw" and form.is_valid():
        try:
            done = services.league_draw_generate(
                tournament=tournament, user=request.user, seed=form.cleaned_data["seed"]
            )
        except RuleError as error:
            messages.error(request, refusal(error))
        else:
            messages.success(
                request,
                gettext(
                    "The league is drawn (draw %(number)s, seed %(seed)s). Check the "
                    "rounds, then release them to the teams."
                )
                % {"number": done.number, "seed": done.seed},
            )
        return redirect("scoring:draw", slug=slug)
    if action in ("release", "release-all"):
        release = ReleaseForm(request.POST)
        try:
            if action == "release-all":
                services.league_rounds_release_all(
                    tournament=tournament, user=request.user
                )
            elif release.is_valid() and release.cleaned_data["round"]:
                services.league_round_release(
                    tournament=tournament,
                    user=request.user,
                    number=release.cleaned_data["round"],
                )
            else:
                raise RuleError("invalid", marked("Choose a round to release."))
        except RuleError as error:
            messages.error(request, refusal(error))
        else:
            messages.success(
                request, gettext("Released: the teams see these pairings now.")
            )
        return redirect("scoring:draw", slug=slug)
    state = draw_state(tournament=tournament)
    codes = {problem.code for problem in state.problems}
    return render(
        request,
        "scoring/draw.html",
        {
            "tournament": tournament,
            "roles": roles,
            "state": state,
            # Where each problem is fixed: the rounds on the Settings page, the teams
            # and their sections on the registration desk.
            "fix_settings": bool(codes & FIXED_IN_SETTINGS),
            "fix_desk": bool(codes & FIXED_ON_DESK),
            "rounds": round_list(tournament=tournament, drafts=True),
            "form": form,
        },
    )


def _withdraw(request, team) -> str:
    form = WithdrawForm(request.POST, prefix="withdraw")
    if not form.is_valid():
        raise RuleError("invalid", next(iter(form.errors.values()))[0])
    services.team_withdraw(team=team, user=request.user, **form.cleaned_data)
    return gettext(
        "%(team)s is withdrawn from round %(number)s: its later matches are forfeits "
        "its opponents win."
    ) % {"team": team.name, "number": form.cleaned_data["from_round"]}


def _substitute(request, team) -> str:
    form = SubstituteForm(request.POST, prefix="substitute")
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        # The form's label and error are in the page's language already.
        raise RuleError(
            "invalid",
            gettext("%(label)s: %(error)s")
            % {"label": form.fields[field].label, "error": errors[0]},
        )
    made = services.substitution_approve(
        team=team, user=request.user, **form.cleaned_data
    )
    # The round by its one name ("Round 1"), as every page names it.
    return gettext(
        "%(player_in)s plays for %(team)s instead of %(player_out)s from %(round)s."
    ) % {
        "player_in": made.player_in,
        "team": team.name,
        "player_out": made.player_out,
        "round": words_said(
            round_name(made.stage, made.from_round, team.tournament.qualifiers)
        ),
    }


TEAM_ACTIONS = {"withdraw": _withdraw, "substitute": _substitute}


def _roster_now(players, substitutions) -> list[dict]:
    """The team's players as they are now, in the registration's order, as the rule
    says (`roster.roster_now`): a player an approved substitution replaced gives way to
    who came in, with the substitution (whom he replaced, from which round); the
    captain (position 1) marked while he plays."""
    ordered = sorted(players, key=lambda p: p.position)
    by_number = {s.number: s for s in substitutions}
    now = roster_now([p.name for p in ordered], swaps_of(substitutions))
    return [
        {
            "name": name,
            "captain": player.position == 1 and swap is None,
            "came": by_number[swap.number] if swap is not None else None,
        }
        for player, (name, swap) in zip(ordered, now, strict=True)
    ]


def _with_people(team: Team, roster: list[dict]) -> list[dict]:
    """Each player of the roster with the person they are across tournaments."""
    people = TeamPeople([team.pk])
    for entry in roster:
        entry["person"] = people.of(team.pk, entry["name"], team.captain_city)
    return roster


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def team_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A team: its players, its standing, and its rounds, each match with every deal
    of its sheet. While one of its matches is not confirmed, the page refreshes
    itself (htmx polls the part below the players)."""
    tournament, roles = visible_tournament(request, slug)
    team = (
        Team.objects.filter(tournament=tournament, pk=pk)
        .select_related("section")
        .prefetch_related("players")
        .first()
    )
    if team is None:
        raise Http404("No such team")
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if Role.ORGANIZER not in roles:
            raise PermissionDenied(
                gettext(
                    "Only an organizer withdraws a team or approves a substitution."
                )
            )
        action = TEAM_ACTIONS.get(request.POST.get("action", ""))
        try:
            if action is None:
                raise RuleError(
                    "invalid", gettext("Choose what to do from the forms here.")
                )
            messages.success(request, action(request, team))
        except RuleError as error:
            messages.error(request, refusal(error))
        return redirect("scoring:team", slug=slug, pk=pk)
    # The live part's poll: 304 before anything is read while neither the standings
    # nor the team's own sheets changed (two plain queries).
    etag = live_etag(
        request,
        standings_fingerprint(tournament=tournament, section=team.section_id),
        team_matches_shown(tournament=tournament, team=team.pk),
    )
    if htmx_request(request) and (same := unchanged(request, etag)) is not None:
        return same
    rows = team_sheets(tournament=tournament, team=team.pk, drafts=sees_drafts(roles))
    substitutions = list(substitution_list(team=team))
    context = {
        "tournament": tournament,
        "roles": roles,
        "team": team,
        "rows": rows,
        "standing": standings_get(
            tournament=tournament, section=team.section_id
        ).row_of(team.pk),
        "live": any(r.open for r in rows),
        "etag": etag,
        "poll": settings.STANDINGS_POLL_SECONDS,
        "substitutions": substitutions,
        "roster": _with_people(team, _roster_now(team.players.all(), substitutions)),
        "figure_columns": FIGURE_COLUMNS,
        "bidders": [
            (p, player_url(tournament, team.pk, p.player) if p.player else "")
            for p in team_players_get(tournament=tournament, team=team.pk)
        ],
        "organizer": Role.ORGANIZER in roles,
        # Prefixed, as both ask "From round" and "Why": each field's id is its own
        # form's (id_withdraw-reason, id_substitute-reason).
        "withdraw_form": WithdrawForm(prefix="withdraw"),
        "substitute_form": SubstituteForm(prefix="substitute"),
    }
    if htmx_request(request):
        return live_headers(render(request, "scoring/_team_live.html", context), etag)
    return render(request, "scoring/team.html", context)


# Standings
# ----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The league standings for everyone: R1..R4, provisional marks, the qualifying
    line; a section filter; printable. While the league is played, the table
    refreshes itself (htmx polls it). Organizers draw the lots here."""
    tournament, roles = visible_tournament(request, slug)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if Role.ORGANIZER not in roles:
            raise PermissionDenied(
                gettext("Only the tournament's organizers draw lots.")
            )
        form = LotForm(request.POST)
        try:
            if not form.is_valid():
                raise RuleError("invalid", "; ".join(form.errors.get("seed", [])))
            lot = services.standings_lots_draw(
                tournament=tournament, user=request.user, seed=form.cleaned_data["seed"]
            )
        except RuleError as error:
            messages.error(request, refusal(error))
        else:
            messages.success(
                request,
                gettext(
                    "The lots are drawn (seed %(seed)s): the places of equal teams are "
                    "settled."
                )
                % {"seed": lot.seed},
            )
        return redirect("scoring:standings", slug=slug)
    # A poll of the whole table asks nothing of the sections: no query for them.
    filters = None
    section = None
    if request.GET.get("section") or not htmx_request(request):
        filters = SectionFilterForm(
            request.GET, sections=tournament.sections.order_by("name")
        )
        section = filters.cleaned_data["section"] if filters.is_valid() else None
    etag = standings_part_etag(tournament, section)
    if htmx_request(request):
        return unchanged(request, etag) or live_headers(
            HttpResponse(standings_part(tournament, section, etag)), etag
        )
    organizer = Role.ORGANIZER in roles
    context = {
        "tournament": tournament,
        "roles": roles,
        "part": standings_part(tournament, section, etag),
        # The lots' panel is the organizers': only they need the standings here.
        "standings": (
            standings_get(tournament=tournament, section=section) if organizer else None
        ),
        "filters": filters,
        "lot_form": LotForm(),
    }
    return render(
        request,
        "scoring/standings.html",
        context,
        status=400 if filters is not None and filters.errors else 200,
    )


def standings_part_etag(tournament: Tournament, section: int | None) -> str:
    """The ETag of the standings' table, and its key in the shared cache: the
    standings' fingerprint (one query, docs/standings.md), the tournament's address
    (the render's links carry it), the section shown (as the filter read it: a
    section not of the tournament shows the whole table), the language, the time
    zone and the software's version. Nothing else of the address
    is in it, so a made-up query string makes no new render and no new key (issue 51:
    each one kept ~29 KB for six hours); nor anybody's account: every spectator of
    the same table shares one render."""
    text = repr(
        (
            standings_fingerprint(tournament=tournament, section=section),
            tournament.slug,
            section,
            get_language(),
            timezone.get_current_timezone_name(),
            VERSION,
        )
    )
    return f'"{hashlib.sha256(text.encode()).hexdigest()[:32]}"'


def standings_poll_url(tournament: Tournament, section: int | None) -> str:
    """The table's own address, which its poll asks for: the standings' page with
    the section shown and nothing else a visitor's address carried."""
    url = reverse("scoring:standings", args=[tournament.slug])
    return url if section is None else f"{url}?section={section}"


def standings_part(tournament: Tournament, section: int | None, etag: str) -> str:
    """The standings' table (what its poll replaces), rendered once per change of
    the standings and kept in the shared cache under its ETag (tournament/db/cache.py):
    every spectator, on every worker, gets the same render until a match is
    decided. It holds nothing of the visitor's (no token, no name, not the address
    they typed)."""

    def render_part() -> str:
        standings = standings_get(tournament=tournament, section=section)
        return render_to_string(
            "scoring/_standings.html",
            {
                "standings": standings,
                "live": standings.live,
                "poll": settings.STANDINGS_POLL_SECONDS,
                "poll_url": standings_poll_url(tournament, section),
                "etag": etag,
            },
        )

    return cached(f"standings-part:{tournament.pk}:{etag.strip(QUOTE)}", render_part)


@require_http_methods(["GET", "POST"])
def matches_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, roles = visible_tournament(request, slug)
    organizer = Role.ORGANIZER in roles
    teams = Team.objects.filter(tournament=tournament).select_related("section")
    form = (
        MatchForm(request.POST if request.method == "POST" else None, teams=teams)
        if organizer
        else None
    )
    if request.method == "POST":
        if form is None:
            raise PermissionDenied(gettext("Only organizers set up matches."))
        if form.is_valid():
            try:
                match = sheet_services.match_create(
                    tournament=tournament, user=request.user, **form.cleaned_data
                )
            except RuleError as error:
                form_errors(form, error)
            else:
                messages.success(
                    request,
                    gettext("The match %(match)s is set up.") % {"match": match},
                )
                return redirect(reverse("scoring:matches", args=[slug]))
    drafts = sees_drafts(roles)
    marks = round_marks(tournament=tournament, drafts=drafts)
    wanted = request.GET.get("round")
    mark = None if wanted == "all" else round_pick(marks, wanted)
    return render(
        request,
        "scoring/matches.html",
        {
            "tournament": tournament,
            "roles": roles,
            "marks": marks,
            "shown": mark,
            "current": current_round(marks),
            "rounds": round_list(
                tournament=tournament,
                drafts=drafts,
                only=(mark.stage, mark.number) if mark else None,
            ),
            "form": form,
        },
        status=400 if form is not None and form.is_bound else 200,
    )
