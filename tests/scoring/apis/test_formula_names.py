"""Names and notes that read like formulas, registered and entered through the API,
come out of every workbook as text (OWASP "CSV injection") and go through the paper
sheet's round trip unchanged."""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from openpyxl import load_workbook

from scoring.sheets import services
from tests.conftest import as_user
from tests.scoring.excel import table, workbook
from tests.scoring.league import deals_for, enter

pytestmark = pytest.mark.django_db

LINK = '=HYPERLINK("http://x.example/","y")'


def _formula_cells(content: bytes) -> list[str]:
    """Every formula or error cell in the file's worksheets, by worksheet."""
    found = []
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                xml = archive.read(name).decode()
                if "<f>" in xml or "<f " in xml or re.search(r'<c [^>]*t="e"', xml):
                    found.append(name)
    return found


def _register(api, slug: str, name: str, captain: str, state: str, players) -> dict:
    answer = api.post(
        f"/api/v1/tournaments/{slug}/teams/",
        {
            "name": name,
            "captain": {
                "name": captain,
                "city": "-Edison",
                "state": state,
                "country": "USA",
            },
            "players": players,
        },
        "json",
    )
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_formula_names_are_text_in_the_workbook_and_the_paper_sheet(
    api, tournament, sections, organizer
):
    as_user(api, organizer)
    slug = tournament.slug
    home = _register(api, slug, LINK, "=1+1", "NJ", ["+91 cmd", "@SUM(A1)"])
    away = _register(api, slug, "#N/A", "-2+3", "IL", ["\t=2", "=cmd|' /C calc'!A0"])
    match = services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=home["id"],
        team_b=away["id"],
        round=1,
        table=1,
    )
    sheet = enter(api, match.pk, deals_for(3, 2))
    for note in ("=2+2", "-1 for noise", "@once\nand twice"):
        answer = api.post(
            f"/api/v1/matches/{match.pk}/penalties/",
            {
                "deal": 1,
                "offender": "B",
                "kind": "conduct",
                "points": 1,
                "note": note,
                "version": sheet["version"],
            },
            "json",
        )
        assert answer.status_code == 201, answer.json()
        sheet = answer.json()

    # The tournament workbook: no formula anywhere, every name as it was typed.
    answer = api.get(f"/api/v1/tournaments/{slug}/export.xlsx")
    assert answer.status_code == 200
    assert _formula_cells(answer.content) == []
    book = workbook(answer.content)
    teams = {row["Team"]: row for row in table(book, "Teams")}
    assert set(teams) == {LINK, "#N/A"}
    assert (teams[LINK]["Captain"], teams[LINK]["City"]) == ("=1+1", "-Edison")
    assert (teams[LINK]["Player 2"], teams[LINK]["Player 3"]) == ("+91 cmd", "@SUM(A1)")
    assert teams["#N/A"]["Captain"] == "-2+3"
    standings = {row["Team"] for row in table(book, "Standings")}
    assert standings == {LINK, "#N/A"}
    notes = [row["Note"] for row in table(book, "Score sheets") if row["Note"]]
    assert notes == ["=2+2", "-1 for noise", "@once\nand twice"]
    assert book["Teams"]["C5"].quotePrefix  # the captain "=1+1" stays text in Excel

    # The paper sheet: the teams as typed, and it imports back as no change at all.
    answer = api.get(f"/api/v1/matches/{match.pk}/sheet.xlsx")
    assert _formula_cells(answer.content) == []
    paper = load_workbook(io.BytesIO(answer.content))
    ws = paper.worksheets[0]
    assert (ws["B4"].value, ws["B5"].value) == (LINK, "#N/A")
    upload = io.BytesIO(answer.content)
    upload.name = "table-1.xlsx"
    imported = api.post(
        f"/api/v1/tournaments/{slug}/score-sheets/import/",
        {"file": upload},
        format="multipart",
    )
    assert imported.status_code == 200, imported.json()
    assert imported.json()["sheets"][0]["unchanged"] is True
    after = api.get(f"/api/v1/matches/{match.pk}/").json()
    assert after["version"] == sheet["version"]
    assert [p["note"] for p in after["penalties"]] == [
        "=2+2",
        "-1 for noise",
        "@once\nand twice",
    ]
