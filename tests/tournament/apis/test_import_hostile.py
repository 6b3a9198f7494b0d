"""Hostile files sent to both imports (a team list, filled score sheets), through the
API and the pages as an organizer sends them: each refused with a 400 that names the
limit in words, nothing written, and the bombs refused without unpacking them (the
process grows by far less than 50 MB; how long it takes is bench/uploads.py's)."""

import io
import tracemalloc

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from scoring.models import Match, SheetChange
from tests import hostile_xlsx as hostile
from tests.brackets.knockout import final_league
from tests.conftest import as_user
from tests.spreadsheets import team_list_xlsx
from tournament.models import Player, Team
from tournament.xlsx.read import MB

pytestmark = pytest.mark.django_db
TEAMS = "/api/v1/tournaments/spring-open/teams/import/"
SLUG = "hostile-cup"
SHEETS = f"/api/v1/tournaments/{SLUG}/score-sheets/import/"

CASES = [
    (hostile.strings_bomb, "the file unpacks to more than 48 MB"),
    (hostile.many_strings_bomb, "the file unpacks to more than 48 MB"),
    (hostile.limit_bomb, "the file unpacks to more than 48 MB"),
    (hostile.dimension_bomb, "declares 1,048,576 rows and 16,384 columns"),
    (hostile.empty_rows_bomb, "goes on past row 10,000 (blank rows count)"),
    (hostile.wide_row, "reaches past column 100"),
    (hostile.long_cell, "holds more than 32,767 characters"),
    (hostile.deep_xml, "nests deeper than 64 levels"),
    (hostile.external_entity, "declares a DTD or entities"),
    (hostile.laughs, "declares a DTD or entities"),
    (hostile.lying_size, "the file is damaged"),
    (hostile.many_parts, "more than 2,000 parts"),
    (hostile.many_worksheets, "more than 500 worksheets"),
]


def _file(content: bytes, name: str = "teams.xlsx") -> io.BytesIO:
    upload = io.BytesIO(content)
    upload.name = name
    return upload


def _post_measured(api, url: str, content: bytes):
    """The answer, and how far the process's Python heap grew while answering."""
    upload = _file(content)
    tracemalloc.start()
    answer = api.post(url, {"file": upload}, format="multipart")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return answer, peak


@pytest.mark.parametrize(("build", "words"), CASES, ids=[c[0].__name__ for c in CASES])
def test_a_hostile_team_list_is_refused_and_nothing_is_written(
    api, organizer, sections, build, words
):
    content = build()
    answer, peak = _post_measured(as_user(api, organizer), TEAMS, content)
    assert answer.status_code == 400, answer.content[:300]
    assert words in answer.json()["file"][0]
    assert not Team.objects.exists() and not Player.objects.exists()
    # The upload itself (up to 5 MB) is in memory twice at most; nothing unpacked.
    assert peak < 3 * len(content) + 20 * MB


def test_a_team_list_over_the_upload_limit_is_refused_by_its_size(
    api, organizer, sections
):
    # Just over 5 MB: within what the API receives, refused by the import's limit.
    content = hostile.long_cell(6_935_000)  # hardly compressible: 5 MB and 15 KB
    assert 5 * MB < len(content) < 5 * MB + 32 * 1024, len(content)
    answer, _peak = _post_measured(as_user(api, organizer), TEAMS, content)
    assert answer.status_code == 400
    assert answer.json()["file"] == ["the file is larger than 5 MB"]
    # Far over it: refused before the body is read (tournament/web/errors.py).
    content = hostile.long_cell(7 * MB)
    answer, _peak = _post_measured(as_user(api, organizer), TEAMS, content)
    assert answer.status_code == 413
    assert "the most an upload may be" in answer.json()["detail"]
    assert not Team.objects.exists()


@override_settings(XLSX_IMPORT_LIMITS={"rows": 3})
def test_the_limits_are_settings(api, organizer, sections):
    rows = [[f"Team {n}", "Jose", "Edison", "NJ", "USA"] for n in range(4)]
    answer = as_user(api, organizer).post(
        TEAMS,
        {"file": _file(team_list_xlsx(rows).getvalue())},
        format="multipart",
    )
    assert answer.status_code == 400
    assert "declares 5 rows" in answer.json()["file"][0]
    assert "at most 3 rows" in answer.json()["file"][0]


@pytest.fixture
def league(api):
    tournament, organizer = final_league(2, 3, qualifiers=4, slug=SLUG)
    as_user(api, organizer)
    return tournament, organizer


def _sheets_state():
    return (
        list(Match.objects.order_by("pk").values_list("pk", "version", "status")),
        SheetChange.objects.count(),
    )


@pytest.mark.parametrize(("build", "words"), CASES, ids=[c[0].__name__ for c in CASES])
def test_a_hostile_score_sheet_file_is_refused_and_nothing_is_written(
    api, league, build, words
):
    before = _sheets_state()
    content = build()
    answer, peak = _post_measured(api, SHEETS, content)
    assert answer.status_code == 400, answer.content[:300]
    (problem,) = answer.json()["errors"]
    assert problem["field"] == "file" and words in problem["message"]
    assert _sheets_state() == before
    assert peak < 3 * len(content) + 20 * MB


def test_the_pages_refuse_a_bomb_with_the_limit_in_words(organizer, sections, league):
    desk = Client()
    desk.force_login(organizer)
    page = desk.post(
        "/t/spring-open/registration/",
        {"action": "import", "import-file": _file(hostile.limit_bomb())},
    )
    assert page.status_code == 400
    assert "the file unpacks to more than 48 MB" in page.content.decode()
    assert not Team.objects.filter(tournament__slug="spring-open").exists()

    _tournament, league_organizer = league
    excel = Client()
    excel.force_login(league_organizer)
    before = _sheets_state()
    page = excel.post(
        reverse("scoring:excel", args=[SLUG]),
        {"action": "import", "file": _file(hostile.strings_bomb(), "round.xlsx")},
    )
    assert page.status_code == 400
    assert "the file unpacks to more than 48 MB" in page.content.decode()
    assert _sheets_state() == before
