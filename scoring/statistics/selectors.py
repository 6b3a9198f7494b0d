"""Reading a tournament's statistics (docs/statistics.md): SQL sums and counts, the
rules in scoring/domain/statistics.py.

Which deals count: every deal on a sheet that is neither void nor forfeited, in a
league round that is released (or set up by hand) or in the knockout; a sheet still
being played counts as far as it goes. Match totals and margins come from decided
sheets only (completed or confirmed), where the totals are final.

Three queries, whatever the size, none over the deals (issue 43): every sheet write
stores what it adds to the statistics (scoring/sheets/tallies.py), so they read the
teams' names, one row per counted sheet (its totals, run pieces and penalties by
kind), and one SUM … GROUP BY over one row per sheet, side and bidder.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.models import LeagueRound
from tournament.db.cache import Recent, cached, cached_many, keep_many
from tournament.models import Team, Tournament

from ..domain import statistics as stats
from ..domain.rules import MatchStatus, PenaltyKind, Side, Stage
from ..models import Deal, Match, MatchTally
from ..sheets.fingerprints import sheets_fingerprint
from ..sheets.selectors import draft_rounds
from ..sheets.tallies import TALLY_COLUMNS

COUNTED = (MatchStatus.IN_PROGRESS, MatchStatus.COMPLETED, MatchStatus.CONFIRMED)
FINAL = (MatchStatus.COMPLETED, MatchStatus.CONFIRMED)
QUOTE = '"'  # an ETag's, left out of cache keys
# Parts missing beyond this many are computed with the whole tournament's two
# queries rather than with a list of teams (the first reading after a restart).
PARTS_APART_MAX = 64


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


# The tallies: one SUM … GROUP BY over the rows each sheet write stores (MatchTally,
# scoring/sheets/tallies.py: one per match, side and bidder), never over the deals.
# Written as SQL rather than the ORM's, which joins the match twice.
_STATUSES = ", ".join(f"'{s.value}'" for s in COUNTED)
_TALLIES_SQL = f"""
SELECT CASE WHEN t.side = 'A' THEN m.team_a_id ELSE m.team_b_id END AS team,
  t.bidder, {", ".join(f"SUM(t.{c})" for c in TALLY_COLUMNS)}
FROM {MatchTally._meta.db_table} t JOIN {Match._meta.db_table} m ON m.id = t.match_id
WHERE {{counted}} {{team}}
GROUP BY 1, 2
"""  # noqa: S608 - our own tables and constants; values are parameters


def _counted_sql(tournament: str) -> str:
    """The sheets the statistics count, of the tournament `tournament` names (a
    parameter, or `m.tournament_id`: each match's own): played, and not in a league
    round still unreleased."""
    return f"""m.status IN ({_STATUSES})
  AND NOT (m.stage = %(league)s AND m.round IN (
    SELECT r.number FROM {LeagueRound._meta.db_table} r
    WHERE r.tournament_id = {tournament} AND r.released_at IS NULL))"""  # noqa: S608


_COUNTED_SQL = "m.tournament_id = %(t)s AND " + _counted_sql("%(t)s")
_COUNTED_ANYWHERE_SQL = _counted_sql("m.tournament_id")


def _counted_params(tournament: Tournament) -> dict:
    return {"t": tournament.pk, "league": Stage.LEAGUE.value}


def _rows(sql: str, params: dict) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _among(params: dict, teams: Iterable[int]) -> str:
    """`IN (…)` of `teams` as named parameters added to `params`."""
    names = []
    for i, team in enumerate(teams):
        params[f"team{i}"] = team
        names.append(f"%(team{i})s")
    return f"({', '.join(names)})"


def tallies_list(
    *, tournament: Tournament, team: int | None = None, teams: Iterable[int] = ()
) -> list[stats.Tally]:
    """Every declaring team's and bidder's contracts (or one team's, or some
    teams'), summed in one GROUP BY over the sheets' stored tallies."""
    wanted = [team] if team is not None else list(teams)
    return _tallies(_COUNTED_SQL, _counted_params(tournament), wanted)


def teams_tallies_list(*, teams: Iterable[int]) -> list[stats.Tally]:
    """Each bidder's contracts for `teams`, whichever tournaments they are in (a
    team is one tournament's), summed in one GROUP BY: a person's figures over every
    tournament he played, in one query however many."""
    wanted = list(teams)
    if not wanted:
        return []
    return _tallies(_COUNTED_ANYWHERE_SQL, {"league": Stage.LEAGUE.value}, wanted)


def _tallies(counted: str, params: dict, teams: list[int]) -> list[stats.Tally]:
    """The tallies of the sheets `counted` selects, of `teams` only when given."""
    mine = ""
    if teams:
        among = _among(params, teams)
        mine = (
            f"AND ((t.side = 'A' AND m.team_a_id IN {among}) "
            f"OR (t.side = 'B' AND m.team_b_id IN {among}))"
        )
    sql = _TALLIES_SQL.replace("{counted}", counted).replace("{team}", mine)
    return [
        stats.tally_of(team, bidder, counts)
        for team, bidder, *counts in _rows(sql, params)
    ]


# The counted sheets, one row each, in the order they were played (league, then
# knockout; round; match): their totals for the marks, and what each stored for the
# runs and the penalties (Match.tally).
_SHEETS_SQL = f"""
SELECT m.id, m.stage, m.round, m."table", m.team_a_id, m.team_b_id, m.total_a,
  m.total_b, m.winner, m.status, m.tally
FROM {Match._meta.db_table} m
WHERE {_COUNTED_SQL} {{teams}}
ORDER BY CASE WHEN m.stage = %(league)s THEN 0 ELSE 1 END, m.round, m.id
"""  # noqa: S608 - our own tables; values are parameters


@dataclass(frozen=True)
class Sheets:
    """What the counted sheets stored, read in one query."""

    scores: list[stats.MatchScore]  # the decided ones
    places: dict[int, tuple[str, int, int]]  # every one's (stage, round, table)
    penalties: list[stats.PenaltyCount]
    runs: dict[int, stats.Run]


def sheets_read(*, tournament: Tournament, teams: Iterable[int] = ()) -> Sheets:
    """The counted sheets' totals, penalties by kind and runs (of every sheet, or
    of those `teams` played): one query, one row per sheet. A team's runs are
    whole only where every sheet it played is read."""
    scores, places = [], {}
    pieces: list[tuple[int, int, stats.RunPiece]] = []
    penalties: dict[tuple[int, int, str], int] = {}
    params = _counted_params(tournament)
    wanted = list(teams)
    mine = ""
    if wanted:
        among = _among(params, wanted)
        mine = f"AND (m.team_a_id IN {among} OR m.team_b_id IN {among})"
    for row in _rows(_SHEETS_SQL.replace("{teams}", mine), params):
        pk, stage, round, table, team_a, team_b = row[:6]
        places[pk] = (stage, round, table)
        if row[9] in FINAL:
            scores.append(stats.MatchScore(*row[:9]))
        tally = json.loads(row[10]) if isinstance(row[10], str) else row[10]
        if not tally:
            continue
        run_a, run_b, by_a, by_b = stats.sheet_tally_read(tally)
        pieces.append((team_a, pk, run_a))
        pieces.append((team_b, pk, run_b))
        for kinds, offender, opponent in (
            (by_a, team_a, team_b),
            (by_b, team_b, team_a),
        ):
            for kind, n in kinds.items():
                key = (offender, opponent, kind)
                penalties[key] = penalties.get(key, 0) + n
    runs = {
        team: stats.Run(
            team,
            length,
            stats.DealAt(first_match, *places[first_match], first_number),
            stats.DealAt(last_match, *places[last_match], last_number),
        )
        for team, (length, first_match, first_number, last_match, last_number) in (
            stats.runs_joined(pieces).items()
        )
    }
    return Sheets(
        scores,
        places,
        [
            stats.PenaltyCount(offender, opponent, PenaltyKind(kind), n)
            for (offender, opponent, kind), n in sorted(penalties.items())
        ],
        runs,
    )


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
    (tournament/db/cache.py): one query when nothing changed."""
    etag = statistics_fingerprint(tournament=tournament)
    return cached(
        f"statistics:{tournament.pk}:{etag.strip(QUOTE)}",
        lambda: statistics_get(tournament=tournament),
    )


# Each team's part (statistics.TeamPart), kept in the shared cache under what it is
# computed from: the team's own sheets (id, version, status, whether it counts,
# where it was played), every team's and section's name (its rows show its
# opponents') and the tournament's last change. A sheet write changes two teams'
# parts; the statistics after it read those two teams' sheets and put every part
# together (issue 43).
_PARTS_SQL = f"""
SELECT m.id, m.team_a_id, m.team_b_id, m.version, m.status, m.stage, m.round,
  m."table", CASE WHEN {_COUNTED_SQL} THEN 1 ELSE 0 END
FROM {Match._meta.db_table} m
WHERE m.tournament_id = %(t)s
"""  # noqa: S608 - our own tables; values are parameters
PART_VERSION = "part 1"  # change with TeamPart or what it is computed from


# The parts this process used last (tournament/db/cache.py: Recent): never stale.
_PARTS = Recent(20_000)


def part_keys(*, tournament: Tournament, names: Names) -> dict[int, str]:
    """Each team's part's key in the shared cache: one query over the matches."""
    sheets: dict[int, list[str]] = {team: [] for team in names.teams}
    for pk, team_a, team_b, *rest in _rows(_PARTS_SQL, _counted_params(tournament)):
        line = f"{pk}:{team_a}:{team_b}:{rest}"
        sheets.setdefault(team_a, []).append(line)
        sheets.setdefault(team_b, []).append(line)
    # The tournament's own change (a restore puts sheets back at versions they
    # had, with what they held then: tournament_load bumps it) and every name.
    named = hashlib.sha256(
        repr(
            (
                tournament.updated_at.isoformat(),
                sorted(names.teams.items()),
                sorted(names.sections.items()),
            )
        ).encode()
    ).hexdigest()
    named = f"{PART_VERSION}:{named}"
    keys = {}
    for team, lines in sheets.items():
        lines.sort()
        lines.append(named)
        digest = hashlib.sha256("|".join(lines).encode()).hexdigest()[:32]
        keys[team] = f"statistics-part:{tournament.pk}:{team}:{digest}"
    return keys


def team_parts_get(
    *, tournament: Tournament, teams: Iterable[int], whole: bool = False
) -> dict[int, stats.TeamPart]:
    """The parts of `teams`, computed from their own sheets (or, `whole`, from every
    sheet of the tournament, which costs the same two queries without a list of
    teams to match)."""
    wanted = sorted(teams)
    among = () if whole else wanted
    sheets = sheets_read(tournament=tournament, teams=among)
    return stats.team_parts(
        tallies=tallies_list(tournament=tournament, teams=among),
        penalties=sheets.penalties,
        scores=sheets.scores,
        runs=sheets.runs,
        teams=wanted,
    )


def statistics_parts(
    *, tournament: Tournament
) -> tuple[stats.Statistics, Names, dict[int, str]]:
    """The tournament's statistics and the names they show: the teams' names, each
    team's part's key (one query), the parts kept in the shared cache, and those
    of teams whose sheets changed computed from their sheets (two queries: one row
    per sheet, one per sheet, side and bidder; the whole tournament's when most
    are missing, as on the first reading)."""
    names = names_get(tournament=tournament)
    keys = part_keys(tournament=tournament, names=names)
    parts = {}
    for team, key in keys.items():
        found = _PARTS.get(key)
        if found is not None:
            parts[team] = found
    wanted = {key: team for team, key in keys.items() if team not in parts}
    if wanted:
        for key, part in cached_many(list(wanted)).items():
            parts[wanted[key]] = part
            _PARTS.put(key, part)
    missing = [team for team in keys if team not in parts]
    if missing:
        fresh = team_parts_get(
            tournament=tournament,
            teams=missing,
            whole=len(missing) > PARTS_APART_MAX,
        )
        keep_many({keys[team]: part for team, part in fresh.items()})
        for team, part in fresh.items():
            _PARTS.put(keys[team], part)
        parts.update(fresh)
    return stats.statistics_assemble(parts.values()), names, keys


def statistics_get(*, tournament: Tournament) -> tuple[stats.Statistics, Names]:
    """The tournament's statistics and the names they show (statistics_parts)."""
    found, names, _ = statistics_parts(tournament=tournament)
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
