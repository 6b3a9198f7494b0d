"""The knockout through the API (rules.md §6): seeding from the final standings, a
tie that needs the extra deals, one that needs the toss and sudden death, a final
that goes to three games, and the podium."""

import pytest

from brackets.models import Bracket, KnockoutMatch
from scoring.models import Match
from tests.brackets.knockout import bracket, final_league, matches_of, play_sheet
from tests.conftest import as_user
from tests.factories import member
from tests.scoring.league import confirm, deals_for, enter
from tournament.domain.types import Role
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

SLUG = "ko-cup"
KNOCKOUT = f"/api/v1/tournaments/{SLUG}/knockout/"


@pytest.fixture
def league(db):
    return final_league(2, 13, slug=SLUG)


def test_seeding_waits_for_the_final_standings(api, db):
    tournament, organizer = final_league(2, 3, qualifiers=4, slug=SLUG)
    first = Match.objects.filter(tournament=tournament).first()
    as_user(api, organizer)
    version = api.get(f"/api/v1/matches/{first.pk}/").json()["version"]
    reopened = api.post(
        f"/api/v1/matches/{first.pk}/reopen/",
        {"reason": "a deal was mistyped", "version": version},
        "json",
    )
    assert reopened.status_code == 200, reopened.json()
    answer = api.post(KNOCKOUT, {}, "json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "league_not_final"
    assert "1 of 9 league sheets are not confirmed yet" in answer.json()["detail"]
    assert not Bracket.objects.exists()
    assert bracket(api, SLUG)["seeded"] is False


def test_only_an_organizer_seeds(api, league):
    tournament, _ = league
    as_user(api, member(tournament, Role.SCORER))
    assert api.post(KNOCKOUT, {}, "json").status_code == 403
    assert not Bracket.objects.exists()


def test_bad_settings_name_the_field_and_change_nothing(api, league):
    tournament, organizer = league
    as_user(api, organizer)
    answer = api.post(KNOCKOUT, {"deals": {"round_of_64": 18}}, "json")
    assert answer.status_code == 400
    assert "has no stage 'round_of_64'" in str(answer.json())
    answer = api.post(KNOCKOUT, {"qualifiers": 30}, "json")
    assert answer.status_code == 400
    assert "30 teams cannot qualify" in str(answer.json()["qualifiers"])
    assert not Bracket.objects.exists()
    assert Tournament.objects.get(pk=tournament.pk).qualifiers == 24


def test_other_numbers_of_qualifiers_and_stage_lengths(api, league):
    tournament, organizer = league
    as_user(api, organizer)
    answer = api.post(
        KNOCKOUT, {"qualifiers": 12, "deals": {"quarter_final": 12}}, "json"
    )
    assert answer.status_code == 201, answer.json()
    data = answer.json()
    assert (data["qualifiers"], data["size"]) == (12, 16)
    assert [(r["name"], r["deals_scheduled"]) for r in data["rounds"]] == [
        ("First knockout round", 18),
        ("Quarter-finals", 12),
        ("Semi-finals", 24),
        ("Second runner-up match", 24),
        ("Final", 18),
    ]
    assert [b["seed"] for b in data["rounds"][0]["byes"]] == [1, 2, 3, 4]
    pairs = sorted((m["seed_a"], m["seed_b"]) for m in data["rounds"][0]["matches"])
    assert pairs == [(5, 12), (6, 11), (7, 10), (8, 9)]
    # The qualifying line of the standings follows the knockout's qualifiers.
    assert Tournament.objects.get(pk=tournament.pk).qualifiers == 12
    again = api.post(KNOCKOUT, {}, "json")
    assert (again.status_code, again.json()["code"]) == (409, "knockout_seeded")


def _winner_plays(api, sheet, deals):
    """Team A (the better seed, or the upper match's winner) wins by two."""
    return play_sheet(api, sheet, deals, deals - 2, deals)


def test_a_full_knockout_of_twenty_four(api, league):
    tournament, organizer = league
    as_user(api, organizer)
    before = api.get(f"/api/v1/tournaments/{SLUG}/standings/").json()
    assert before["to_decide"], "the league should have equal teams a lot must order"
    answer = api.post(KNOCKOUT, {}, "json")
    assert answer.status_code == 201, answer.json()
    data = answer.json()
    # Seeding drew the lot the equal teams needed, and seeded by the standings then.
    standings = api.get(f"/api/v1/tournaments/{SLUG}/standings/").json()
    assert standings["lot"] is not None
    assert data["lot_seed"] == standings["lot"]["seed"]
    team_at = {row["place"]: row["team"] for row in standings["rows"]}
    assert [
        (r["name"], r["deals_scheduled"], len(r["matches"])) for r in data["rounds"]
    ] == [
        ("First knockout round", 18, 8),
        ("Round of 16", 18, 8),
        ("Quarter-finals", 18, 4),
        ("Semi-finals", 24, 2),
        ("Second runner-up match", 24, 1),
        ("Final", 18, 1),
    ]
    assert [s["team"] for s in data["seeds"]] == [team_at[p] for p in range(1, 25)]
    first = data["rounds"][0]
    assert sorted(b["seed"] for b in first["byes"]) == list(range(1, 9))
    assert sorted((m["seed_a"], m["seed_b"]) for m in first["matches"]) == [
        (9 + k, 24 - k) for k in range(8)
    ]
    assert all(m["status"] == "scheduled" and m["match"] for m in first["matches"])
    later = data["rounds"][1]["matches"]
    assert all(m["match"] is None and m["status"] == "waiting" for m in later)
    assert {m["seed_a"] for m in later} == set(range(1, 9))
    assert Tournament.objects.get(pk=tournament.pk).status == "knockout"

    by_number = matches_of(data)
    extra = next(
        m for m in by_number.values() if (m["seed_a"], m["seed_b"]) == (16, 17)
    )
    toss = next(m for m in by_number.values() if (m["seed_a"], m["seed_b"]) == (9, 24))

    # 16 v 17: equal after 18 deals, the two extra deals decide.
    sheet = play_sheet(api, extra["match"], 9, 9, 18)
    assert sheet["status"] == "in_progress"
    assert sheet["tiebreak"]["phase"] == "extra_deals"
    assert sheet["missing"] == [19, 20]
    url = f"/api/v1/matches/{extra['match']}/"
    early = api.post(
        url + "deals/",
        {**deals_for(1, 0)[0], "number": 21, "version": sheet["version"]},
        "json",
    )
    assert early.status_code == 409
    assert early.json()["field"] == "number"
    why = early.json()["detail"]
    assert why.startswith("Nothing was saved: deal 21 cannot be on this sheet: the ")
    assert "so deals 19 and 20 are played" in why
    refused = api.post(url + "confirm/", {"version": sheet["version"]}, "json")
    assert refused.status_code == 409
    sheet = enter(api, extra["match"], deals_for(2, 1), first=19)
    assert (sheet["status"], sheet["winner"]) == ("completed", "A")
    assert sheet["tiebreak"]["decided_by"] == "extra_deals"
    confirm(api, extra["match"])

    # 9 v 24: still equal after the extra deals; the toss, then one deal decides.
    sheet = play_sheet(api, toss["match"], 9, 9, 18)
    sheet = enter(api, toss["match"], deals_for(1, 1), first=19)
    assert sheet["tiebreak"]["phase"] == "toss"
    url = f"/api/v1/matches/{toss['match']}/"
    early = api.post(
        url + "deals/",
        {**deals_for(0, 1)[0], "number": 21, "version": sheet["version"]},
        "json",
    )
    assert early.status_code == 409
    assert early.json()["field"] == "number"
    assert "record the toss first" in early.json()["detail"]
    tossed = api.post(
        url + "toss/",
        {"winner": "B", "first_dealer": "A", "version": sheet["version"]},
        "json",
    )
    assert tossed.status_code == 201, tossed.json()
    assert tossed.json()["tiebreak"]["phase"] == "sudden_death"
    assert tossed.json()["tiebreak"]["toss"] == {"winner": "B", "first_dealer": "A"}
    again = api.post(
        url + "toss/",
        {"winner": "A", "first_dealer": "A", "version": tossed.json()["version"]},
        "json",
    )
    assert (again.status_code, again.json()["code"]) == (409, "toss_not_due")
    sheet = enter(api, toss["match"], deals_for(0, 1), first=21)
    assert (sheet["winner"], sheet["tiebreak"]["decided_by"]) == ("B", "sudden_death")
    assert sheet["total_a"] == sheet["total_b"] - 1
    # Announced after every sixth deal, each of the last six and each tie-break deal.
    announced = [c["after_deal"] for c in sheet["checkpoints"]]
    assert announced == [6, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]
    last = sheet["checkpoints"][-1]
    assert (last["total_a"], last["total_b"]) == (sheet["total_a"], sheet["total_b"])
    confirm(api, toss["match"])
    data = bracket(api, SLUG)
    moved = next(m for m in matches_of(data).values() if m["from_b"] == toss["id"])
    assert (moved["seed_a"], moved["seed_b"]) == (8, 24)
    assert moved["team_b"] == team_at[24]
    assert moved["status"] == "scheduled"
    assert matches_of(data)[toss["number"]]["tiebreak"] == {
        "phase": "decided",
        "decided_by": "sudden_death",
        "toss": {"winner": "B", "first_dealer": "A"},
    }

    # Everything else: team A wins by two; the final goes to three games.
    final_games = ["A", "B", "A"]
    for _ in range(60):
        data = bracket(api, SLUG)
        if data["champion"]:
            break
        for m in matches_of(data).values():
            if m["status"] != "scheduled":
                continue
            if m["kind"] == "final":
                side = final_games[len(m["games"]) - 1]
                a, b = (18, 16) if side == "A" else (16, 18)
                play_sheet(api, m["match"], a, b, 18)
            else:
                _winner_plays(api, m["match"], m["deals_scheduled"])
            confirm(api, m["match"])
    final = data["rounds"][-1]["matches"][0]
    assert [g["winner"] for g in final["games"]] == ["A", "B", "A"]
    assert (final["total_a"], final["total_b"], final["winner"]) == (2, 1, "A")
    semis = data["rounds"][3]["matches"]
    third = data["rounds"][4]["matches"][0]
    assert {third["team_a"], third["team_b"]} == {
        s["team_b"] if s["winner"] == "A" else s["team_a"] for s in semis
    }
    assert data["champion"]["team"] == final["team_a"]
    assert data["runner_up"]["team"] == final["team_b"]
    assert data["second_runner_up"]["team"] == third["team_a"]
    assert data["third_runner_up"]["team"] == third["team_b"]
    # The upper half's better seeds won through: seed 1 is champion.
    assert data["champion"]["seed"] == 1
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    assert KnockoutMatch.objects.filter(winner="").count() == 0
    assert (
        Match.objects.filter(tournament=tournament, stage="knockout").count() == 26
    )  # 8+8+4+2+1, 3 games
