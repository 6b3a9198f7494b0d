"""scoring/excel/workbook.py and paper.py on their own: plain values in, bytes out,
no Django. The paper sheet read back gives what was printed, for any sheet; the
workbook's layout."""

from __future__ import annotations

import io
import subprocess
import sys
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import Workbook, load_workbook

from scoring.domain.rules import Level, PenaltyKind, Trump
from scoring.excel import paper, workbook


def test_the_modules_need_no_django():
    code = (
        "import sys, scoring.excel.workbook, scoring.excel.paper; "
        "assert not any(m.startswith('django') for m in sys.modules), 'django'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _heading(deals: int | None = 6, tiebreak: int = 0) -> paper.MatchHeading:
    return paper.MatchHeading(
        tournament="Spring Open",
        match=41,
        version=7,
        stage="knockout" if tiebreak else "league",
        round=2,
        table=5,
        team_a="Edison Aces",
        team_b="Queens Vattam",
        deals_scheduled=deals,
        tiebreak_deals=tiebreak,
    )


deal_lines = st.builds(
    workbook.DealLine,
    number=st.just(0),
    declarer=st.sampled_from("AB"),
    value=st.integers(28, 56),
    trump=st.sampled_from([t.value for t in Trump]),
    level=st.sampled_from([lv.value for lv in Level]),
    taken=st.integers(0, 56),
    award_to=st.sampled_from("AB"),
    award=st.integers(1, 7),
    total_a=st.integers(0, 99),
    total_b=st.integers(0, 99),
    made=st.booleans(),
    awarded_by=st.just(""),
    received_a=st.integers(0, 9),
    received_b=st.integers(0, 9),
)


@settings(max_examples=40, deadline=None)
@given(
    picked=st.lists(st.tuples(st.integers(1, 9), deal_lines), max_size=9),
    penalties=st.lists(
        st.builds(
            paper.PrintedPenalty,
            deal=st.integers(1, 9),
            offender=st.sampled_from("AB"),
            kind=st.sampled_from([k.value for k in PenaltyKind]),
            points=st.none() | st.integers(0, 2),
            note=st.text("abc xyz", max_size=12).map(lambda s: " ".join(s.split())),
        ),
        max_size=10,
    ),
)
def test_a_printed_sheet_reads_back_as_printed(picked, penalties):
    deals = {n: d for n, d in picked}
    printed = [
        workbook.DealLine(**{**d.__dict__, "number": n})
        for n, d in sorted(deals.items())
    ]
    content = paper.score_sheet_build([(_heading(9), printed, penalties)])
    (sheet,) = paper.score_sheets_read(content)
    assert (sheet.match, sheet.version) == (41, 7)
    assert [
        (d.number, d.declarer, d.value, d.trump, d.level, d.taken) for d in sheet.deals
    ] == [(d.number, d.declarer, d.value, d.trump, d.level, d.taken) for d in printed]
    assert [
        (p.deal, p.offender, p.kind, p.points, p.note) for p in sheet.penalties
    ] == [(p.deal, p.offender, p.kind, p.points, p.note) for p in penalties]


def test_a_knockout_sheet_has_the_tiebreak_rows_and_the_toss():
    content = paper.score_sheet_build([(_heading(6, tiebreak=3), [], [])])
    ws = load_workbook(io.BytesIO(content)).worksheets[0]
    assert ws.title == "K2 T5"
    assert ws["A6"].value == "Toss won by"
    numbers = [ws.cell(row=r, column=1).value for r in range(10, 19)]
    assert numbers == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    # Six deals are the last six: each is announced, and so is each tie-break deal.
    assert [ws.cell(row=r, column=13).value for r in (15, 16)] == [
        "announce totals",
        "tie-break only · announce totals",
    ]


@pytest.mark.parametrize(
    ("deals", "tiebreak", "announced"),
    [
        (18, 0, [6, 12, 13, 14, 15, 16, 17, 18]),
        (18, 3, [6, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]),
        (24, 3, [6, 12, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27]),
        (7, 0, [2, 3, 4, 5, 6, 7]),
        (None, 0, list(range(6, paper.TABLES_FORMAT_ROWS + 1, 6))),
    ],
)
def test_the_paper_sheet_marks_the_deals_after_which_totals_are_announced(
    deals, tiebreak, announced
):
    """000 §5.3: after every sixth deal and each of the last six, a thick line under
    the row and "announce totals" beside it, on the workbook as on paper."""
    content = paper.score_sheet_build([(_heading(deals, tiebreak=tiebreak), [], [])])
    ws = load_workbook(io.BytesIO(content)).worksheets[0]
    first = 10  # the row of deal 1
    rows = range(first, first + (deals or paper.TABLES_FORMAT_ROWS) + tiebreak)
    noted = [
        ws.cell(row=r, column=1).value
        for r in rows
        if "announce totals" in (ws.cell(row=r, column=13).value or "")
    ]
    thick = [
        ws.cell(row=r, column=1).value
        for r in rows
        if all(
            ws.cell(row=r, column=c).border.bottom.style == "medium"
            for c in range(1, len(paper.DEAL_HEADERS) + 1)
        )
    ]
    assert noted == thick == announced
    assert "announces both totals" in ws["A8"].value


def test_the_tables_format_gets_rows_to_fill():
    content = paper.score_sheet_build([(_heading(None), [], [])])
    ws = load_workbook(io.BytesIO(content)).worksheets[0]
    assert ws["E4"].value == "tables"
    assert ws.cell(row=10 + paper.TABLES_FORMAT_ROWS - 1, column=1).value == (
        paper.TABLES_FORMAT_ROWS
    )


@pytest.mark.parametrize(
    ("written", "trump", "level"),
    [
        (("♣", ""), "clubs", "none"),
        (("Diamonds", "x"), "diamonds", "doubled"),
        (("h", "XX"), "hearts", "redoubled"),
        (("spade", "Redouble"), "spades", "redoubled"),
        (("NT", "-"), "no_trump", "none"),
        (("Noes", None), "no_trump", "none"),
    ],
)
def test_what_scorers_write_is_understood(written, trump, level):
    content = paper.score_sheet_build([(_heading(1), [], [])])
    book = load_workbook(io.BytesIO(content))
    ws = book.worksheets[0]
    ws["B10"], ws["C10"], ws["D10"], ws["E10"], ws["F10"] = "team a", 30, *written, 30
    buffer = io.BytesIO()
    book.save(buffer)
    (sheet,) = paper.score_sheets_read(buffer.getvalue())
    (deal,) = sheet.deals
    assert (deal.declarer, deal.trump, deal.level) == ("A", trump, level)


def _saved(book: Workbook) -> bytes:
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def test_files_of_the_wrong_shape_are_refused_with_the_reason():
    with pytest.raises(paper.FileRefused, match="problem") as refused:
        paper.score_sheets_read(b"not a zip")
    assert "not an .xlsx workbook" in refused.value.problems[0].message

    with pytest.raises(paper.FileRefused) as refused:
        paper.score_sheets_read(_saved(Workbook()))
    assert "no score sheet in the file" in refused.value.problems[0].message

    book = load_workbook(
        io.BytesIO(paper.score_sheet_build([(_heading(), [], [])] * 2))
    )
    book.worksheets[0]["B2"] = "forty-one"
    with pytest.raises(paper.FileRefused) as refused:
        paper.score_sheets_read(_saved(book))
    assert [(p.worksheet, p.field) for p in refused.value.problems] == [
        ("R2 T5", "match")
    ]
    book.worksheets[0]["B2"] = 41
    with pytest.raises(paper.FileRefused) as refused:
        paper.score_sheets_read(_saved(book))
    assert "one sheet per match" in refused.value.problems[0].message


def test_a_table_sheet_is_a_spreadsheet_not_a_dump():
    sheet = workbook.TableSheet(
        "Standings",
        (
            workbook.Column("Team", 20),
            workbook.Column("R2", 8, "decimal"),
            workbook.Column("Final", 8, "yes_no"),
            workbook.Column("At", 16, "datetime"),
        ),
        iter([("Edison Aces", 12.5, True, datetime(2026, 4, 18, 9, 30))]),
        note="Provisional",
    )
    content = workbook.tournament_workbook_build(
        title="Spring Open", exported_at=datetime(2026, 4, 18, 20, 0), sheets=[sheet]
    )
    ws = load_workbook(io.BytesIO(content))["Standings"]
    assert ws["A1"].value == "Spring Open — Standings"
    assert ws["B2"].value == datetime(2026, 4, 18, 20, 0)
    assert ws["B2"].number_format == workbook.DATETIME_FORMAT
    assert ws["C2"].value == "Provisional"
    assert [c.value for c in ws[4]] == ["Team", "R2", "Final", "At"]
    assert [c.value for c in ws[5]] == [
        "Edison Aces",
        12.5,
        "yes",
        datetime(2026, 4, 18, 9, 30),
    ]
    assert ws["D5"].number_format == workbook.DATETIME_FORMAT
    assert ws.freeze_panes == "A5"
    assert 20 <= ws.column_dimensions["A"].width < 21  # and Excel's cell padding
    assert ws.auto_filter.ref == "A4:D5"
    assert ws.page_setup.paperSize == workbook.PAPER_A4


def test_every_code_the_workbook_writes_has_its_words():
    """Each value the rules name by code is written as words a person reads: none is
    left as its code, none is snake_case (docs/exports.md)."""
    from scoring.domain.rules import MatchStatus, Stage
    from scoring.domain.tiebreak import DecidedBy

    for kind, words in (
        (Stage, workbook.STAGE_WORDS),
        (MatchStatus, workbook.MATCH_STATUS_WORDS),
        (MatchStatus, workbook.BRACKET_STATUS_WORDS),
        (Trump, workbook.TRUMP_WORDS),
        (Level, workbook.LEVEL_WORDS),
        (PenaltyKind, workbook.PENALTY_WORDS),
        (DecidedBy, workbook.DECIDED_BY_WORDS),
    ):
        for code in kind:
            said = workbook.said(code, words)
            assert said != code.value and "_" not in said and said[0].isupper(), said
    for code in ("waiting", "decided", "bye", "place"):
        assert workbook.said(code, workbook.BRACKET_STATUS_WORDS)[0].isupper()
    # Paper keeps its key's notation, and reads it back as the code.
    assert [paper.TRUMP_NOTATION[t] for t in Trump] == ["C", "D", "H", "S", "NT"]
    assert paper.LEVEL_NOTATION == {"none": "", "doubled": "X", "redoubled": "XX"}
