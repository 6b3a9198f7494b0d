"""The team list as a spreadsheet: the template organizers fill, and reading it back.

Layout (docs/team-import.md): one sheet, named "Teams" (else the first sheet), a header
row with the columns below in any order, one team per row. Blank rows are skipped; row
numbers in every message are the spreadsheet's own.

| Team | Captain | City | State | Country | Player 2 | Player 3 | Player 4 |

Reading checks only the file's shape; the rules of registration are applied by
`services.team_import`, which reports bad rows with these row numbers.
"""

from __future__ import annotations

import io
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill

from tournament.xlsx.read import XlsxLimits, XlsxRefused, sheet_rows, workbook_open
from tournament.xlsx.write import row_cells

from .domain.errors import RuleError, marked
from .domain.sections import USA
from .services import ImportRow

COLUMNS = ("Team", "Captain", "City", "State", "Country")
PLAYER_COLUMNS = ("Player 2", "Player 3", "Player 4")
MAX_ROWS = 2000
_ALIASES = {
    "team": "Team",
    "team name": "Team",
    "captain": "Captain",
    "captain name": "Captain",
    "captain's name": "Captain",
    "city": "City",
    "state": "State",
    "country": "Country",
}


# What a refusal of registration names (services.team_entry_check's fields) → the
# template's column that holds it: a bad row's problem names the column as the file
# shows it ("State"), never the field's code ("captain.state").
FIELD_COLUMNS = {
    "name": "Team",
    "captain": "Captain",
    "captain.name": "Captain",
    "captain.city": "City",
    "captain.state": "State",
    "captain.country": "Country",
}


def field_column(field: str, players_per_team: int) -> str:
    """The template's column (or columns) of a registration field: "State" for
    `captain.state`, "Player 2, Player 3" for `players` in teams of three."""
    if field == "players":
        return ", ".join(f"Player {n}" for n in range(2, players_per_team + 1))
    return FIELD_COLUMNS.get(field, field)


def _header(value: Any) -> str | None:
    text = " ".join(str(value or "").split()).casefold()
    if text in _ALIASES:
        return _ALIASES[text]
    if text.startswith("player"):
        return "Player " + text.removeprefix("player").strip()
    return None


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def team_rows_read(content: bytes, limits: XlsxLimits | None = None) -> list[ImportRow]:
    """The rows of a filled team list; RuleError (field `file`) for a file of the wrong
    shape, or past a limit of `limits` (tournament.xlsx.read: a hostile file is
    refused before openpyxl parses it)."""
    try:
        with workbook_open(content, limits or XlsxLimits()) as workbook:
            sheet = (
                workbook["Teams"]
                if "Teams" in workbook.sheetnames
                else workbook.worksheets[0]
            )
            return _team_rows(sheet_rows(sheet, limits or XlsxLimits()))
    except XlsxRefused as refused:
        raise RuleError(refused.code, refused.message, field="file") from None


def _team_rows(rows) -> list[ImportRow]:
    columns: dict[str, int] | None = None
    header_row = 0
    for number, values in enumerate(rows, start=1):
        found = {_header(v): i for i, v in enumerate(values) if _header(v)}
        if "Team" in found and "Captain" in found:
            columns, header_row = found, number
            break
        if number >= 10:
            break
    if columns is None:
        raise RuleError(
            "no_header",
            marked(
                "no header row with the columns Team and Captain in the first 10 rows"
                " (expected: %(columns)s)"
            ),
            field="file",
            columns=", ".join(COLUMNS + PLAYER_COLUMNS),
        )
    missing = [c for c in COLUMNS if c not in columns]
    if missing:
        raise RuleError(
            "missing_columns",
            marked("the header row %(header_row)s lacks the columns %(missing)s"),
            field="file",
            header_row=header_row,
            missing=", ".join(missing),
        )
    # "Player 2" before "Player 3", wherever the columns stand.
    player_columns = [
        i for name, i in sorted(columns.items()) if name.startswith("Player")
    ]
    result: list[ImportRow] = []
    for number, values in enumerate(rows, start=header_row + 1):
        cells = [_text(v) for v in values]

        def cell(name: str, cells=cells) -> str:
            i = columns[name]
            return cells[i] if i < len(cells) else ""

        if not any(cells):
            continue
        if len(result) >= MAX_ROWS:
            raise RuleError(
                "too_many_rows",
                marked("a team list has at most %(MAX_ROWS)s teams"),
                field="file",
                MAX_ROWS=MAX_ROWS,
            )
        players = tuple(cells[i] for i in player_columns if i < len(cells) and cells[i])
        result.append(
            ImportRow(
                number=number,
                name=cell("Team"),
                captain={
                    "name": cell("Captain"),
                    "city": cell("City"),
                    "state": cell("State"),
                    "country": cell("Country"),
                },
                players=players,
            )
        )
    if not result:
        raise RuleError(
            "empty",
            marked("the team list has no teams below its header"),
            field="file",
        )
    return result


def team_template_build(
    *, tournament_name: str, players_per_team: int, home_country: str = USA
) -> bytes:
    """An empty team list with the header row and a sheet of instructions, which say
    how the tournament's home country places its teams (rules.md §5)."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Teams"
    headers = list(COLUMNS) + list(PLAYER_COLUMNS[: players_per_team - 1])
    sheet.append(headers)
    for cell in sheet[1]:
        cell.font = Font(bold=True, color="FFFFFF")
        cell.fill = PatternFill("solid", fgColor="1F4E78")
    for letter, width in zip("ABCDEFGH", (28, 24, 18, 8, 16, 24, 24, 24), strict=False):
        sheet.column_dimensions[letter].width = width
    sheet.freeze_panes = "A2"
    notes = workbook.create_sheet("How to fill")
    for line in (
        f"Team list for {tournament_name}: one team per row on the sheet Teams.",
        "Team: the team's name, unique in the tournament.",
        "Captain: the captain's name; the captain plays and counts as player 1.",
        *(
            [
                "City, State: where the captain lives; State is a US state code (NJ) "
                "or name.",
                "Country: USA (any spelling) or the country; teams from outside the "
                "USA play in the section International.",
            ]
            if home_country == USA
            else [
                "City, State: where the captain lives; State is the state or region "
                "as the sections list it (any case or spacing); in the USA a state "
                "code (NJ) or name.",
                f"Country: {home_country} or the country; cities and regions place "
                f"teams from {home_country} only, and teams from elsewhere play in "
                "the section International.",
            ]
        ),
        f"Player 2 to Player {players_per_team}: the other players "
        f"({players_per_team} players per team).",
        "A file with any bad row creates no team; every bad row is reported with its "
        "row "
        "number.",
    ):
        notes.append(row_cells(notes, [line]))  # the tournament name is typed text
    notes.column_dimensions["A"].width = 100
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
