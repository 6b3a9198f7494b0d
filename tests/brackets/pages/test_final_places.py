"""Final places (RULES.md §6): the bracket API's `places`, the bracket page's Final
places, the champion on the Overview and the home page, and the knockout form's
qualifiers when withdrawn teams cannot play; in English and Malayalam."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.brackets.knockout import bracket, final_league, matches_of, play_sheet
from tests.conftest import as_user
from tests.scoring.league import confirm

pytestmark = pytest.mark.django_db

SLUG = "places-cup"


def _withdrawn_second(api) -> tuple[list[dict], int]:
    rows = api.get(f"/api/v1/tournaments/{SLUG}/standings/").json()["rows"]
    second = rows[1]["team"]
    answer = api.post(
        f"/api/v1/tournaments/{SLUG}/teams/{second}/withdraw/",
        {"from_round": 3, "reason": "flight home"},
        "json",
    )
    assert answer.status_code == 200, answer.json()
    return rows, second


def _play_out(api) -> None:
    """Side A wins every match, the final in two games."""
    for _ in range(10):
        data = bracket(api, SLUG)
        if data["champion"]:
            return
        for m in matches_of(data).values():
            if m["status"] == "scheduled":
                play_sheet(api, m["match"], 14, 10, m["deals_scheduled"])
                confirm(api, m["match"])
    raise AssertionError("the knockout did not end")


@pytest.fixture
def finished(api):
    """Six teams, the league's second withdrawn, four qualifiers, played out."""
    tournament, organizer = final_league(2, 3, qualifiers=4, slug=SLUG)
    as_user(api, organizer)
    rows, withdrawn = _withdrawn_second(api)
    seeded = api.post(f"/api/v1/tournaments/{SLUG}/knockout/", {}, "json")
    assert seeded.status_code == 201, seeded.json()
    assert bracket(api, SLUG)["places"] is None  # not before the final is decided
    _play_out(api)
    return tournament, organizer, rows, withdrawn


def test_the_api_gives_every_teams_final_place_once_the_final_is_decided(api, finished):
    _tournament, _, rows, withdrawn = finished
    data = bracket(api, SLUG)
    places = data["places"]
    rank = {row["team"]: row["rank"] for row in rows}
    assert [p["final_place"] for p in places] == [1, 2, 3, 4, 5, 6]
    assert places[0]["team"] == data["champion"]["team"]
    assert places[1]["team"] == data["runner_up"]["team"]
    assert places[2]["team"] == data["second_runner_up"]["team"]
    assert places[3]["team"] == data["third_runner_up"]["team"]
    seeded = {s["team"] for s in data["seeds"]}
    # The one that did not qualify after the qualifiers; the withdrawn team last,
    # though its league rank (2) is better.
    (left_out,) = {r["team"] for r in rows} - seeded - {withdrawn}
    assert [p["team"] for p in places[4:]] == [left_out, withdrawn]
    assert all(p["league_rank"] == rank[p["team"]] for p in places)
    assert places[5]["league_rank"] == 2
    assert {p["team_name"] for p in places} == {r["team_name"] for r in rows}


@pytest.mark.parametrize(
    ("language", "heading", "champion"),
    [("en", "Final places", "Champion: "), ("ml", "അന്തിമ സ്ഥാനങ്ങൾ", "ചാമ്പ്യൻ: ")],
)
def test_the_pages_show_the_final_places_and_name_the_champion(
    api, finished, language, heading, champion
):
    _tournament, _, _rows, _withdrawn = finished
    data = bracket(api, SLUG)
    name = data["champion"]["name"]
    client = Client()
    client.cookies["django_language"] = language
    page = client.get(f"/t/{SLUG}/bracket/").content.decode()
    assert heading in page
    table = page.split('id="final-places"', 1)[1].split("</table>")[0]
    cells = [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>.*?</td>", r)]
        for r in re.findall(r"<tr>(.*?)</tr>", table, re.S)
        if "<td" in r
    ]
    by_team = {p["team_name"]: p for p in data["places"]}
    assert [c[1] for c in cells] == [p["team_name"] for p in data["places"]]
    for place, team, league_rank in cells:
        assert int(place) == by_team[team]["final_place"]
        assert int(league_rank) == by_team[team]["league_rank"]
    overview = client.get(f"/t/{SLUG}/").content.decode()
    assert f"{champion}{name}" in overview
    home = client.get("/").content.decode()
    assert f"{champion}{name}" in home


def test_the_home_page_names_champions_in_one_query_more(api, finished):
    client = Client()
    with CaptureQueriesContext(connection) as with_champion:
        assert client.get("/").status_code == 200
    # The home page asks the bracket once, whatever the number of tournaments.
    final_queries = [
        q["sql"] for q in with_champion.captured_queries if "brackets_" in q["sql"]
    ]
    assert len(final_queries) == 1


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "Only 5 teams can play on"), ("ml", "5 ടീമുകൾക്ക് മാത്രമേ")],
)
def test_the_knockout_form_offers_as_many_qualifiers_as_can_play(api, language, said):
    _tournament, organizer = final_league(2, 3, qualifiers=6, slug=SLUG)
    as_user(api, organizer)
    _withdrawn_second(api)
    client = Client()
    client.force_login(organizer)
    client.cookies["django_language"] = language
    page = client.get(f"/t/{SLUG}/bracket/").content.decode()
    field = re.search(r'<input[^>]*name="qualifiers"[^>]*>', page).group(0)
    assert 'value="5"' in field
    assert said in page


def test_the_workbook_gives_the_final_places_and_the_tosss_teams_by_name(api, finished):
    from scoring.models import Match
    from tests.scoring.excel import table, workbook

    data = bracket(api, SLUG)
    semi = next(m for m in matches_of(data).values() if m["stage"] == "semi_final")
    Match.objects.filter(pk=semi["match"]).update(toss_winner="B", first_dealer="A")
    book = workbook(api.get(f"/api/v1/tournaments/{SLUG}/export.xlsx").content)
    assert [
        (r["Place"], r["Team"], r["League rank"]) for r in table(book, "Final places")
    ] == [(p["final_place"], p["team_name"], p["league_rank"]) for p in data["places"]]
    row = next(r for r in table(book, "Bracket") if r["Match"] == semi["number"])
    assert (row["Toss won by"], row["First dealer"]) == (
        semi["team_b_name"],
        semi["team_a_name"],
    )
    note = book["Statistics"]["C2"].value
    assert "docs/" not in note and "starts at 1000" in note
    # The podium is the Bracket sheet's note, not rows inside its table's filter
    # that borrow the matches' columns (issue 52's walk).
    bracket_rows = table(book, "Bracket")
    assert all(r["Match"] is not None for r in bracket_rows)
    ws = book["Bracket"]
    assert ws.auto_filter.ref.endswith(str(ws.max_row))
    assert f"Champion: {data['champion']['name']}" in ws["C2"].value


@pytest.mark.parametrize(
    ("language", "label", "final"),
    [("en", "Knockout round", "Final"), ("ml", "നോക്കൗട്ട് റൗണ്ട്", None)],
)
def test_the_excel_tab_offers_paper_sheets_of_the_knockout_rounds(
    api, finished, language, label, final
):
    _, organizer, _, _ = finished
    client = Client()
    client.force_login(organizer)
    client.cookies["django_language"] = language
    page = client.get(f"/t/{SLUG}/excel/").content.decode()
    assert label in page
    form = page.split('name="stage" value="knockout"', 1)[1].split("</form>")[0]
    assert re.findall(r'<option value="(\d+)">', form) == ["1", "2"]
    if final:
        assert "Semi-finals" in form and final in form
    printed = client.get(f"/t/{SLUG}/print/?round=2&stage=knockout")
    assert printed.status_code == 200
    sheets = api.get(
        f"/api/v1/tournaments/{SLUG}/score-sheets.xlsx?round=2&stage=knockout"
    )
    assert sheets.status_code == 200
