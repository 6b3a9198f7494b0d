"""The tournament workbook: plain values in, bytes out (no Django, no database).

`tournament_workbook_build` writes the sheets Teams, Draw, Standings, Score sheets and
Bracket of API.md, each a table under a title row that names the tournament and when it
was exported. It is written with XlsxWriter's constant-memory mode from iterables, so a
36,000-deal tournament streams through with flat memory: rows are produced by the
caller's generators while the file is written. The paper score sheet of one match is
scoring/excel/paper.py.

Vocabulary: a *column* has a title, a width and a kind; a *table sheet* is a titled
worksheet of rows.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import xlsxwriter

from tournament.xlsx.write import FORMULA_STARTS, clean

# Where every table sheet puts things (1-based rows).
TITLE_ROW, STAMP_ROW, ZONE_ROW, HEADER_ROW = 1, 2, 3, 4
FIRST_DATA_ROW = HEADER_ROW + 1
PAPER_A4 = 9  # the page-setup code of A4 paper
DATE_FORMAT = "yyyy-mm-dd"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm"
DECIMAL_FORMAT = "0.##"


@dataclass(frozen=True)
class Column:
    title: str
    width: float = 12
    kind: str = "text"  # text | int | decimal | date | datetime | yes_no
    # A column of values the rules name by code (a status, a trump): the words a
    # person reads for each code; a value not listed is written as it is.
    words: Mapping[str, str] | None = None


# The values the rules name by code, as the workbook writes them: words a person
# reads, in English like the rest of the file (docs/exports.md); the API keeps the
# codes. The pages say the same words in the visitor's language (scoring/words.py).
STAGE_WORDS = {"league": "League", "knockout": "Knockout"}
MATCH_STATUS_WORDS = {
    "scheduled": "Scheduled",
    "in_progress": "In progress",
    "completed": "Completed",
    "confirmed": "Confirmed",
    "void": "Void",
    "forfeited": "Forfeited",
    "bye": "Bye",
}
# A knockout match's state on the Bracket sheet (brackets/selectors.py MatchView).
BRACKET_STATUS_WORDS = {
    **MATCH_STATUS_WORDS,
    "waiting": "Waiting for its teams",
    "decided": "Decided",
    "place": "Place",
}
TRUMP_WORDS = {
    "clubs": "Clubs",
    "diamonds": "Diamonds",
    "hearts": "Hearts",
    "spades": "Spades",
    "no_trump": "No trump",
}
LEVEL_WORDS = {"none": "Not doubled", "doubled": "Doubled", "redoubled": "Redoubled"}
PENALTY_WORDS = {
    "out_of_turn": "Out of turn",
    "kallakali": "Kallakali",
    "cardinal_rule": "Cardinal rule",
    "constraining_hand": "Constraining hand",
    "conduct": "Conduct",
    "lead_out_of_turn": "Lead out of turn",
    "review": "Review",
}
DECIDED_BY_WORDS = {
    "total": "Total",
    "extra_deals": "Extra deals",
    "sudden_death": "Sudden death",
}


def said(value: str, words: Mapping[str, str]) -> str:
    """A code as the workbook writes it (`value` itself when not a code of `words`)."""
    return words.get(value, value)


@dataclass(frozen=True)
class TableSheet:
    """One worksheet of the tournament workbook: a table under a title."""

    name: str  # the worksheet's name (at most 31 characters)
    columns: tuple[Column, ...]
    rows: Iterable[Sequence[Any]]
    note: str = ""  # one line beside the export time (say, "Provisional")
    landscape: bool = True


def _cell_value(value: Any, column: Column) -> Any:
    if value is None or value == "":
        return None
    if column.kind == "yes_no":
        return "yes" if value else "no"
    if column.words is not None and isinstance(value, str):
        return said(value, column.words)
    return value


# Cell formats of the tournament workbook, made once per workbook: XlsxWriter keeps a
# format per look, and a text that Excel's editor would start a formula with carries
# the quote prefix on top of its look (tournament/xlsx/write.py).
_LOOKS: dict[str, dict[str, Any]] = {
    "text": {},
    "title": {"bold": True, "font_size": 14},
    "header": {"bold": True, "font_color": "#FFFFFF", "bg_color": "#1F4E78"},
    "date": {"num_format": DATE_FORMAT},
    "datetime": {"num_format": DATETIME_FORMAT},
    "decimal": {"num_format": DECIMAL_FORMAT},
}


class _Formats:
    def __init__(self, workbook: Any) -> None:
        self._workbook = workbook
        self._made: dict[tuple[str, bool], Any] = {}

    def __call__(self, look: str, quoted: bool = False) -> Any:
        key = (look, quoted)
        if key not in self._made:
            spec = {**_LOOKS[look], **({"quote_prefix": True} if quoted else {})}
            self._made[key] = self._workbook.add_format(spec) if spec else None
        return self._made[key]


def _write_text(ws: Any, formats: _Formats, row: int, col: int, text: str, look="text"):
    """A string, written as text whatever it reads like (never a formula)."""
    cleaned = clean(text)
    if not cleaned:
        return  # nothing an .xlsx can hold: an empty cell
    quoted = cleaned.startswith(FORMULA_STARTS)
    # XlsxWriter escapes what Excel would read as an escaped character (_xHHHH_,
    # a carriage return), so the text reads back in Excel exactly as typed.
    ws.write_string(row, col, cleaned, formats(look, quoted))


def _table_write(
    ws: Any,
    formats: _Formats,
    table: TableSheet,
    *,
    title: str,
    exported_at: datetime,
    time_zone: str,
) -> int:
    """Write one table sheet; answers the number of data rows written. Rows are
    0-based here, as XlsxWriter counts them; TITLE_ROW and the others are Excel's."""
    columns = table.columns
    for i, column in enumerate(columns):
        ws.set_column(i, i, column.width)
    ws.freeze_panes(FIRST_DATA_ROW - 1, 0)
    _write_text(ws, formats, TITLE_ROW - 1, 0, f"{title} — {table.name}", "title")
    ws.write_string(STAMP_ROW - 1, 0, "Exported")
    ws.write_datetime(STAMP_ROW - 1, 1, exported_at, formats("datetime"))
    if table.note:
        _write_text(ws, formats, STAMP_ROW - 1, 2, table.note)
    # Row by row (constant memory): the zone of every time in the sheet, under its
    # export time.
    ws.write_string(ZONE_ROW - 1, 0, "Time zone")
    _write_text(ws, formats, ZONE_ROW - 1, 1, time_zone)
    for i, column in enumerate(columns):
        _write_text(ws, formats, HEADER_ROW - 1, i, column.title, "header")
    looks = [formats(c.kind) if c.kind in _LOOKS else None for c in columns]
    count = 0
    row = FIRST_DATA_ROW - 1
    for values in table.rows:
        for i, (column, value) in enumerate(zip(columns, values, strict=True)):
            shown = _cell_value(value, column)
            if shown is None:
                continue
            if isinstance(shown, str):
                _write_text(ws, formats, row, i, shown)
            elif isinstance(shown, datetime | date):
                ws.write_datetime(row, i, shown, looks[i])
            else:
                ws.write_number(row, i, shown, looks[i])
        row += 1
        count += 1
    ws.autofilter(HEADER_ROW - 1, 0, HEADER_ROW - 1 + max(count, 1), len(columns) - 1)
    ws.repeat_rows(HEADER_ROW - 1)
    if table.landscape:
        ws.set_landscape()
    else:
        ws.set_portrait()
    ws.set_paper(PAPER_A4)
    ws.fit_to_pages(1, 0)
    # "&" starts a code in a page footer ("&P" is the page number): a name's own
    # ampersands are doubled to print as one. Excel takes 255 characters at most.
    footer = clean(f"{title} — {table.name}").replace("&", "&&")[:200]
    ws.set_footer(f"&C{footer} — page &P of &N")
    return count


def tournament_workbook_build(
    *,
    title: str,
    exported_at: datetime,
    sheets: Iterable[TableSheet],
    time_zone: str = "UTC",
) -> bytes:
    """The workbook of `sheets`, in order. `exported_at` and every time in the
    sheets are naive times in the tournament's zone (Excel has no time zones),
    which each sheet names under its export time (`time_zone`: "America/New_York
    (EST)").

    Written by XlsxWriter in its constant-memory mode: each row goes to a temporary
    file as it is produced, so a 36,000-deal tournament streams through with flat
    memory, and XlsxWriter writes a cell in about half the time openpyxl does
    (docs/performance.md). It never reads a string as a formula, a number or a
    link: those options are off."""
    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(
        buffer,
        {
            "constant_memory": True,
            "strings_to_formulas": False,
            "strings_to_numbers": False,
            "strings_to_urls": False,
        },
    )
    formats = _Formats(workbook)
    for table in sheets:
        ws = workbook.add_worksheet(table.name[:31])
        _table_write(
            ws,
            formats,
            table,
            title=title,
            exported_at=exported_at,
            time_zone=time_zone,
        )
    workbook.close()
    return buffer.getvalue()


# The tournament workbook's sheets
# ----------------------------------------------------------------------------------


def teams_columns(players: int) -> tuple[Column, ...]:
    """`players` per team: the captain, then players 2..players."""
    return (
        Column("Team", 28),
        Column("Section", 18),
        Column("Captain", 24),
        Column("City", 16),
        Column("State", 7),
        Column("Country", 14),
        *(Column(f"Player {n}", 22) for n in range(2, players + 1)),
        Column("Team id", 9, "int"),
    )


DRAW_COLUMNS = (
    Column("Round", 8, "int"),
    Column("Table", 8, "int"),
    Column("Team A", 28),
    Column("Section A", 16),
    Column("Team B", 28),
    Column("Section B", 16),
    Column("Released", 10, "yes_no"),
    Column("Status", 12, words=MATCH_STATUS_WORDS),
    Column("Total A", 9, "int"),
    Column("Total B", 9, "int"),
    Column("Winner", 28),
    Column("Confirmed at", 17, "datetime"),
    Column("Match id", 10, "int"),
)

STANDINGS_COLUMNS = (
    Column("Place", 7, "int"),
    Column("Rank", 7, "int"),
    Column("Team", 28),
    Column("Section", 16),
    Column("Played", 8, "int"),
    Column("Won", 7, "int"),
    Column("Tied", 7, "int"),
    Column("Lost", 7, "int"),
    Column("Byes", 7, "int"),
    Column("R1", 7, "int"),
    Column("R2", 8, "decimal"),
    Column("R3", 8, "decimal"),
    Column("R4", 8, "decimal"),
    Column("Provisional", 12, "yes_no"),
    Column("Shared rank", 12, "yes_no"),
    Column("By lot", 8, "yes_no"),
    Column("Qualifies", 10),
    Column("Forfeits won", 12, "int"),
    Column("Forfeits lost", 12, "int"),
    Column("Withdrawn", 10, "yes_no"),
    Column("Team id", 9, "int"),
)

SCORE_SHEET_COLUMNS = (
    Column("Stage", 10, words=STAGE_WORDS),
    Column("Round", 8, "int"),
    Column("Table", 7, "int"),
    Column("Match id", 9, "int"),
    Column("Team A", 24),
    Column("Team B", 24),
    Column("Status", 11, words=MATCH_STATUS_WORDS),
    Column("Line", 9),
    Column("Deal", 6, "int"),
    Column("Declarer", 9),
    Column("Value", 7, "int"),
    Column("Trump", 10, words=TRUMP_WORDS),
    Column("Level", 11, words=LEVEL_WORDS),
    Column("Taken", 7, "int"),
    Column("Made", 7, "yes_no"),
    Column("Award to", 9),
    Column("Award", 7, "int"),
    Column("Awarded by", 18, words=PENALTY_WORDS),
    Column("Received A", 10, "int"),
    Column("Received B", 10, "int"),
    Column("Total A", 8, "int"),
    Column("Total B", 8, "int"),
    Column("Penalty", 18, words=PENALTY_WORDS),
    Column("Offender", 9),
    Column("Points", 7, "int"),
    Column("Warning", 9, "yes_no"),
    Column("Note", 30),
    Column("Bidder", 18),
    Column("Auction", 36),
)

# The tournament day (rules.md §9): every check-in absence, withdrawal, substitution,
# forfeit, dispute and ruling, in the order they happened.
DAY_COLUMNS = (
    Column("When", 17, "datetime"),
    Column("What", 13),
    Column("Team", 26),
    Column("Stage", 10, words=STAGE_WORDS),
    Column("Round", 7, "int"),
    Column("Table", 7, "int"),
    Column("Deal", 6, "int"),
    Column("Details", 60),
    Column("By", 16),
    Column("Match id", 9, "int"),
)

# Who played for each team in each match (rules.md §9: every match keeps its roster).
ROSTER_COLUMNS = (
    Column("Stage", 10, words=STAGE_WORDS),
    Column("Round", 7, "int"),
    Column("Table", 7, "int"),
    Column("Team A", 24),
    Column("Players A", 44),
    Column("Team B", 24),
    Column("Players B", 44),
    Column("Status", 11, words=MATCH_STATUS_WORDS),
    Column("Match id", 9, "int"),
)

# Who bid what (docs/statistics.md): a line per bidder, then per team, then per
# record holder.
STATISTICS_COLUMNS = (
    Column("Line", 8),
    Column("Team", 26),
    Column("Player", 22),
    Column("Declared", 9, "int"),
    Column("Made", 7, "int"),
    Column("Defeated", 9, "int"),
    Column("Made %", 8, "decimal"),
    Column("Average value", 9, "decimal"),
    Column("Doubled made", 9, "int"),
    Column("Redoubled made", 10, "int"),
    Column("56 bid", 7, "int"),
    Column("56 made", 8, "int"),
    Column("Kallakali caught", 10, "int"),
    Column("Kallakali suffered", 10, "int"),
    Column("Penalties against", 10, "int"),
    Column("Penalties by kind", 30),
    Column("Biggest win", 9, "int"),
    Column("Highest total", 9, "int"),
    Column("Longest run", 9, "int"),
    Column("Record", 30),
    Column("Value", 7, "int"),
    Column("Where", 40),
    # A "Rating" line per player with a rated match here (docs/ratings.md): his
    # rating before the tournament's first match and after its last.
    Column("Rating before", 9, "int"),
    Column("Rating after", 9, "int"),
    Column("Rated matches", 9, "int"),
)

BRACKET_COLUMNS = (
    Column("Round", 22),
    Column("Match", 7, "int"),
    Column("Game", 7, "int"),
    Column("Seed A", 7, "int"),
    Column("Team A", 26),
    Column("Seed B", 7, "int"),
    Column("Team B", 26),
    Column("Deals", 7, "int"),
    Column("Total A", 8, "int"),
    Column("Total B", 8, "int"),
    Column("Deals played", 12, "int"),
    Column("Tie-break deals", 15),
    Column("Decided by", 12, words=DECIDED_BY_WORDS),
    Column("Toss won by", 12),
    Column("First dealer", 12),
    Column("Winner", 26),
    Column("Status", 14, words=BRACKET_STATUS_WORDS),
    Column("Sheet id", 9, "int"),
)


# RULES.md §6: every team's final place once the final is decided.
FINAL_PLACES_COLUMNS = (
    Column("Place", 7, "int"),
    Column("Team", 26),
    Column("League rank", 12, "int"),
)


@dataclass(frozen=True)
class SheetBlock:
    """One match's score sheet for the Score sheets table: the match, then each deal
    with its penalties."""

    stage: str
    round: int
    table: int
    match: int
    team_a: str
    team_b: str
    status: str
    deals: Sequence[DealLine]


@dataclass(frozen=True)
class PenaltyLine:
    kind: str
    offender: str
    award_to: str
    points: int
    warning: bool
    note: str


@dataclass(frozen=True)
class DealLine:
    number: int
    declarer: str
    value: int
    trump: str
    level: str
    taken: int
    made: bool
    award_to: str
    award: int
    awarded_by: str
    received_a: int
    received_b: int
    total_a: int
    total_b: int
    penalties: Sequence[PenaltyLine] = field(default_factory=tuple)
    bidder: str = ""
    auction: str = ""


def score_sheet_rows(blocks: Iterable[SheetBlock]) -> Iterator[list[Any]]:
    """The Score sheets table: a line per deal, each followed by its penalties."""
    for b in blocks:
        head = [b.stage, b.round, b.table, b.match, b.team_a, b.team_b, b.status]
        if not b.deals:
            yield [*head, "No deals", *([None] * 21)]
        for d in b.deals:
            yield [
                *head,
                "Deal",
                d.number,
                d.declarer,
                d.value,
                d.trump,
                d.level,
                d.taken,
                d.made,
                d.award_to,
                d.award,
                d.awarded_by,
                d.received_a,
                d.received_b,
                d.total_a,
                d.total_b,
                None,
                None,
                None,
                None,
                None,
                d.bidder or None,
                d.auction or None,
            ]
            for p in d.penalties:
                yield [
                    *head,
                    "Penalty",
                    d.number,
                    *([None] * 6),
                    p.award_to,
                    None,
                    None,
                    None,
                    None,
                    None,
                    None,
                    p.kind,
                    p.offender,
                    p.points,
                    p.warning,
                    p.note,
                    None,
                    None,
                ]
