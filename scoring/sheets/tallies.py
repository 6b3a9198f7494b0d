"""What a sheet adds to the statistics, stored with the sheet (issue 43).

Every sheet write (locking.rescore) stores, beside the match's totals, its contracts
counted by side and bidder (`MatchTally` rows, counted in SQL from the deals, as the
statistics count them) and, on the match row, each side's run piece and penalties by
kind (`Match.tally`). The statistics then read one row per match, side and bidder
instead of every deal of the tournament (scoring/statistics/selectors.py).
"""

from __future__ import annotations

from collections import Counter

from django.db import connection

from ..domain import statistics as stats
from ..domain.rules import VALUE_MAX, Level, PenaltyKind, Side
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


KINDS = tuple(PenaltyKind)  # the order of Match.tally's penalty counts
RUN_WIDTH = len(stats.RunPiece().as_list())


def tally_of_sheet(deals: list[Deal], penalties: list[Penalty]) -> list[int]:
    """`Match.tally` of a sheet: each side's run piece (its declared deals in number
    order, made or not as the rules found), then each side's penalties by kind
    (warnings included: each is a time the side offended)."""
    ordered = sorted(deals, key=lambda d: d.number)
    tally: list[int] = []
    for side in Side:
        tally += stats.run_piece(
            (d.number, bool(d.made)) for d in ordered if d.declarer == side.value
        ).as_list()
    for side in Side:
        counted = Counter(p.kind for p in penalties if p.offender == side.value)
        tally += [counted[kind.value] for kind in KINDS]
    return tally


def tally_read(
    tally: list[int],
) -> tuple[stats.RunPiece, stats.RunPiece, dict[str, int], dict[str, int]]:
    """Match.tally read back: side A's and B's run pieces, and their penalties by
    kind (only the kinds they incurred)."""
    a, b = tally[:RUN_WIDTH], tally[RUN_WIDTH : 2 * RUN_WIDTH]
    kinds = len(KINDS)
    at = 2 * RUN_WIDTH
    pa, pb = tally[at : at + kinds], tally[at + kinds : at + 2 * kinds]
    return (
        stats.RunPiece(*a),
        stats.RunPiece(*b),
        {k.value: n for k, n in zip(KINDS, pa, strict=True) if n},
        {k.value: n for k, n in zip(KINDS, pb, strict=True) if n},
    )
