"""Reading a tournament's statistics (docs/statistics.md): SQL sums and counts, the
rules in scoring/domain/statistics.py.

Which deals count: every deal on a sheet that is neither void nor forfeited, in a
league round that is released (or set up by hand) or in the knockout; a sheet still
being played counts as far as it goes. Match totals and margins come from decided
sheets only (completed or confirmed), where the totals are final.

Four queries, whatever the size: the tallies (one GROUP BY over the deals), the
penalty counts (one GROUP BY over the penalties), the decided matches, and the deals
in the order they were played, for the runs; with the teams' names, five.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from tournament.cache import cached
from tournament.models import LeagueRound, Team, Tournament

from ..domain import statistics as stats
from ..domain.rules import VALUE_MAX, Level, MatchStatus, PenaltyKind, Side, Stage
from ..league.selectors import sheets_fingerprint
from ..models import Deal, Match, Penalty
from ..sheets.selectors import draft_rounds

COUNTED = (MatchStatus.IN_PROGRESS, MatchStatus.COMPLETED, MatchStatus.CONFIRMED)
FINAL = (MatchStatus.COMPLETED, MatchStatus.CONFIRMED)
QUOTE = '"'  # an ETag's, left out of cache keys


def _counted(tournament: Tournament, statuses=COUNTED) -> Q:  # type: ignore[no-untyped-def]
    """The matches whose deals count, as a filter on matches."""
    return Q(tournament=tournament, status__in=statuses) & ~Q(
        stage=Stage.LEAGUE, round__in=draft_rounds(tournament)
    )


def counted_deals(*, tournament: Tournament) -> QuerySet[Deal]:
    return Deal.objects.filter(
        match__in=Match.objects.filter(_counted(tournament)).values("pk")
    )


def declared_by(team: int) -> Q:
    """Deals `team` declared, as a filter on deals."""
    return Q(declarer=Side.A.value, match__team_a_id=team) | Q(
        declarer=Side.B.value, match__team_b_id=team
    )


# The tallies in one GROUP BY over the counted deals: written as SQL rather than the
# ORM's, which joins the match twice (for the filter and for the teams) and costs
# half as much again (bench/standings.py). COUNT(*) FILTER is portable: PostgreSQL,
# and SQLite from 3.30.
_STATUSES = ", ".join(f"'{s.value}'" for s in COUNTED)
# Each band's contracts declared, then each band's made: Tally.vector's order.
_BANDS_SQL = ", ".join(
    [
        f"COUNT(*) FILTER (WHERE d.value BETWEEN {low} AND {high})"
        for low, high in stats.BANDS
    ]
    + [
        f"COUNT(*) FILTER (WHERE d.made AND d.value BETWEEN {low} AND {high})"
        for low, high in stats.BANDS
    ]
)
_TALLIES_SQL = f"""
SELECT CASE WHEN d.declarer = 'A' THEN m.team_a_id ELSE m.team_b_id END AS team,
  d.bidder, COUNT(*), COUNT(*) FILTER (WHERE d.made), SUM(d.value),
  COUNT(*) FILTER (WHERE d.level = %(doubled)s),
  COUNT(*) FILTER (WHERE d.made AND d.level = %(doubled)s),
  COUNT(*) FILTER (WHERE d.level = %(redoubled)s),
  COUNT(*) FILTER (WHERE d.made AND d.level = %(redoubled)s),
  COUNT(*) FILTER (WHERE d.value = {VALUE_MAX}),
  COUNT(*) FILTER (WHERE d.made AND d.value = {VALUE_MAX}),
  {_BANDS_SQL}
FROM {Deal._meta.db_table} d JOIN {Match._meta.db_table} m ON m.id = d.match_id
WHERE {{counted}} {{team}}
GROUP BY 1, 2
"""  # noqa: S608 - our own tables and constants; values are parameters
_COUNTED_SQL = f"""m.tournament_id = %(t)s AND m.status IN ({_STATUSES})
  AND NOT (m.stage = %(league)s AND m.round IN (
    SELECT r.number FROM {LeagueRound._meta.db_table} r
    WHERE r.tournament_id = %(t)s AND r.released_at IS NULL))"""  # noqa: S608


def _counted_params(tournament: Tournament) -> dict:
    return {
        "t": tournament.pk,
        "league": Stage.LEAGUE.value,
        "doubled": Level.DOUBLED.value,
        "redoubled": Level.REDOUBLED.value,
    }


def _rows(sql: str, params: dict) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def tallies_list(
    *, tournament: Tournament, team: int | None = None
) -> list[stats.Tally]:
    """Every declaring team's and bidder's contracts (or one team's), summed in one
    GROUP BY."""
    params = _counted_params(tournament)
    mine = ""
    if team is not None:
        params["team"] = team
        mine = (
            "AND ((d.declarer = 'A' AND m.team_a_id = %(team)s) "
            "OR (d.declarer = 'B' AND m.team_b_id = %(team)s))"
        )
    sql = _TALLIES_SQL.replace("{counted}", _COUNTED_SQL).replace("{team}", mine)
    return [
        stats.tally_of(team, bidder, counts)
        for team, bidder, *counts in _rows(sql, params)
    ]


_PENALTIES_SQL = f"""
SELECT CASE WHEN p.offender = 'A' THEN m.team_a_id ELSE m.team_b_id END,
  CASE WHEN p.offender = 'A' THEN m.team_b_id ELSE m.team_a_id END, p.kind, COUNT(*)
FROM {Penalty._meta.db_table} p
  JOIN {Deal._meta.db_table} d ON d.id = p.deal_id
  JOIN {Match._meta.db_table} m ON m.id = d.match_id
WHERE {{counted}}
GROUP BY 1, 2, 3
"""  # noqa: S608 - our own tables; values are parameters


def penalty_counts(*, tournament: Tournament) -> list[stats.PenaltyCount]:
    """Penalties by offending team, its opponent and kind, counted in one GROUP BY
    (warnings included: each is a time the team offended)."""
    sql = _PENALTIES_SQL.replace("{counted}", _COUNTED_SQL)
    return [
        stats.PenaltyCount(offender, opponent, PenaltyKind(kind), n)
        for offender, opponent, kind, n in _rows(sql, _counted_params(tournament))
    ]


def match_scores(
    *, tournament: Tournament
) -> tuple[list[stats.MatchScore], dict[int, tuple[str, int, int]]]:
    """The decided matches' stored totals, and where every counted match was played
    (stage, round, table): one query."""
    scores, places = [], {}
    for row in (
        Match.objects.filter(_counted(tournament))
        .order_by()
        .values_list(
            "pk",
            "stage",
            "round",
            "table",
            "team_a_id",
            "team_b_id",
            "total_a",
            "total_b",
            "winner",
            "status",
        )
    ):
        places[row[0]] = row[1:4]
        if row[-1] in FINAL:
            scores.append(stats.MatchScore(*row[:-1]))
    return scores, places


_RUNS_SQL = f"""
SELECT CASE WHEN d.declarer = 'A' THEN m.team_a_id ELSE m.team_b_id END, d.made,
  d.match_id, d.number
FROM {Deal._meta.db_table} d JOIN {Match._meta.db_table} m ON m.id = d.match_id
WHERE {{counted}}
ORDER BY m.stage, m.round, m.id, d.number
"""  # noqa: S608 - our own tables; values are parameters


def runs_get(
    *, tournament: Tournament, places: dict[int, tuple[str, int, int]]
) -> dict[int, stats.Run]:
    """Each team's longest run of contracts made: the counted deals in the order
    they were played (league, then knockout; round; deal number), four narrow
    columns. `places` are the counted matches' (stage, round, table), where the
    runs start and end."""
    sql = _RUNS_SQL.replace("{counted}", _COUNTED_SQL)
    found = stats.made_runs_lean(_rows(sql, _counted_params(tournament)))
    return {
        team: stats.Run(
            team,
            length,
            stats.DealAt(first_match, *places[first_match], first_number),
            stats.DealAt(last_match, *places[last_match], last_number),
        )
        for team, (length, first_match, first_number, last_match, last_number) in (
            found.items()
        )
    }


@dataclass(frozen=True)
class Names:
    """The names the statistics show: teams by id, with their sections."""

    teams: dict[int, str]
    sections: dict[int, str]

    def team(self, pk: int) -> str:
        return self.teams.get(pk, f"team {pk}")


def holder_where(holder: stats.Holder, names: Names) -> str:
    """Where a record was set, in words (the active language's: English for the
    workbook): the match's score and opponent, or the deals a run went from and to;
    "" for a count over the tournament."""

    def round_of(stage: str, round: int) -> str:
        if stage == Stage.KNOCKOUT:
            return _("knockout round %(round)d") % {"round": round}
        return _("round %(round)d") % {"round": round}

    if holder.mark is not None:
        m = holder.mark
        return _("%(total)d–%(other)d against %(team)s, %(round)s, table %(table)d") % {
            "total": m.total,
            "other": m.opponent_total,
            "team": names.team(m.opponent),
            "round": round_of(m.stage, m.round),
            "table": m.table,
        }
    if holder.run is not None:
        a, b = holder.run.first, holder.run.last
        return _("from %(first)s deal %(a)d to %(last)s deal %(b)d") % {
            "first": round_of(a.stage, a.round),
            "a": a.number,
            "last": round_of(b.stage, b.round),
            "b": b.number,
        }
    return ""


def names_get(*, tournament: Tournament) -> Names:
    teams, sections = {}, {}
    for pk, name, section in Team.objects.filter(tournament=tournament).values_list(
        "pk", "name", "section__name"
    ):
        teams[pk], sections[pk] = name, section or ""
    return Names(teams, sections)


def statistics_fingerprint(*, tournament: Tournament) -> str:
    """The statistics' ETag: the fingerprint of every sheet of the tournament (one
    query); it changes with any sheet write, release, status or team name."""
    return sheets_fingerprint(tournament=tournament, what="statistics 1")


def statistics_kept(*, tournament: Tournament) -> tuple[stats.Statistics, Names]:
    """statistics_get, computed once per fingerprint and kept in the shared cache
    (tournament/cache.py): one query when nothing changed."""
    etag = statistics_fingerprint(tournament=tournament)
    return cached(
        f"statistics:{tournament.pk}:{etag.strip(QUOTE)}",
        lambda: statistics_get(tournament=tournament),
    )


def statistics_get(*, tournament: Tournament) -> tuple[stats.Statistics, Names]:
    """The tournament's statistics and the names they show: five queries."""
    names = names_get(tournament=tournament)
    scores, places = match_scores(tournament=tournament)
    found = stats.statistics_compute(
        tallies=tallies_list(tournament=tournament),
        penalties=penalty_counts(tournament=tournament),
        scores=scores,
        runs=runs_get(tournament=tournament, places=places),
        teams=list(names.teams),  # every team has its row, zeros included
    )
    return found, names


def player_deals(*, tournament: Tournament, team: int, player: str) -> QuerySet[Deal]:
    """The counted contracts `player` won the auction of for `team`, in order."""
    return (
        counted_deals(tournament=tournament)
        .filter(declared_by(team), bidder=player)
        .select_related("match__team_a", "match__team_b")
        .order_by("match__stage", "match__round", "match_id", "number")
    )


def player_url(tournament: Tournament, team: int, player: str) -> str:
    return reverse(
        "scoring:player",
        kwargs={"slug": tournament.slug, "pk": team, "name": player},
    )


def team_players_get(
    *, tournament: Tournament, team: int
) -> list[stats.PlayerStatistics]:
    """The figures of a team's bidders, most contracts first, and its deals without
    a recorded bidder as a row with player "" (last): one query."""
    tallies = tallies_list(tournament=tournament, team=team)
    rows = [
        stats.PlayerStatistics(t.team, t.bidder, stats.figures_of(t)) for t in tallies
    ]
    rows.sort(key=lambda p: (not p.player, -p.figures.declared, p.player.casefold()))
    return rows
