"""What a poll's ETag is made from: one plain query over the tournament's sheets, its
rounds, byes and lot, its teams' and sections' names (docs/standings.md). The
standings, the statistics and the venue screen answer 304 from it before they read
anything else. Here, below every capability that shows the sheets, so that each reads
it without importing another (docs/architecture.md)."""

from __future__ import annotations

import hashlib

from django.db import connection

from tournament.db.prepared import prepared_row
from tournament.models import Section, Team, Tournament

from ..domain.rules import MatchStatus, Stage
from ..models import Bye, LeagueRound, Match, StandingsLot
from .selectors import DECIDED

# The standings' fingerprint: everything they are computed from, summed in SQL.
# A write to a decided sheet bumps its match's version; a sheet that completes, a
# confirmation or a voiding changes its status; a release changes which rounds count;
# the lot, the qualifiers, a team's name or section and a section's name show on the
# rows. A deal on a sheet still in play changes none of it (the standings count
# decided sheets only, and the progress counts statuses), so the standings' own
# fingerprint leaves those sheets' versions out: a thousand spectators polling during
# a round get 304 until a match ends, not a new ranking at every deal of every table
# (docs/standings.md). The statistics, which count sheets in play, keep every version.
# Portable SQL (SQLite and PostgreSQL), with the table names of the models.
_STATUS_CODES = " ".join(
    f"WHEN '{status.value}' THEN {code}"
    for code, status in enumerate(MatchStatus, start=1)
)
_FINGERPRINT_SQL = f"""
SELECT m.n, m.versions, m.statuses, m.latest,
  (SELECT COUNT(*) FROM {Bye._meta.db_table} b WHERE b.tournament_id = %(t)s),
  (SELECT SUM(r.number) FROM {LeagueRound._meta.db_table} r
     WHERE r.tournament_id = %(t)s AND r.released_at IS NOT NULL),
  (SELECT COUNT(*) FROM {LeagueRound._meta.db_table} r WHERE r.tournament_id = %(t)s),
  (SELECT MAX(l.seed) FROM {StandingsLot._meta.db_table} l
     WHERE l.tournament_id = %(t)s),
  (SELECT t.updated_at FROM {Tournament._meta.db_table} t WHERE t.id = %(t)s),
  (SELECT {{names}} FROM (
     SELECT 't' || e.id || ':' || e.section_id || ':' || e.status || ':' || e.name
       AS entry
     FROM {Team._meta.db_table} e WHERE e.tournament_id = %(t)s
     UNION ALL
     SELECT 's' || e.id || ':' || e.name FROM {Section._meta.db_table} e
     WHERE e.tournament_id = %(t)s
     ORDER BY 1
  ) names)
FROM (
  SELECT COUNT(*) AS n, SUM({{version}}) AS versions, MAX({{updated_at}}) AS latest,
    SUM(id * CASE status {_STATUS_CODES} ELSE 0 END) AS statuses
  FROM {Match._meta.db_table}
  WHERE tournament_id = %(t)s {{stage}}
) m
"""  # noqa: S608 - our own tables and status codes, no input
# The standings' own: a version or a time counts only for a decided sheet.
_DECIDED_ONLY = (
    "CASE WHEN status IN ("
    + ", ".join(f"'{status.value}'" for status in DECIDED)
    + ") THEN "
)
# Every team's and section's name, in one value: PostgreSQL hashes them itself;
# SQLite, embedded, hands them over joined.
_NAMES = {
    "postgresql": "md5(string_agg(entry, '|' ORDER BY entry))",
    "sqlite": "group_concat(entry, '|')",
}


def standings_fingerprint(*, tournament: Tournament, section: int | None = None) -> str:
    """A strong ETag for the standings as they are now: it changes whenever anything
    they show could change, and costs one plain query, so a poll that finds nothing
    new is answered without ranking anything (docs/standings.md)."""
    text = f"standings 1 {section} {_fingerprint_row(tournament, league=True)!r}"
    return f'"{hashlib.sha256(text.encode()).hexdigest()[:32]}"'


def _counted(column: str, decided_only: bool) -> str:
    return f"{_DECIDED_ONLY}{column} END" if decided_only else column


def _fingerprint_row(
    tournament: Tournament, *, league: bool, decided_only: bool | None = None
) -> tuple:
    """The fingerprint's row: of the league's matches or every match; a version or
    a time counted for decided sheets only (the league's default) or for all."""
    params = {"t": tournament.pk, "league": Stage.LEAGUE.value}
    decided = league if decided_only is None else decided_only
    sql = (
        _FINGERPRINT_SQL.replace("{names}", _NAMES[connection.vendor])
        .replace("{stage}", "AND stage = %(league)s" if league else "")
        .replace("{version}", _counted("version", decided))
        .replace("{updated_at}", _counted("updated_at", decided))
    )
    return prepared_row(sql, params)


def sheets_fingerprint(*, tournament: Tournament, what: str) -> str:
    """A strong ETag for anything read from every sheet of the tournament, league
    and knockout (the statistics, docs/statistics.md): the standings' fingerprint
    over all its matches, one plain query; `what` names the reader and its version."""
    text = f"{what} {_fingerprint_row(tournament, league=False)!r}"
    return f'"{hashlib.sha256(text.encode()).hexdigest()[:32]}"'


def decided_fingerprint(*, tournament: Tournament, what: str) -> str:
    """A strong ETag for what shows the decided sheets of every stage and the state
    of every sheet, but nothing of a sheet still in play (the venue screen: its
    pairings, results, forfeits and the top of the standings): one plain query."""
    row = _fingerprint_row(tournament, league=False, decided_only=True)
    text = f"{what} {row!r}"
    return f'"{hashlib.sha256(text.encode()).hexdigest()[:32]}"'
