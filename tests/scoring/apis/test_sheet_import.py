"""Paper score sheets: the .xlsx of a match, filled and imported back (organizers),
all or nothing, every bad row named, and the history saying it came from a file."""

from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook

from scoring.domain.rules import Stage
from scoring.models import Match, SheetChange
from scoring.sheets import services
from tests.brackets.knockout import final_league
from tests.conftest import as_user
from tests.factories import TeamFactory, member
from tests.scoring.league import confirm, deals_for, enter
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db
SLUG = "paper-cup"
IMPORT = f"/api/v1/tournaments/{SLUG}/score-sheets/import/"
SHEET_KEYS = ("number", "declarer", "value", "trump", "level", "taken", "award_to")


@pytest.fixture
def league(api):
    tournament, organizer = final_league(2, 3, qualifiers=4, slug=SLUG)
    as_user(api, organizer)
    return tournament, organizer


def _empty_match(tournament, organizer, *, stage=Stage.LEAGUE, deals=6) -> Match:
    """A match set up by hand between two new teams, in round 1 (league) or 9."""
    one, two = tournament.sections.order_by("pk")[:2]
    round = 1 if stage == Stage.LEAGUE else 9
    return services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=TeamFactory(section=one).pk,
        team_b=TeamFactory(section=two).pk,
        round=round,
        table=Match.objects.filter(tournament=tournament, round=round).count() + 1,
        stage=stage,
        deals_scheduled=deals,
    )


def _download(api, match_id: int):
    answer = api.get(f"/api/v1/matches/{match_id}/sheet.xlsx")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/vnd.openxmlformats")
    return load_workbook(io.BytesIO(answer.content))


def _upload(api, book, name="table-1.xlsx"):
    buffer = io.BytesIO()
    book.save(buffer)
    buffer.seek(0)
    buffer.name = name
    return api.post(IMPORT, {"file": buffer}, format="multipart")


def _rows(ws, header: str) -> int:
    """The first row below the header row whose column A says `header`... and B."""
    for row in ws.iter_rows(min_col=1, max_col=2):
        if row[0].value == "Deal" and row[1].value == header:
            return row[0].row + 1
    raise AssertionError(f"no {header} table")


def _sheet(api, match_id: int) -> dict:
    return api.get(f"/api/v1/matches/{match_id}/").json()


def _same(a: dict, b: dict) -> None:
    assert [tuple(d[k] for k in (*SHEET_KEYS, "award")) for d in a["deals"]] == [
        tuple(d[k] for k in (*SHEET_KEYS, "award")) for d in b["deals"]
    ]
    assert [
        (p["deal"], p["offender"], p["kind"], p["points"]) for p in a["penalties"]
    ] == [(p["deal"], p["offender"], p["kind"], p["points"]) for p in b["penalties"]]
    for key in ("total_a", "total_b", "status", "winner", "tiebreak"):
        assert a[key] == b[key], key


def test_the_paper_sheet_is_prefilled_with_the_match(api, league):
    tournament, organizer = league
    match = _empty_match(tournament, organizer)
    ws = _download(api, match.pk).worksheets[0]
    assert ws["A1"].value == f"{tournament.name} — score sheet"
    assert (ws["A2"].value, ws["B2"].value) == ("Match id", match.pk)
    assert (ws["D2"].value, ws["E2"].value) == ("Version", match.version)
    assert (ws["B4"].value, ws["B5"].value) == (match.team_a.name, match.team_b.name)
    assert (ws["E3"].value, ws["H3"].value) == (1, match.table)
    first = _rows(ws, "Declarer")
    assert [ws.cell(first + n, 1).value for n in range(6)] == [1, 2, 3, 4, 5, 6]
    assert ws.cell(first + 6, 1).value is None  # six deals scheduled, six rows
    assert ws.print_title_rows == "$9:$9"
    assert ws.page_setup.orientation == "portrait"
    assert len(ws.data_validations.dataValidation) == 5


def test_export_then_import_gives_the_same_sheet(api, league):
    """A played sheet with penalties, downloaded, pointed at an empty match and
    imported: the new sheet is the same deal for deal, penalty for penalty."""
    tournament, organizer = league
    played = _empty_match(tournament, organizer)
    sheet = enter(api, played.pk, deals_for(7, 5, 5))
    for body in (
        {"deal": 1, "offender": "A", "kind": "out_of_turn"},
        {"deal": 2, "offender": "A", "kind": "out_of_turn"},
        {"deal": 3, "offender": "B", "kind": "kallakali"},
        {"deal": 4, "offender": "B", "kind": "conduct", "points": 1, "note": "noise"},
    ):
        sheet = api.post(
            f"/api/v1/matches/{played.pk}/penalties/",
            {**body, "version": sheet["version"]},
            "json",
        ).json()
    enter(api, played.pk, deals_for(0, 2), first=6)
    book = _download(api, played.pk)
    empty = _empty_match(tournament, organizer)
    ws = book.worksheets[0]
    ws["B2"], ws["E2"] = empty.pk, empty.version
    answer = _upload(api, book)
    assert answer.status_code == 200, answer.json()
    (done,) = answer.json()["sheets"]
    assert (done["match"], done["added"], done["penalties_added"]) == (empty.pk, 6, 4)
    _same(_sheet(api, empty.pk), _sheet(api, played.pk))

    # The history says where each change came from; importing again changes nothing.
    changes = SheetChange.objects.filter(match=empty).exclude(action="match_create")
    assert {c.source for c in changes} == {"file"}
    first = changes.order_by("pk").first()
    assert first.reason == f"Imported from table-1.xlsx, worksheet {ws.title}, row 10"
    shown = api.get(f"/api/v1/matches/{empty.pk}/history/").json()
    assert shown["results"][-1]["source"] == "file"
    ws["E2"] = _sheet(api, empty.pk)["version"]
    again = _upload(api, book)
    assert again.json()["sheets"][0]["unchanged"] is True


def test_a_sheet_filled_by_hand_is_read_as_a_scorer_writes_it(api, league):
    tournament, organizer = league
    match = _empty_match(tournament, organizer, deals=2)
    book = _download(api, match.pk)
    ws = book.worksheets[0]
    first = _rows(ws, "Declarer")
    for col, value in zip("BCDEF", ("a", "40", "♠", "X", 45), strict=True):
        ws[f"{col}{first}"] = value
    for col, value in zip("BCDEF", ("Team B", 28.0, "NT", None, 10), strict=True):
        ws[f"{col}{first + 1}"] = value
    pen = _rows(ws, "Offender")
    ws[f"A{pen}"], ws[f"B{pen}"], ws[f"C{pen}"] = 1, "b", "Out of turn"
    answer = _upload(api, book)
    assert answer.status_code == 200, answer.json()
    sheet = _sheet(api, match.pk)
    assert [
        (d["declarer"], d["value"], d["trump"], d["level"], d["taken"])
        for d in sheet["deals"]
    ] == [("A", 40, "spades", "doubled", 45), ("B", 28, "no_trump", "none", 10)]
    assert [(p["offender"], p["kind"], p["warning"]) for p in sheet["penalties"]] == [
        ("B", "out_of_turn", True)
    ]


def test_every_bad_row_is_named_and_nothing_is_saved(api, league):
    tournament, organizer = league
    match = _empty_match(tournament, organizer)
    other = _empty_match(tournament, organizer)
    book = _download(api, match.pk)
    ws = book.worksheets[0]
    first = _rows(ws, "Declarer")
    good = ("A", 40, "S", None, 45)
    rows = {
        0: good,
        1: ("C", 40, "S", None, 45),  # no such team
        2: ("A", 60, "S", None, 45),  # no such contract
        3: ("A", 40, "S", None, 70),  # more than the deal holds
        4: ("A", 40, "rainbow", "triple", 10),  # two wrong fields
    }
    for offset, values in rows.items():
        for col, value in zip("BCDEF", values, strict=True):
            ws[f"{col}{first + offset}"] = value
    ws[f"A{first + 5}"] = 1  # deal 1 again
    for col, value in zip("BCDEF", good, strict=True):
        ws[f"{col}{first + 5}"] = value
    pen = _rows(ws, "Offender")
    ws[f"A{pen}"], ws[f"B{pen}"], ws[f"C{pen}"] = 9, "A", "kallakali"
    ws[f"A{pen + 1}"], ws[f"B{pen + 1}"], ws[f"C{pen + 1}"] = 1, "A", "cheating"
    second = _download(api, other.pk).worksheets[0]
    extra = book.create_sheet("Other")
    for row in second.iter_rows(values_only=True):
        extra.append(row)
    extra["B2"] = 999999  # not a match of this tournament

    answer = _upload(api, book)
    assert answer.status_code == 400
    body = answer.json()
    assert body["detail"].startswith("Nothing was imported")
    found = {(e["worksheet"], e["row"], e["field"]) for e in body["errors"]}
    title = ws.title
    assert found == {
        (title, first + 1, "declarer"),
        (title, first + 2, "value"),
        (title, first + 3, "taken"),
        (title, first + 4, "trump"),
        (title, first + 4, "level"),
        (title, first + 5, "number"),
        (title, pen, "deal"),
        (title, pen + 1, "kind"),
        ("Other", None, "match"),
    }
    messages = " ".join(e["message"] for e in body["errors"])
    assert "a contract is 28 to 56" in messages
    assert "deal 1 is also on row" in messages
    assert "not a match of" in messages
    assert _sheet(api, match.pk)["deals"] == []
    assert _sheet(api, match.pk)["version"] == match.version


def test_a_sheet_that_moved_on_is_not_overwritten(api, league):
    tournament, organizer = league
    match = _empty_match(tournament, organizer)
    book = _download(api, match.pk)
    enter(api, match.pk, deals_for(1, 0))  # someone entered deal 1 meanwhile
    ws = book.worksheets[0]
    first = _rows(ws, "Declarer")
    for col, value in zip("BCDEF", ("B", 40, "H", None, 45), strict=True):
        ws[f"{col}{first}"] = value
    answer = _upload(api, book)
    assert answer.status_code == 400
    (error,) = answer.json()["errors"]
    assert error["field"] == "version"
    assert "the sheet changed since this file was made" in error["message"]
    assert _sheet(api, match.pk)["deals"][0]["declarer"] == "A"


def test_a_confirmed_sheet_is_changed_only_after_a_reopening(api, league):
    tournament, organizer = league
    match = _empty_match(tournament, organizer, deals=1)
    enter(api, match.pk, deals_for(1, 0))
    confirm(api, match.pk)
    book = _download(api, match.pk)
    assert _upload(api, book).status_code == 200  # as it is: nothing to change
    ws = book.worksheets[0]
    ws[f"B{_rows(ws, 'Declarer')}"] = "B"
    answer = _upload(api, book)
    assert answer.status_code == 400
    assert "reopens it first" in answer.json()["errors"][0]["message"]


def test_a_knockout_sheet_with_its_toss_goes_out_and_back(api, league):
    tournament, organizer = league
    played = _empty_match(tournament, organizer, stage=Stage.KNOCKOUT, deals=2)
    enter(api, played.pk, deals_for(1, 1))
    sheet = enter(api, played.pk, deals_for(1, 1), first=3)
    sheet = api.post(
        f"/api/v1/matches/{played.pk}/toss/",
        {"winner": "B", "first_dealer": "A", "version": sheet["version"]},
        "json",
    ).json()
    enter(api, played.pk, deals_for(0, 1), first=5)
    book = _download(api, played.pk)
    ws = book.worksheets[0]
    assert (ws["B6"].value, ws["E6"].value) == ("B", "A")
    empty = _empty_match(tournament, organizer, stage=Stage.KNOCKOUT, deals=2)
    ws["B2"], ws["E2"] = empty.pk, empty.version
    answer = _upload(api, book)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["sheets"][0]["toss"] is True
    imported = _sheet(api, empty.pk)
    _same(imported, _sheet(api, played.pk))
    assert imported["tiebreak"]["decided_by"] == "sudden_death"


def test_only_an_organizer_imports(api, league):
    tournament, organizer = league
    match = _empty_match(tournament, organizer, deals=1)
    book = _download(api, match.pk)
    as_user(api, member(tournament, Role.SCORER))
    assert _upload(api, book).status_code == 403
    api.force_authenticate(user=None)
    assert _upload(api, book).status_code in (401, 403)


def test_a_file_that_is_not_a_score_sheet_is_refused(api, league):
    answer = api.post(
        IMPORT,
        {"file": io.BytesIO(b"deal,declarer\n1,A\n")},
        format="multipart",
    )
    assert answer.status_code == 400
    assert "not an .xlsx workbook" in answer.json()["errors"][0]["message"]


def test_a_round_prints_as_one_workbook_of_its_tables(api, league):
    tournament, _ = league
    answer = api.get(f"/api/v1/tournaments/{SLUG}/score-sheets.xlsx?round=2")
    assert answer.status_code == 200
    book = load_workbook(io.BytesIO(answer.content))
    tables = Match.objects.filter(tournament=tournament, round=2, stage="league")
    assert book.sheetnames == [f"R2 T{m.table}" for m in tables.order_by("table")]
    assert (
        api.get(f"/api/v1/tournaments/{SLUG}/score-sheets.xlsx?round=7").status_code
        == 404
    )
    bad = api.get(f"/api/v1/tournaments/{SLUG}/score-sheets.xlsx?round=x")
    assert bad.status_code == 400
    assert "round" in bad.json()
