"""A winner moves on only when its sheet is confirmed; reopening a sheet whose
result already plays on needs a reset, which voids the later sheets and keeps them
(rules.md §6, docs/knockout.md)."""

import pytest

from scoring.models import Match
from tests.brackets.knockout import bracket, final_league, matches_of, play_sheet
from tests.conftest import as_user
from tests.scoring.league import confirm, deals_for

pytestmark = pytest.mark.django_db

SLUG = "four-cup"
SHORT = {"semi_final": 4, "second_runner_up": 4, "final": 4}


@pytest.fixture
def knockout(api, db):
    tournament, organizer = final_league(2, 4, qualifiers=4, slug=SLUG)
    as_user(api, organizer)
    answer = api.post(f"/api/v1/tournaments/{SLUG}/knockout/", {"deals": SHORT}, "json")
    assert answer.status_code == 201, answer.json()
    semis = answer.json()["rounds"][0]["matches"]
    assert [(m["seed_a"], m["seed_b"]) for m in semis] == [(1, 4), (2, 3)]
    return tournament, semis


def _reopen(api, sheet_id, **extra):
    url = f"/api/v1/matches/{sheet_id}/"
    version = api.get(url).json()["version"]
    body = {"reason": "deal 2 was entered for the wrong team", "version": version}
    return api.post(url + "reopen/", body | extra, "json")


def test_a_winner_moves_on_only_when_the_sheet_is_confirmed(api, knockout):
    _, semis = knockout
    sheet = play_sheet(api, semis[0]["match"], 4, 2, 4)
    assert sheet["status"] == "completed"
    final = matches_of(bracket(api, SLUG))[4]
    assert (final["kind"], final["team_a"]) == ("final", None)
    confirm(api, semis[0]["match"])
    data = matches_of(bracket(api, SLUG))
    assert data[4]["team_a"] == semis[0]["team_a"]  # the winner, to the final
    assert data[3]["team_a"] == semis[0]["team_b"]  # the loser, to second runner-up
    assert data[4]["match"] is None  # the other semi-final is not decided


def test_reopening_before_the_next_sheet_exists_empties_the_place(api, knockout):
    _, semis = knockout
    play_sheet(api, semis[0]["match"], 4, 2, 4)
    confirm(api, semis[0]["match"])
    answer = _reopen(api, semis[0]["match"])
    assert answer.status_code == 200, answer.json()
    data = matches_of(bracket(api, SLUG))
    assert (data[4]["team_a"], data[3]["team_a"]) == (None, None)
    assert data[1]["winner"] is None


def test_reopening_when_the_result_plays_on_needs_a_reset(api, knockout):
    _tournament, semis = knockout
    for semi in semis:
        play_sheet(api, semi["match"], 4, 2, 4)
        confirm(api, semi["match"])
    data = matches_of(bracket(api, SLUG))
    final_sheet, third_sheet = data[4]["match"], data[3]["match"]
    assert final_sheet and third_sheet
    play_sheet(api, final_sheet, 1, 0, None)

    refused = _reopen(api, semis[1]["match"])
    assert refused.status_code == 409
    assert refused.json()["code"] == "winner_moved_on"
    assert refused.json()["sheets"] == [third_sheet, final_sheet]
    assert "Reopen with reset_next to void that sheet" in refused.json()["detail"]
    assert Match.objects.get(pk=semis[1]["match"]).status == "confirmed"
    assert Match.objects.get(pk=final_sheet).status == "in_progress"

    answer = _reopen(api, semis[1]["match"], reset_next=True)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == "completed"
    for voided in (final_sheet, third_sheet):
        assert Match.objects.get(pk=voided).status == "void"
    history = api.get(f"/api/v1/matches/{final_sheet}/history/").json()["results"]
    assert history[-1]["action"] == "void"
    assert f"sheet {semis[1]['match']} was reopened" in history[-1]["reason"]
    kept = api.get(f"/api/v1/matches/{final_sheet}/").json()
    assert len(kept["deals"]) == 1  # the void sheet keeps what was entered
    late = api.post(
        f"/api/v1/matches/{final_sheet}/deals/",
        {**deals_for(1, 0)[0], "number": 2, "version": kept["version"]},
        "json",
    )
    assert (late.status_code, late.json()["code"]) == (409, "sheet_void")
    data = matches_of(bracket(api, SLUG))
    assert (data[4]["team_b"], data[4]["match"], data[4]["voided_sheets"]) == (
        None,
        None,
        1,
    )

    # The corrected semi-final: seed 3 won it. The final gets a fresh sheet.
    url = f"/api/v1/matches/{semis[1]['match']}/"
    sheet = api.get(url).json()
    for deal in sheet["deals"]:
        body = {k: deal[k] for k in ("declarer", "value", "trump", "level", "taken")}
        body["declarer"] = "B" if body["declarer"] == "A" else "A"
        answer = api.put(
            url + f"deals/{deal['number']}/",
            {**body, "version": sheet["version"]},
            "json",
        )
        assert answer.status_code == 200, answer.json()
        sheet = api.get(url).json()
    assert sheet["winner"] == "B"
    confirm(api, semis[1]["match"])
    data = matches_of(bracket(api, SLUG))
    assert data[4]["team_b"] == semis[1]["team_b"]
    assert data[3]["team_b"] == semis[1]["team_a"]
    assert data[4]["match"] not in (None, final_sheet)
    assert data[4]["status"] == "scheduled"


def test_a_decided_later_match_must_be_reopened_first(api, knockout):
    _, semis = knockout
    for semi in semis:
        play_sheet(api, semi["match"], 4, 2, 4)
        confirm(api, semi["match"])
    third = matches_of(bracket(api, SLUG))[3]
    play_sheet(api, third["match"], 4, 2, 4)
    confirm(api, third["match"])
    refused = _reopen(api, semis[0]["match"], reset_next=True)
    assert refused.status_code == 409
    assert refused.json()["code"] == "later_match_decided"
    assert "reopen that sheet first" in refused.json()["detail"]


def test_the_final_series_and_a_reset_inside_it(api, knockout):
    _tournament, semis = knockout
    for semi in semis:
        play_sheet(api, semi["match"], 4, 2, 4)
        confirm(api, semi["match"])
    final = matches_of(bracket(api, SLUG))[4]
    game_one = final["match"]
    play_sheet(api, game_one, 3, 1, 4)
    confirm(api, game_one)
    final = matches_of(bracket(api, SLUG))[4]
    assert [g["number"] for g in final["games"]] == [1, 2]
    assert (final["total_a"], final["total_b"], final["status"]) == (
        1,
        0,
        "scheduled",
    )
    game_two = final["match"]
    # Game 1 is reopened: game 2, already set up, is voided only with a reset.
    assert _reopen(api, game_one).json()["code"] == "winner_moved_on"
    assert _reopen(api, game_one, reset_next=True).status_code == 200
    assert Match.objects.get(pk=game_two).status == "void"
    confirm(api, game_one)
    final = matches_of(bracket(api, SLUG))[4]
    assert [g["number"] for g in final["games"]] == [1, 2]
    assert final["match"] != game_two
    play_sheet(api, final["match"], 3, 1, 4)
    confirm(api, final["match"])
    data = bracket(api, SLUG)
    final = matches_of(data)[4]
    assert (final["total_a"], final["total_b"], final["winner"]) == (2, 0, "A")
    assert len(final["games"]) == 2  # no third game at two games to none
    assert data["champion"]["seed"] == 1
    assert data["runner_up"]["seed"] == 2
