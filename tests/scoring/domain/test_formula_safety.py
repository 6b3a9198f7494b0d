"""No string a person typed ever becomes a formula in a workbook of this site (OWASP
"CSV injection"): the tournament workbook, the paper score sheet and the team-list
template write every string as text, and it reads back as typed."""

from __future__ import annotations

import io
import re
import zipfile
from datetime import datetime

from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook
from openpyxl.cell.cell import ERROR_CODES
from openpyxl.utils.escape import unescape

from scoring.excel import paper, workbook
from tournament.spreadsheets import team_template_build
from tournament.xlsx.write import FORMULA_STARTS, clean

# Text as a registrant might type it, leaning on what spreadsheets treat specially.
hostile = st.one_of(
    st.text(max_size=40),
    st.tuples(st.sampled_from(FORMULA_STARTS), st.text(max_size=30)).map("".join),
    st.sampled_from(
        [
            '=HYPERLINK("http://x.example/","y")',
            "=1+1",
            "+1+1",
            "-2+3",
            "@SUM(A1:A2)",
            "=cmd|' /C calc'!A0",
            "\t=1+1",
            "\r=1+1",
            "_x0041_ looks escaped",
            *ERROR_CODES,
        ]
    ),
)


def _as_read(value: str) -> str:
    """What a string cell gives back: XML reads a carriage return as a line feed,
    and holds no control characters."""
    return clean(value).replace("\r\n", "\n").replace("\r", "\n")


def _as_excel_reads(value):
    """A string cell of the tournament workbook as Excel reads it: XlsxWriter writes
    a carriage return as OOXML's escape _x000D_, which Excel turns back into the
    character (openpyxl leaves it), so the text is exactly as typed."""
    return unescape(value) if isinstance(value, str) else value


def _no_formula_cells(content: bytes) -> None:
    """The file's worksheets hold no formula and no error cell: every string is
    text."""
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                xml = archive.read(name).decode()
                assert "<f>" not in xml and "<f " not in xml, name
                assert not re.search(r'<c [^>]*t="e"', xml), name


@settings(max_examples=60, deadline=None)
@given(names=st.lists(hostile, min_size=1, max_size=6), title=hostile)
def test_the_tournament_workbook_writes_every_name_as_text(names, title):
    columns = (workbook.Column("Team", 20), workbook.Column("Id", 6, "int"))
    content = workbook.tournament_workbook_build(
        title=title,
        exported_at=datetime(2026, 11, 23, 9, 30),
        sheets=[
            workbook.TableSheet(
                "Teams", columns, [(name, i) for i, name in enumerate(names)]
            ),
            workbook.TableSheet("Notes", columns, [], note=names[0]),
        ],
    )
    _no_formula_cells(content)
    book = load_workbook(io.BytesIO(content))
    ws = book["Teams"]
    first = workbook.FIRST_DATA_ROW
    got = [_as_excel_reads(ws.cell(first + i, 1).value) for i in range(len(names))]
    assert got == [clean(n) or None for n in names]
    assert _as_excel_reads(ws["A1"].value) == clean(f"{title} — Teams")
    note = _as_excel_reads(book["Notes"]["C2"].value)
    assert note == (clean(names[0]) or None)


@settings(max_examples=60, deadline=None)
@given(team_a=hostile, team_b=hostile, tournament=hostile, notes=st.lists(hostile))
def test_the_paper_sheet_writes_names_as_text_and_reads_notes_back(
    team_a, team_b, tournament, notes
):
    heading = paper.MatchHeading(
        tournament=tournament,
        match=41,
        version=3,
        stage="league",
        round=1,
        table=2,
        team_a=team_a,
        team_b=team_b,
        deals_scheduled=2,
    )
    penalties = [
        paper.PrintedPenalty(deal=1, offender="A", kind="conduct", points=1, note=n)
        for n in notes
    ]
    content = paper.score_sheet_build([(heading, [], penalties)])
    _no_formula_cells(content)
    ws = load_workbook(io.BytesIO(content)).worksheets[0]
    assert (ws["B4"].value, ws["B5"].value) == (
        _as_read(team_a) or None,
        _as_read(team_b) or None,
    )
    (sheet,) = paper.score_sheets_read(content)
    read = [p.note for p in sheet.penalties]
    assert read == [paper.note_text(n) for n in notes]


@settings(max_examples=30, deadline=None)
@given(name=hostile)
def test_the_team_list_template_writes_the_tournament_name_as_text(name):
    content = team_template_build(tournament_name=name, players_per_team=3)
    _no_formula_cells(content)
    notes = load_workbook(io.BytesIO(content))["How to fill"]
    line = f"Team list for {name}: one team per row on the sheet Teams."
    assert notes["A1"].value == _as_read(line)


def test_text_that_excel_would_run_when_edited_keeps_the_quote_prefix():
    heading = paper.MatchHeading(
        tournament="Open",
        match=1,
        version=1,
        stage="league",
        round=1,
        table=1,
        team_a="=1+1",
        team_b="Plain",
        deals_scheduled=1,
    )
    ws = load_workbook(
        io.BytesIO(paper.score_sheet_build([(heading, [], [])]))
    ).worksheets[0]
    assert ws["B4"].data_type == "s" and ws["B4"].quotePrefix
    assert not ws["B5"].quotePrefix
