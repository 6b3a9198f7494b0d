"""The team list import: a good file, bad rows, all-or-nothing, the template."""

import io

import pytest
from openpyxl import load_workbook

from tests.conftest import as_user
from tests.spreadsheets import HEADER
from tests.spreadsheets import team_list_xlsx as xlsx
from tournament.models import Player, Team

pytestmark = pytest.mark.django_db
URL = "/api/v1/tournaments/spring-open/teams/import/"
GOOD = [
    ["Edison Aces", "Jose Kurian", "Edison", "nj", "USA", "Anil", "Biju"],
    [
        "Windy Jacks",
        "Tomy George",
        "Chicago",
        "IL",
        "United States",
        "Cherian",
        "Daniel",
    ],
    [None, None, None, None, None, None, None],  # blank rows are skipped
    ["Kochi Nines", "Babu Nair", "Kochi", None, "India", "Eapen", "Francis"],
]


def test_a_good_file_registers_every_team(api, organizer, sections):
    response = as_user(api, organizer).post(
        URL, {"file": xlsx(GOOD)}, format="multipart"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["created"], body["errors"]) == (3, [])
    placed = {t["name"]: (t["section_name"], t["placement"]) for t in body["teams"]}
    assert placed == {
        "Edison Aces": ("Tri-State", "state"),
        "Windy Jacks": ("Chicago", "city"),
        "Kochi Nines": ("International", "international"),
    }
    assert Player.objects.filter(team__name="Windy Jacks").count() == 3


def test_columns_in_any_order_under_a_title_row(api, organizer, sections):
    header = ["Country", "State", "City", "Captain", "Team", "Player 3", "Player 2"]
    rows = [[r[4], r[3], r[2], r[1], r[0], r[6], r[5]] for r in GOOD if r[0]]
    response = as_user(api, organizer).post(
        URL,
        {"file": xlsx(rows, header=header, title="Spring Open teams")},
        format="multipart",
    )
    assert response.status_code == 201
    assert Team.objects.get(name="Edison Aces").players.last().name == "Biju"


def test_one_bad_row_creates_nothing_and_every_bad_row_is_reported(
    api, organizer, sections
):
    rows = [
        GOOD[0],
        ["Denver Deuces", "Saji Paul", "Denver", "CO", "USA", "Gopan", "Hari"],  # row 3
        ["", "Roy Mani", "Edison", "NJ", "USA", "Issac", "Johny"],  # row 4
        [
            "Edison ACES",
            "Lal Jose",
            "Newark",
            "NJ",
            "USA",
            "Kochu",
            "Mani",
        ],  # row 5: dup
        ["Short Team", "Ninan O", "Austin", "ZZ", "USA", "Oommen", None],  # row 6
    ]
    response = as_user(api, organizer).post(
        URL, {"file": xlsx(rows)}, format="multipart"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["created"] == 0
    by_row = {}
    for problem in body["errors"]:
        by_row.setdefault(problem["row"], []).append(
            (problem["field"], problem["message"])
        )
    assert sorted(by_row) == [3, 4, 5, 6]
    assert any("Denver, CO" in m for f, m in by_row[3] if f == "captain.state")
    assert ("name", "a team needs a name") in by_row[4]
    assert any("registered already" in m for _, m in by_row[5])
    assert {f for f, _ in by_row[6]} == {"captain.state", "players"}
    # Each problem also names the column as the template shows it.
    columns = {(p["row"], p["field"]): p["column"] for p in body["errors"]}
    assert columns[(3, "captain.state")] == "State"
    assert columns[(4, "name")] == "Team"
    assert columns[(6, "players")] == "Player 2, Player 3"
    assert body["detail"] == "4 rows are wrong; no team was created"
    assert not Team.objects.exists()
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (io.BytesIO(b"Team,Captain\nA,B\n"), "not an .xlsx workbook"),
        (xlsx([["x"]], header=["Name", "Leader"]), "no header row"),
        (
            xlsx([["A", "B"]], header=["Team", "Captain"]),
            "lacks the columns City, State",
        ),
        (xlsx([]), "no teams below its header"),
    ],
)
def test_a_file_of_the_wrong_shape_is_refused(api, organizer, sections, content, words):
    content.name = "teams.xlsx"
    response = as_user(api, organizer).post(URL, {"file": content}, format="multipart")
    assert response.status_code == 400
    assert words in response.json()["file"][0]
    assert not Team.objects.exists()


def test_no_file(api, organizer, sections):
    response = as_user(api, organizer).post(URL, {}, format="multipart")
    assert response.status_code == 400
    assert "file" in response.json()


def test_the_template_filled_in_imports(api, organizer, sections):
    as_user(api, organizer)
    response = api.get(URL + "template.xlsx")
    assert response.status_code == 200
    workbook = load_workbook(io.BytesIO(response.content))
    sheet = workbook["Teams"]
    assert [c.value for c in sheet[1]] == HEADER
    sheet.append(GOOD[0])
    buffer = io.BytesIO()
    workbook.save(buffer)
    buffer.seek(0)
    buffer.name = "filled.xlsx"
    response = api.post(URL, {"file": buffer}, format="multipart")
    assert response.status_code == 201
    assert response.json()["created"] == 1


def test_only_organizers_import(api, scorer, captain, sections):
    for user in (scorer, captain):
        response = as_user(api, user).post(
            URL, {"file": xlsx(GOOD)}, format="multipart"
        )
        assert response.status_code == 403
    api.force_authenticate(None)
    assert api.post(URL, {"file": xlsx(GOOD)}, format="multipart").status_code == 401
    assert Team.objects.filter(name="Kochi Nines").count() == 0
