"""The paper score sheet of one match: plain values in, bytes out, and back (no
Django, no database).

`score_sheet_build` writes the form a table fills on paper, pre-filled with the match
and one row per scheduled deal; a workbook may hold several (one worksheet per match: a
whole round). `score_sheets_read` takes a filled one back: it checks the layout and
turns cells into raw values; the rules (rules.md §2–§3, §6) are applied by the services
that record them, which report every bad row with its worksheet and row number. An
upload is checked before it is parsed (tournament/xlsx/read.py).

Vocabulary: a *file sheet* is what the reader found on one worksheet.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Border, Font, PatternFill, Side
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from tournament.domain.errors import filled, marked
from tournament.xlsx.read import XlsxLimits, XlsxRefused, sheet_rows, workbook_open
from tournament.xlsx.write import clean, put

from ..domain.rules import PenaltyKind, Trump, announced_after
from .workbook import PAPER_A4, PENALTY_WORDS, STAGE_WORDS, DealLine, said

_TITLE_FONT = Font(bold=True, size=14)
_HEADER_FONT = Font(bold=True, color="FFFFFF")
_HEADER_FILL = PatternFill("solid", fgColor="1F4E78")
_KEY_FILL = PatternFill("solid", fgColor="D9D9D9")
_THIN = Side(style="thin", color="808080")
_BOX = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
# Under a deal after which the totals are announced (rules.md §4): a thick line.
_ANNOUNCE_LINE = Side(style="medium", color="000000")
_BOX_ANNOUNCE = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_ANNOUNCE_LINE)
NOTE_TIEBREAK = "tie-break only"
NOTE_ANNOUNCE = "announce totals"

# The score sheet of one match
# ----------------------------------------------------------------------------------

# Labels in column A (and D, G) of the header block; the reader finds them anywhere in
# the first rows, so an inserted row or a moved block does not break a filled sheet.
LABEL_MATCH, LABEL_VERSION = "Match id", "Version"
DEAL_HEADERS = (
    "Deal",
    "Declarer",
    "Value",
    "Trump",
    "Level",
    "Taken",
    "Award to",
    "Award",
    "Total A",
    "Total B",
    "Bidder",
    "Auction",
)
# Optional columns, found by their header: a sheet printed before they were added
# reads as before, and leaves what the site holds in them alone.
OPTIONAL_HEADERS = ("Bidder", "Auction")
PENALTY_HEADERS = ("Deal", "Offender", "Kind", "Points", "Note")
PENALTY_ROWS = 8
TABLES_FORMAT_ROWS = 40  # the tables format has no scheduled deals (rules.md §8)
MAX_SHEETS = 500  # worksheets read from one file

_TRUMP_WORDS = {
    "c": Trump.CLUBS,
    "♣": Trump.CLUBS,
    "club": Trump.CLUBS,
    "d": Trump.DIAMONDS,
    "♦": Trump.DIAMONDS,
    "diamond": Trump.DIAMONDS,
    "h": Trump.HEARTS,
    "♥": Trump.HEARTS,
    "heart": Trump.HEARTS,
    "s": Trump.SPADES,
    "♠": Trump.SPADES,
    "spade": Trump.SPADES,
    "nt": Trump.NO_TRUMP,
    "no trump": Trump.NO_TRUMP,
    "no trumps": Trump.NO_TRUMP,
    "noes": Trump.NO_TRUMP,
    "pass": Trump.NO_TRUMP,
}
# A deal as the sheet's own key writes it (row 7): the game's notation, read back
# below like what a scorer writes.
TRUMP_NOTATION = {
    Trump.CLUBS: "C",
    Trump.DIAMONDS: "D",
    Trump.HEARTS: "H",
    Trump.SPADES: "S",
    Trump.NO_TRUMP: "NT",
}
LEVEL_NOTATION = {"none": "", "doubled": "X", "redoubled": "XX"}
_LEVEL_WORDS = {
    "": "none",
    "-": "none",
    "x": "doubled",
    "double": "doubled",
    "d": "doubled",
    "xx": "redoubled",
    "redouble": "redoubled",
    "rd": "redoubled",
}


@dataclass(frozen=True)
class MatchHeading:
    """What the printed sheet says about its match."""

    tournament: str
    match: int
    version: int
    stage: str
    round: int
    table: int
    team_a: str
    team_b: str
    deals_scheduled: int | None  # None: the tables format
    tiebreak_deals: int = 0  # knockout: the rows the tie-break may add (rules.md §6)
    toss_winner: str = ""
    first_dealer: str = ""


@dataclass(frozen=True)
class PrintedPenalty:
    deal: int
    offender: str
    kind: str
    points: int | None  # what the .xlsx sheet writes and reads back: conduct's only
    note: str
    # What the rules worked out (Penalty.points) and whether it was a warning: the
    # printed page shows them; the .xlsx sheet's points column stays as imported.
    given: int | None = None
    warning: bool = False


@dataclass(frozen=True)
class PaperRow:
    """A deal's row on the paper sheet."""

    number: int
    tiebreak: bool  # a knockout tie-break deal: played only after equal totals
    checkpoint: bool  # the totals are announced after it (rules.announced_after)


def paper_rows(heading: MatchHeading, numbers: Sequence[int]) -> list[PaperRow]:
    """The deal rows of a paper sheet, the .xlsx and the printed page alike: every
    scheduled deal and the tie-break's (rules.md §6), or TABLES_FORMAT_ROWS in the
    tables format, and any deal already on the sheet beyond them."""
    scheduled = heading.deals_scheduled
    count = (
        scheduled + heading.tiebreak_deals
        if scheduled is not None
        else max(TABLES_FORMAT_ROWS, len(numbers))
    )
    return [
        PaperRow(
            number=n,
            tiebreak=scheduled is not None and n > scheduled,
            checkpoint=announced_after(n, scheduled),
        )
        for n in range(1, max([count, *numbers]) + 1)
    ]


def _sheet_title(heading: MatchHeading, taken: set[str]) -> str:
    base = f"R{heading.round} T{heading.table}"
    if heading.stage != "league":
        base = f"K{heading.round} T{heading.table}"
    name, n = base, 2
    while name in taken:
        name, n = f"{base} ({n})", n + 1
    taken.add(name)
    return name[:31]


def _label(ws: Worksheet, row: int, column: int, text: str, value: Any) -> None:
    put(ws, row, column, text).font = Font(bold=True)
    cell = put(ws, row, column + 1, value)
    cell.fill = _KEY_FILL


def _score_sheet_write(
    ws: Worksheet,
    heading: MatchHeading,
    deals: Sequence[DealLine],
    penalties: Sequence[PrintedPenalty],
) -> None:
    put(ws, 1, 1, f"{heading.tournament} — score sheet").font = _TITLE_FONT
    _label(ws, 2, 1, LABEL_MATCH, heading.match)
    _label(ws, 2, 4, LABEL_VERSION, heading.version)
    put(ws, 2, 7, "Grey cells identify the sheet: leave them.")
    _label(ws, 3, 1, "Stage", said(heading.stage, STAGE_WORDS))
    _label(ws, 3, 4, "Round", heading.round)
    _label(ws, 3, 7, "Table", heading.table)
    _label(ws, 4, 1, "Team A", heading.team_a)
    _label(ws, 5, 1, "Team B", heading.team_b)
    _label(
        ws,
        4,
        4,
        "Deals",
        heading.deals_scheduled if heading.deals_scheduled is not None else "tables",
    )
    if heading.tiebreak_deals:
        put(ws, 6, 1, "Toss won by").font = Font(bold=True)
        put(ws, 6, 2, heading.toss_winner or None)
        put(ws, 6, 4, "First dealer").font = Font(bold=True)
        put(ws, 6, 5, heading.first_dealer or None)
        put(
            ws,
            6,
            7,
            "Toss: only after a tie at the end of the extra deals.",
        )
    put(
        ws,
        7,
        1,
        "Declarer, Offender: A or B. Trump: C D H S or NT. Level: blank, X "
        "(doubled) or XX (redoubled). Award and totals are computed: leave them. "
        "Bidder and Auction are optional (the auction: A: 28S 30H P P P P P).",
    ).font = Font(italic=True)
    put(
        ws,
        8,
        1,
        f"The scorer announces both totals after each deal marked {NOTE_ANNOUNCE!r} "
        "(a thick line): every sixth deal and each of the last six.",
    ).font = Font(italic=True)

    header_row = 9
    for i, text in enumerate(DEAL_HEADERS, start=1):
        cell = put(ws, header_row, i, text)
        cell.font, cell.fill, cell.border = _HEADER_FONT, _HEADER_FILL, _BOX
    paper = paper_rows(heading, [d.number for d in deals])
    rows = len(paper)
    by_number = {d.number: d for d in deals}
    first = header_row + 1
    for line in paper:
        n = line.number
        r = first + n - 1
        d = by_number.get(n)
        values: list[Any] = [n]
        if d is not None:
            values += [
                d.declarer,
                d.value,
                said(d.trump, TRUMP_NOTATION),
                said(d.level, LEVEL_NOTATION),
                d.taken,
                d.award_to,
                d.award,
                d.total_a,
                d.total_b,
                d.bidder,
                d.auction,
            ]
        for i, value in enumerate(values, start=1):
            put(ws, r, i, value if value != "" else None)
        for i in range(1, len(DEAL_HEADERS) + 1):
            ws.cell(row=r, column=i).border = _BOX_ANNOUNCE if line.checkpoint else _BOX
        ws.cell(row=r, column=1).fill = _KEY_FILL
        notes = [NOTE_TIEBREAK] * line.tiebreak + [NOTE_ANNOUNCE] * line.checkpoint
        if notes:
            put(ws, r, len(DEAL_HEADERS) + 1, " · ".join(notes))
    last = first + rows - 1

    declarers = DataValidation(type="list", formula1='"A,B"', allow_blank=True)
    declarers.error = "A or B: team A or team B of this match."
    declarers.add(f"B{first}:B{last}")
    values_rule = DataValidation(
        type="whole", operator="between", formula1="28", formula2="56", allow_blank=True
    )
    values_rule.error = "A contract is 28 to 56."
    values_rule.add(f"C{first}:C{last}")
    taken_rule = DataValidation(
        type="whole", operator="between", formula1="0", formula2="56", allow_blank=True
    )
    taken_rule.error = "The tricks of a deal hold 56 points: 0 to 56."
    taken_rule.add(f"F{first}:F{last}")

    pen_header = last + 2
    for i, text in enumerate(PENALTY_HEADERS, start=1):
        cell = put(ws, pen_header, i, text)
        cell.font, cell.fill, cell.border = _HEADER_FONT, _HEADER_FILL, _BOX
    kinds = ", ".join(PENALTY_WORDS[k] for k in PenaltyKind)
    put(ws, pen_header, 7, f"Kind: {kinds}").font = Font(italic=True)
    pen_rows = max(PENALTY_ROWS, len(penalties) + 2)
    for i in range(pen_rows):
        r = pen_header + 1 + i
        if i < len(penalties):
            p = penalties[i]
            for c, value in enumerate(
                (
                    p.deal,
                    p.offender,
                    said(p.kind, PENALTY_WORDS),
                    p.points,
                    p.note or None,
                ),
                start=1,
            ):
                put(ws, r, c, value)
        for c in range(1, len(PENALTY_HEADERS) + 1):
            ws.cell(row=r, column=c).border = _BOX
    offenders = DataValidation(type="list", formula1='"A,B"', allow_blank=True)
    offenders.add(f"B{pen_header + 1}:B{pen_header + pen_rows}")
    kind_rule = DataValidation(
        type="list",
        formula1='"' + ",".join(PENALTY_WORDS[k] for k in PenaltyKind) + '"',
        allow_blank=True,
    )
    kind_rule.add(f"C{pen_header + 1}:C{pen_header + pen_rows}")
    for rule in (declarers, values_rule, taken_rule, offenders, kind_rule):
        rule.showErrorMessage = True
        ws.add_data_validation(rule)

    sign = pen_header + pen_rows + 2
    put(ws, sign, 1, "Captain A").font = Font(bold=True)
    put(ws, sign, 4, "Captain B").font = Font(bold=True)
    put(ws, sign, 7, "Scorer").font = Font(bold=True)
    for letter, width in zip(
        "ABCDEFGHIJKLM", (10, 10, 8, 10, 11, 8, 9, 8, 9, 9, 16, 30, 28), strict=True
    ):
        ws.column_dimensions[letter].width = width
    ws.freeze_panes = f"A{first}"
    ws.print_title_rows = f"{header_row}:{header_row}"
    ws.page_setup.orientation = "portrait"
    ws.page_setup.paperSize = PAPER_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_area = f"A1:M{sign}"


PrintedSheet = tuple[MatchHeading, Sequence[DealLine], Sequence["PrintedPenalty"]]


def score_sheet_build(sheets: Iterable[PrintedSheet]) -> bytes:
    """A workbook with one worksheet per match, each the paper score sheet pre-filled
    with the match and whatever the sheet already holds."""
    workbook = Workbook()
    workbook.remove(workbook.active)
    taken: set[str] = set()
    for heading, deals, penalties in sheets:
        ws = workbook.create_sheet(_sheet_title(heading, taken))
        _score_sheet_write(ws, heading, deals, penalties)
    if not workbook.worksheets:
        raise AssertionError("a score-sheet workbook needs at least one match")
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# Reading filled score sheets back
# ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FileProblem:
    worksheet: str
    row: int | None
    field: str
    message: str


@dataclass(frozen=True)
class FileDeal:
    row: int
    number: object
    declarer: object
    value: object
    trump: object
    level: object
    taken: object
    bidder: str | None = None  # None: the sheet has no Bidder column (keep the site's)
    auction: str | None = None  # None: no Auction column


@dataclass(frozen=True)
class FilePenalty:
    row: int
    deal: object
    offender: object
    kind: object
    points: object
    note: str


@dataclass(frozen=True)
class FileSheet:
    worksheet: str
    match: int
    version: int | None
    deals: tuple[FileDeal, ...]
    penalties: tuple[FilePenalty, ...]
    toss_winner: str = ""
    first_dealer: str = ""
    toss_row: int | None = None


class FileRefused(Exception):
    """A file the reader cannot take: every problem found, with where it is."""

    message = marked(
        "Nothing was imported: the file is not a filled score sheet of this site."
    )

    def __init__(self, problems: list[FileProblem]) -> None:
        super().__init__(f"{len(problems)} problem(s) in the file")
        self.problems = problems


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def note_text(value: Any) -> str:
    """A note as a workbook gives it back: as typed, but for the blanks around it (the
    API trims them too), line breaks as "\n" (XML reads "\r\n" and "\r" so) and no
    character XML cannot hold. A note printed on a sheet and read back is the same
    under this, so an import does not take it for a change."""
    if value is None:
        return ""
    return clean(str(value)).replace("\r\n", "\n").replace("\r", "\n").strip()


def _number(value: Any) -> object:
    """A cell as a whole number where it is one (Excel keeps numbers as floats); other
    text is passed on for the rules to refuse with its own message."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    text = _text(value)
    if text.lstrip("-").isdigit():
        return int(text)
    return text


def _side(value: Any) -> object:
    text = _text(value).upper()
    return {"TEAM A": "A", "TEAM B": "B"}.get(text, text)


def _trump(value: Any) -> object:
    text = _text(value).casefold()
    found = _TRUMP_WORDS.get(text) or _TRUMP_WORDS.get(text.rstrip("s"))
    if found is not None:
        return found.value
    return text.replace(" ", "_")


def _level(value: Any) -> object:
    text = _text(value).casefold()
    return _LEVEL_WORDS.get(text, text)


def _kind(value: Any) -> object:
    return _text(value).casefold().replace(" ", "_").replace("-", "_")


def _find(rows: list[tuple[Any, ...]], label: str) -> tuple[int, int] | None:
    want = label.casefold()
    for r, values in enumerate(rows[:12]):
        for c, value in enumerate(values):
            if _text(value).casefold() == want:
                return r, c
    return None


def _beside(rows: list[tuple[Any, ...]], at: tuple[int, int] | None) -> Any:
    if at is None:
        return None
    r, c = at
    values = rows[r]
    return values[c + 1] if c + 1 < len(values) else None


def _header_row(rows: list[tuple[Any, ...]], headers: tuple[str, ...], start: int):
    want = [h.casefold() for h in headers[:2]]
    for r in range(start, len(rows)):
        got = [_text(v).casefold() for v in rows[r][:2]]
        if got == want:
            return r
    return None


def _worksheet_read(title: str, rows: list[tuple[Any, ...]]) -> FileSheet | None:
    """One worksheet, or None when it is not a score sheet (no Match id label)."""
    at_match = _find(rows, LABEL_MATCH)
    if at_match is None:
        return None
    problems: list[FileProblem] = []
    match = _number(_beside(rows, at_match))
    if not isinstance(match, int) or isinstance(match, bool):
        problems.append(
            FileProblem(
                title,
                at_match[0] + 1,
                "match",
                marked(
                    "the Match id beside its label is not a number: the sheet must be"
                    " one this site printed."
                ),
            )
        )
    version = _number(_beside(rows, _find(rows, LABEL_VERSION)))
    deal_header = _header_row(rows, DEAL_HEADERS, 0)
    if deal_header is None:
        problems.append(
            FileProblem(
                title,
                None,
                "file",
                marked(
                    "no deal table: a header row starting Deal, Declarer is missing."
                ),
            )
        )
        raise FileRefused(problems)
    header = [_text(v).casefold() for v in rows[deal_header]]
    optional = {
        name: header.index(name.casefold())
        for name in OPTIONAL_HEADERS
        if name.casefold() in header
    }

    def extra(values: tuple[Any, ...], name: str) -> str | None:
        column = optional.get(name)
        return None if column is None else _text(values[column])

    toss_at = _find(rows, "Toss won by")
    toss_winner = _text(_beside(rows, toss_at)).upper() if toss_at else ""
    first_dealer = _text(_beside(rows, _find(rows, "First dealer"))).upper()

    deals: list[FileDeal] = []
    r = deal_header + 1
    while r < len(rows):
        values = (*rows[r], *([None] * len(header)))
        if _text(values[0]).casefold() == "deal":
            break  # the penalties' header
        filled = [_text(v) for v in values[1:6]]
        if any(filled):
            deals.append(
                FileDeal(
                    row=r + 1,
                    number=_number(values[0]),
                    declarer=_side(values[1]),
                    value=_number(values[2]),
                    trump=_trump(values[3]),
                    level=_level(values[4]),
                    taken=_number(values[5]),
                    bidder=extra(values, "Bidder"),
                    auction=extra(values, "Auction"),
                )
            )
        r += 1
    penalties: list[FilePenalty] = []
    pen_header = _header_row(rows, PENALTY_HEADERS, deal_header + 1)
    if pen_header is not None:
        for r in range(pen_header + 1, len(rows)):
            values = (*rows[r], *([None] * len(PENALTY_HEADERS)))
            if _text(values[0]).casefold().startswith("captain"):
                break
            if not any(_text(v) for v in values[:5]):
                continue
            points = values[3]
            penalties.append(
                FilePenalty(
                    row=r + 1,
                    deal=_number(values[0]),
                    offender=_side(values[1]),
                    kind=_kind(values[2]),
                    points=None if _text(points) == "" else _number(points),
                    note=note_text(values[4]),
                )
            )
    if problems:
        raise FileRefused(problems)
    return FileSheet(
        worksheet=title,
        match=match,  # type: ignore[arg-type]
        version=version if isinstance(version, int) else None,
        deals=tuple(deals),
        penalties=tuple(penalties),
        toss_winner=toss_winner,
        first_dealer=first_dealer,
        toss_row=toss_at[0] + 1 if toss_at else None,
    )


def score_sheets_read(
    content: bytes, limits: XlsxLimits | None = None
) -> list[FileSheet]:
    """Every score sheet in a workbook (worksheets without a Match id are skipped);
    FileRefused lists what is wrong with the file's layout, or names the limit of
    `limits` it is past (tournament.xlsx.read: a hostile file is refused before
    openpyxl parses it)."""
    limits = limits or XlsxLimits()
    found: list[FileSheet] = []
    problems: list[FileProblem] = []
    try:
        with workbook_open(content, limits) as workbook:
            for ws in workbook.worksheets[:MAX_SHEETS]:
                rows = list(sheet_rows(ws, limits))
                try:
                    sheet = _worksheet_read(ws.title, rows)
                except FileRefused as refused:
                    problems += refused.problems
                    continue
                if sheet is not None:
                    found.append(sheet)
    except XlsxRefused as refused:
        raise FileRefused(
            [
                FileProblem(
                    "",
                    None,
                    "file",
                    filled(marked("%(reason)s."), reason=refused.message),
                )
            ]
        ) from None
    if problems:
        raise FileRefused(problems)
    if not found:
        raise FileRefused(
            [
                FileProblem(
                    "",
                    None,
                    "file",
                    filled(
                        marked(
                            "no score sheet in the file: no worksheet has a "
                            "'%(LABEL_MATCH)s' label. Download the sheet from the "
                            "match's"
                            " page, fill it and import that."
                        ),
                        LABEL_MATCH=LABEL_MATCH,
                    ),
                )
            ]
        )
    seen: dict[int, str] = {}
    for sheet in found:
        if sheet.match in seen:
            problems.append(
                FileProblem(
                    sheet.worksheet,
                    None,
                    "match",
                    filled(
                        marked(
                            "match %(match)s is also on the worksheet '%(other)s': one "
                            "sheet"
                            " per match."
                        ),
                        match=sheet.match,
                        other=seen[sheet.match],
                    ),
                )
            )
        seen[sheet.match] = sheet.worksheet
    if problems:
        raise FileRefused(problems)
    return found
