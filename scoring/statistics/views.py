"""The statistics pages: the tournament's (tables sorted by a link in their headers,
without JavaScript, the records and a few SVG charts) and a player's."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from tournament.models import Team
from tournament.persons.selectors import TeamPeople
from tournament.web.pages import visible_tournament

from ..domain import statistics as stats
from ..domain.rules import PenaltyKind, Side
from ..words import PENALTY_WORDS
from .charts import Row, bar_chart
from .labels import FIGURE_COLUMNS, RECORD_TITLES
from .selectors import (
    Names,
    holder_where,
    player_deals,
    player_url,
    statistics_kept,
    tallies_list,
)

SHOWN = 100  # rows of a table before "Show all"
TOP_BIDDERS = 10


@dataclass(frozen=True)
class Header:
    key: str
    label: str
    href: str
    sort: str  # "", "ascending" or "descending" (aria-sort)
    numeric: bool


def _sorting(raw: str | None) -> stats.Sorting:
    """`-made` is made, most first; `name` is by name, A first; anything else is
    the default (contracts declared, most first)."""
    raw = raw or ""
    descending = raw.startswith("-")
    try:
        return stats.Sorting(stats.SortKey(raw.lstrip("-")), descending)
    except ValueError:
        return stats.Sorting()


def _headers(
    query: QueryDict, param: str, sorting: stats.Sorting, anchor: str
) -> list[Header]:
    headers = []
    for key, label in (
        (stats.SortKey.NAME, pgettext_lazy("column", "Name")),
        *FIGURE_COLUMNS,
    ):
        current = sorting.key is key
        # A click sorts by the column, most first (names A first); again, reversed.
        descending = key is not stats.SortKey.NAME
        if current:
            descending = not sorting.descending
        params = query.copy()
        params[param] = ("-" if descending else "") + key.value
        headers.append(
            Header(
                key.value,
                label,
                f"?{params.urlencode()}#{anchor}",
                ("descending" if sorting.descending else "ascending")
                if current
                else "",
                key is not stats.SortKey.NAME,
            )
        )
    return headers


def _charts(found: stats.Statistics, names: Names, tournament) -> list:  # type: ignore[no-untyped-def]
    made_defeated = (("made", _("made")), ("defeated", _("defeated")))
    bands = bar_chart(
        "values",
        _("Contracts by value"),
        _(
            "Contracts declared in each band of the scoring chart's values, made and "
            "defeated."
        ),
        [
            Row(
                b.label,
                ((b.made, "made"), (b.declared - b.made, "defeated")),
                _("%(percent)d%% of %(declared)d")
                % {"percent": round(b.made_percent or 0), "declared": b.declared}
                if b.declared
                else _("none"),
            )
            for b in found.overall.bands
        ],
        made_defeated,
    )
    top = sorted(
        found.players,
        key=lambda p: (-p.figures.made, -p.figures.declared, p.player.casefold()),
    )[:TOP_BIDDERS]
    bidders = bar_chart(
        "bidders",
        _("Most contracts made"),
        _("The %(count)d bidders with the most contracts made, and those defeated.")
        % {"count": len(top)},
        [
            Row(
                p.player,
                ((p.figures.made, "made"), (p.figures.defeated, "defeated")),
                _("%(made)d of %(declared)d")
                % {"made": p.figures.made, "declared": p.figures.declared},
                player_url(tournament, p.team, p.player),
            )
            for p in top
        ],
        made_defeated,
    )
    kinds: dict[str, int] = {}
    for t in found.teams:
        for kind, n in t.penalties_against_by_kind.items():
            kinds[kind] = kinds.get(kind, 0) + n
    penalties = bar_chart(
        "penalties",
        _("Penalties by kind"),
        _(
            "How many times each penalty was given in the tournament, warnings "
            "included."
        ),
        [
            Row(
                str(PENALTY_WORDS[k]), ((kinds[k.value], "count"),), str(kinds[k.value])
            )
            for k in PenaltyKind
            if kinds.get(k.value)
        ],
    )
    return [bands, bidders, penalties]


def statistics_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's statistics for everyone: the records, three charts, the
    bidders' and the teams' tables."""
    tournament, roles = visible_tournament(request, slug)
    found, names = statistics_kept(tournament=tournament)
    query = request.GET
    player_sort, team_sort = (
        _sorting(query.get("players")),
        _sorting(query.get("teams")),
    )
    players = stats.rows_sorted(found.players, player_sort, lambda p: p.player)
    teams = stats.rows_sorted(found.teams, team_sort, lambda t: names.team(t.team))
    every = query.get("all", "")
    context = {
        "tournament": tournament,
        "roles": roles,
        "statistics": found,
        "names": names,
        "records": [_record_view(r, names, tournament) for r in found.records],
        "charts": _charts(found, names, tournament),
        "players": [
            (p, names.team(p.team), player_url(tournament, p.team, p.player))
            for p in (players if "players" in every else players[:SHOWN])
        ],
        "players_total": len(players),
        "teams": [
            (t, names.team(t.team), _kinds(t))
            for t in (teams if "teams" in every else teams[:SHOWN])
        ],
        "teams_total": len(teams),
        "player_headers": _headers(query, "players", player_sort, "players"),
        "team_headers": _headers(query, "teams", team_sort, "teams"),
        "show_all": {
            name: "?" + urlencode({**query.dict(), "all": f"{every} {name}".strip()})
            for name in ("players", "teams")
        },
        "shown": SHOWN,
        "bidder_percent": share(found.bidders_recorded, found.deals),
    }
    return render(request, "scoring/statistics.html", context)


def share(part: int, whole: int) -> str:
    """A percentage that never rounds a few to none or nearly all to all: 6 of 1,911
    is "<1", not "0"; 1,905 of 1,911 is ">99", not "100"."""
    if not whole or not part:
        return "0"
    if part == whole:
        return "100"
    percent = 100 * part / whole
    if percent < 1:
        return "<1"
    if percent > 99:
        return ">99"
    return str(round(percent))


def _kinds(team: stats.TeamStatistics) -> str:
    return ", ".join(
        f"{PENALTY_WORDS[PenaltyKind(k)].lower()} {n}"
        for k, n in team.penalties_against_by_kind.items()
    )


@dataclass(frozen=True)
class HolderView:
    team: str
    team_pk: int
    player: str
    player_href: str
    where: str
    match: int | None


def _record_view(record: stats.Record, names: Names, tournament) -> dict:  # type: ignore[no-untyped-def]
    holders = []
    for h in record.holders:
        where = holder_where(h, names)
        match = h.mark.match if h.mark is not None else None
        holders.append(
            HolderView(
                names.team(h.team),
                h.team,
                h.player,
                player_url(tournament, h.team, h.player) if h.player else "",
                where,
                match,
            )
        )
    return {
        "record": record,
        "title": RECORD_TITLES[record.kind],
        "holders": holders,
        "more": record.tied - len(holders),
    }


def player_page(request: HttpRequest, slug: str, pk: int, name: str) -> HttpResponse:
    """A bidder's figures and every contract he won the auction of."""
    tournament, roles = visible_tournament(request, slug)
    team = Team.objects.filter(tournament=tournament, pk=pk).first()
    if team is None:
        raise Http404("No such team")
    tallies = [
        t for t in tallies_list(tournament=tournament, team=team.pk) if t.bidder == name
    ]
    roster = list(team.players.values_list("name", flat=True))
    if not tallies and name not in roster:
        raise Http404("No such player")
    tally = tallies[0] if tallies else stats.Tally(team.pk, name)
    deals = [
        {
            "deal": d,
            "match": d.match,
            "opponent": d.match.team(Side(d.declarer).other),
        }
        for d in player_deals(tournament=tournament, team=team.pk, player=name)
    ]
    context = {
        "tournament": tournament,
        "roles": roles,
        "team": team,
        "player": name,
        "figures": stats.figures_of(tally),
        "figure_columns": FIGURE_COLUMNS,
        "deals": deals,
        "captain": roster[:1] == [name],
        "person": TeamPeople([team.pk]).of(team.pk, name, team.captain_city),
    }
    return render(request, "scoring/player.html", context)
