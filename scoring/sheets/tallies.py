"""What a sheet adds to the statistics, stored with the sheet (issue 43).

Every sheet write (locking.rescore) stores, beside the match's totals, its contracts
counted by side and bidder (`MatchTally` rows, counted in SQL from the deals, as the
statistics count them) and, on the match row, each side's run piece and penalties by
kind (`Match.tally`). The statistics then read one row per match, side and bidder
instead of every deal of the tournament (scoring/statistics/selectors.py).
"""

from __future__ import annotations

from django.db import connection

from ..domain import statistics as stats
from ..domain.rules import VALUE_MAX, Level
from ..models import Deal, MatchTally, Penalty

if len(stats.BANDS) != 4:  # MatchTally has a column for each band of the chart
    raise AssertionError(f"MatchTally holds 4 bands, the chart has {len(stats.BANDS)}")

_COLUMNS = [
    "declared",
    "made",
    "value_sum",
    "doubled",
    "doubled_made",
    "redoubled",
    "redoubled_made",
    "bid_56",
    "made_56",
    "band_1",
    "band_2",
    "band_3",
    "band_4",
    "band_1_made",
    "band_2_made",
    "band_3_made",
    "band_4_made",
]
# The columns in Tally.vector's order, for the statistics' SUMs.
TALLY_COLUMNS = tuple(_COLUMNS)

_COUNTS_SQL = ",\n  ".join(
    [
        "COUNT(*)",
        "COUNT(*) FILTER (WHERE d.made)",
        "SUM(d.value)",
        f"COUNT(*) FILTER (WHERE d.level = '{Level.DOUBLED.value}')",
        f"COUNT(*) FILTER (WHERE d.made AND d.level = '{Level.DOUBLED.value}')",
        f"COUNT(*) FILTER (WHERE d.level = '{Level.REDOUBLED.value}')",
        f"COUNT(*) FILTER (WHERE d.made AND d.level = '{Level.REDOUBLED.value}')",
        f"COUNT(*) FILTER (WHERE d.value = {VALUE_MAX})",
        f"COUNT(*) FILTER (WHERE d.made AND d.value = {VALUE_MAX})",
        *(
            f"COUNT(*) FILTER (WHERE d.value BETWEEN {low} AND {high})"
            for low, high in stats.BANDS
        ),
        *(
            f"COUNT(*) FILTER (WHERE d.made AND d.value BETWEEN {low} AND {high})"
            for low, high in stats.BANDS
        ),
    ]
)
_STORE_SQL = f"""
INSERT INTO {MatchTally._meta.db_table} (match_id, side, bidder, {", ".join(_COLUMNS)})
SELECT d.match_id, d.declarer, d.bidder,
  {_COUNTS_SQL}
FROM {Deal._meta.db_table} d
WHERE d.match_id IN ({{matches}})
GROUP BY d.match_id, d.declarer, d.bidder
"""  # noqa: S608 - our own tables and constants; the ids are parameters
_DELETE_SQL = f"DELETE FROM {MatchTally._meta.db_table} WHERE match_id IN ({{matches}})"  # noqa: S608


_CHUNK = 900  # ids a statement names: within SQLite's oldest limit of 999


def tallies_store(match_ids: list[int]) -> None:
    """Count the contracts of these sheets again from their deals, replacing what
    was stored: two statements (for up to 900 sheets). Inside the write's
    transaction."""
    for at in range(0, len(match_ids), _CHUNK):
        chunk = match_ids[at : at + _CHUNK]
        marks = ", ".join(["%s"] * len(chunk))
        with connection.cursor() as cursor:
            cursor.execute(_DELETE_SQL.replace("{matches}", marks), chunk)
            cursor.execute(_STORE_SQL.replace("{matches}", marks), chunk)


def tally_of_sheet(deals: list[Deal], penalties: list[Penalty]) -> list[int]:
    """`Match.tally` of a sheet (statistics.sheet_tally) from its rows."""
    return stats.sheet_tally(
        ((d.number, d.declarer, bool(d.made)) for d in deals),
        ((p.offender, p.kind) for p in penalties),
    )
