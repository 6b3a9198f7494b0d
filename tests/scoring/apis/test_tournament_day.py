"""The tournament day through the API (rules.md §9): check-in, forfeits, a withdrawal,
substitutions and rosters, disputes, and a forfeit in the knockout."""

import re
from fractions import Fraction

import pytest

from scoring.models import Match, SheetChange
from tests.brackets.knockout import bracket, final_league
from tests.conftest import as_user
from tests.factories import (
    SectionFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    member,
)
from tests.scoring.excel import table, workbook
from tests.scoring.league import confirm, deals_for, drawn_league, enter, play_quickly
from tournament.domain.types import Role
from tournament.models import Backup, Team

pytestmark = pytest.mark.django_db


def _field(tournament, sections=3, per_section=3):
    teams = []
    for s in range(sections):
        section = SectionFactory(tournament=tournament, name=f"Region {s + 1}")
        for t in range(per_section):
            teams.append(TeamFactory(section=section, name=f"R{s + 1} team {t + 1}"))
    return teams


def _sheet(api, match_id):
    return api.get(f"/api/v1/matches/{match_id}/").json()


def _standings(api, slug):
    answer = api.get(f"/api/v1/tournaments/{slug}/standings/")
    assert answer.status_code == 200
    return {row["team"]: row for row in answer.json()["rows"]}


# Check-in
# ----------------------------------------------------------------------------------


def test_a_check_in_draw_takes_the_teams_that_came(api):
    tournament = TournamentFactory(slug="day", league_rounds=3)
    organizer = member(tournament, Role.ORGANIZER)
    teams = _field(tournament)
    base = "/api/v1/tournaments/day/"
    as_user(api, organizer)
    answer = api.patch(base, {"check_in_required": True}, "json")
    assert answer.status_code == 200 and answer.json()["check_in_required"] is True

    # Nobody has come yet: the draw waits.
    refused = api.post(base + "draw/", {"seed": 3}, "json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "no_team_checked_in"

    # Seven of nine arrive; the captain of one of them checks his own team in.
    came, missing = teams[:7], teams[7:]
    captain = member(tournament, Role.CAPTAIN, team=came[0])
    as_user(api, captain)
    assert api.post(f"{base}teams/{came[0].pk}/check-in/").json()["checked_in"]
    other = api.post(f"{base}teams/{came[1].pk}/check-in/")
    assert other.status_code == 403  # not his team
    as_user(api, organizer)
    for team in came[1:]:
        answer = api.post(f"{base}teams/{team.pk}/check-in/")
        assert answer.status_code == 200 and answer.json()["checked_in"]
    # A tick by mistake, undone before the draw.
    api.post(f"{base}teams/{missing[0].pk}/check-in/")
    undone = api.delete(f"{base}teams/{missing[0].pk}/check-in/")
    assert undone.status_code == 200 and undone.json()["checked_in"] is False

    drawn = api.post(base + "draw/", {"seed": 3}, "json")
    assert drawn.status_code == 201, drawn.json()
    playing = {
        t
        for m in Match.objects.filter(tournament=tournament)
        for t in (m.team_a_id, m.team_b_id)
    }
    assert playing == {t.pk for t in came}
    statuses = {
        t["id"]: t["status"] for t in api.get(base + "teams/").json()["results"]
    }
    assert {statuses[t.pk] for t in came} == {"active"}
    assert {statuses[t.pk] for t in missing} == {"absent"}  # kept on record
    assert Team.objects.filter(tournament=tournament).count() == 9
    assert set(_standings(api, "day")) == {t.pk for t in came}

    # After the draw: no late entry, no undo, and the setting is fixed.
    late = api.post(f"{base}teams/{missing[1].pk}/check-in/")
    assert late.status_code == 409 and late.json()["code"] == "late_entry"
    undo = api.delete(f"{base}teams/{came[1].pk}/check-in/")
    assert undo.status_code == 409 and undo.json()["code"] == "draw_locked"
    new = api.post(
        base + "teams/",
        {"name": "Latecomers", "captain": {"name": "L", "country": "India"}},
        "json",
    )
    assert new.status_code == 409 and "after the draw" in new.json()["detail"]
    fixed = api.patch(base, {"check_in_required": False}, "json")
    assert fixed.status_code == 409 and "check in required" in fixed.json()["detail"]


# Forfeits
# ----------------------------------------------------------------------------------


@pytest.fixture
def league(db):
    tournament = TournamentFactory(slug="forfeits", league_rounds=3, league_deals=6)
    organizer = member(tournament, Role.ORGANIZER)
    matches = drawn_league(tournament, organizer, sections=3, per_section=2)
    return tournament, organizer, matches


def test_a_forfeit_by_one_team_and_by_both(api, league):
    tournament, organizer, matches = league
    one, both, played = matches[0], matches[1], matches[2]
    as_user(api, organizer)
    url = f"/api/v1/matches/{one.pk}/"
    version = _sheet(api, one.pk)["version"]

    missing = api.post(url + "forfeit/", {"absent": "B", "version": version}, "json")
    assert missing.status_code == 400 and set(missing.json()) == {"reason"}
    answer = api.post(
        url + "forfeit/",
        {"absent": "B", "reason": "did not come by 9:30", "version": version},
        "json",
    )
    assert answer.status_code == 200, answer.json()
    sheet = answer.json()
    assert sheet["status"] == "forfeited"
    assert sheet["winner"] == "A"
    assert (sheet["total_a"], sheet["total_b"]) == (0, 0)
    assert sheet["forfeit"] == {"absent": "B", "reason": "did not come by 9:30"}
    # rules.md §9: only the team that came played; the absent team's roster is empty.
    came = list(one.team_a.players.values_list("name", flat=True))
    assert sheet["roster"] == {"A": came, "B": []}
    assert _sheet(api, one.pk)["roster"] == {"A": came, "B": []}
    # Locked: no deal, and no second forfeit.
    deal = api.post(
        url + "deals/", {**deals_for(1, 0)[0], "version": sheet["version"]}, "json"
    )
    assert deal.status_code == 409 and deal.json()["code"] == "sheet_locked"
    assert "forfeited" in deal.json()["detail"]

    v = _sheet(api, both.pk)["version"]
    answer = api.post(
        f"/api/v1/matches/{both.pk}/forfeit/",
        {"absent": "both", "reason": "neither team came", "version": v},
        "json",
    )
    assert answer.status_code == 200 and answer.json()["winner"] is None
    assert answer.json()["roster"] == {"A": [], "B": []}

    # A sheet with deals is played, not forfeited.
    enter(api, played.pk, deals_for(2, 0))
    v = _sheet(api, played.pk)["version"]
    refused = api.post(
        f"/api/v1/matches/{played.pk}/forfeit/",
        {"absent": "A", "reason": "left", "version": v},
        "json",
    )
    assert refused.status_code == 409 and refused.json()["code"] == "sheet_has_deals"
    assert _sheet(api, played.pk)["status"] == "in_progress"

    rows = _standings(api, tournament.slug)
    winner, loser = rows[one.team_a_id], rows[one.team_b_id]
    # The present team: a win as a bye (its own average of nothing yet is 0).
    assert (winner["played"], winner["won"], winner["forfeits_won"]) == (1, 1, 1)
    assert (winner["r1"], winner["r2"], winner["r3"], winner["r4"]) == (3, 0, 0, 0)
    # The absent team: played and lost, a total of 0.
    assert (loser["played"], loser["lost"], loser["forfeits_lost"]) == (1, 1, 1)
    assert loser["r1"] == 0
    for team in (both.team_a_id, both.team_b_id):
        assert (rows[team]["played"], rows[team]["lost"], rows[team]["r1"]) == (1, 1, 0)

    # Only an organizer undoes a forfeit: by reopening, with a reason.
    reopened = api.post(url + "reopen/", {"reason": "B arrived at 9:40"}, "json")
    assert reopened.status_code == 200, reopened.json()
    assert reopened.json()["status"] == "scheduled"
    assert reopened.json()["forfeit"] is None and reopened.json()["winner"] is None
    actions = list(
        SheetChange.objects.filter(match=one).values_list("action", "reason")
    )
    assert actions[-2:] == [
        ("forfeit", "did not come by 9:30"),
        ("reopen", "B arrived at 9:40"),
    ]


def test_only_an_organizer_records_a_forfeit(api, league):
    tournament, _, matches = league
    scorer = member(tournament, Role.SCORER)
    as_user(api, scorer)
    v = _sheet(api, matches[0].pk)["version"]
    answer = api.post(
        f"/api/v1/matches/{matches[0].pk}/forfeit/",
        {"absent": "A", "reason": "x", "version": v},
        "json",
    )
    assert answer.status_code == 403
    assert Match.objects.get(pk=matches[0].pk).status == "scheduled"


def test_a_forfeit_counts_as_a_result_and_locks_the_draw(api, league):
    tournament, organizer, matches = league
    as_user(api, organizer)
    api.post(
        f"/api/v1/matches/{matches[0].pk}/forfeit/",
        {"absent": "A", "reason": "no show", "version": 1},
        "json",
    )
    redraw = api.post(f"/api/v1/tournaments/{tournament.slug}/draw/", {}, "json")
    assert redraw.status_code == 409 and redraw.json()["code"] == "draw_locked"


# Withdrawal
# ----------------------------------------------------------------------------------


def test_a_withdrawal_after_round_two_of_eight_checked_by_hand(api):
    tournament = TournamentFactory(slug="leavers", league_rounds=8, league_deals=6)
    organizer = member(tournament, Role.ORGANIZER)
    matches = drawn_league(tournament, organizer, sections=4, per_section=3)
    by_round = {}
    for m in matches:
        by_round.setdefault(m.round, []).append(m)
    leaver = by_round[1][0].team_a_id  # side A in round 1

    def of(match):
        return match.team_a_id, match.team_b_id

    # Rounds 1 and 2: side A wins 20-10, except the leaver's round 2: it loses
    # 12-16.
    for m in by_round[1] + by_round[2]:
        a, b = 20, 10
        if m.round == 2 and leaver in of(m):
            a, b = (12, 16) if m.team_a_id == leaver else (16, 12)
        play_quickly(m.pk, organizer, a, b, deals=6)
    as_user(api, organizer)
    backups = Backup.objects.filter(tournament=tournament).count()
    answer = api.post(
        f"/api/v1/tournaments/leavers/teams/{leaver}/withdraw/",
        {"from_round": 3, "reason": "flight home"},
        "json",
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == "withdrawn"
    assert answer.json()["withdrawn_from_round"] == 3
    # An automatic backup came first, as before the draw.
    assert Backup.objects.filter(tournament=tournament).count() == backups + 1

    for m in matches:
        m.refresh_from_db()
        if leaver not in of(m):
            continue
        if m.round <= 2:
            assert m.status == "completed"  # earlier results stand
        else:
            absent = "A" if m.team_a_id == leaver else "B"
            assert (m.status, m.forfeit_absent) == ("forfeited", absent)
            assert m.forfeit_reason.startswith("R")  # names the team
            assert "withdrew from round 3: flight home" in m.forfeit_reason

    rows = _standings(api, "leavers")
    gone = rows[leaver]
    # Won 20-10 (R2 5, R3 10), lost 12-16, then six forfeits lost with 0.
    assert gone["withdrawn"] is True and gone["qualifies"] is False
    assert (gone["played"], gone["won"], gone["lost"]) == (8, 1, 7)
    assert gone["forfeits_lost"] == 6
    assert (gone["r1"], gone["r2"], gone["r3"], gone["r4"]) == (3, 5, 10, 32)

    # The leaver's round-3 opponent: its two rounds (side A: won 20-10; side B:
    # lost 10-20) and a forfeit win, counted as its own average.
    round3 = next(m for m in by_round[3] if leaver in of(m))
    rival = round3.team_b_id if round3.team_a_id == leaver else round3.team_a_id
    wins = sum(1 for m in by_round[1] + by_round[2] if m.team_a_id == rival)
    totals = 20 * wins + 10 * (2 - wins)
    row = rows[rival]
    assert (row["played"], row["won"], row["forfeits_won"]) == (3, wins + 1, 1)
    assert row["r1"] == 3 * (wins + 1)
    assert Fraction(row["r2"]).limit_denominator() == Fraction(5 * wins * 3, 2)
    assert Fraction(row["r3"]).limit_denominator() == Fraction(10 * wins * 3, 2)
    assert Fraction(row["r4"]).limit_denominator() == Fraction(totals * 3, 2)

    again = api.post(
        f"/api/v1/tournaments/leavers/teams/{leaver}/withdraw/",
        {"from_round": 5, "reason": "twice"},
        "json",
    )
    assert again.status_code == 409 and again.json()["code"] == "team_withdrawn"


def test_a_withdrawal_needs_a_reason_and_a_round_of_the_league(api, league):
    tournament, organizer, matches = league
    team = matches[0].team_a_id
    url = f"/api/v1/tournaments/{tournament.slug}/teams/{team}/withdraw/"
    as_user(api, organizer)
    answer = api.post(url, {"from_round": 4, "reason": ""}, "json")
    assert answer.status_code == 400 and "reason" in answer.json()
    answer = api.post(url, {"from_round": 4, "reason": "ill"}, "json")
    assert answer.status_code == 400 and "from_round" in answer.json()
    captain = member(tournament, Role.CAPTAIN, team=Team.objects.get(pk=team))
    as_user(api, captain)
    assert api.post(url, {"from_round": 2, "reason": "ill"}, "json").status_code == 403
    assert Team.objects.get(pk=team).status == "active"


# Substitutions and rosters
# ----------------------------------------------------------------------------------


def test_a_substitution_changes_the_roster_from_its_round_and_a_second_is_refused(
    api, league
):
    tournament, organizer, matches = league
    team = Team.objects.get(pk=matches[0].team_a_id)
    players = list(team.players.values_list("name", flat=True))
    url = f"/api/v1/tournaments/{tournament.slug}/teams/{team.pk}/substitutions/"
    as_user(api, organizer)
    body = {"out": players[1], "in": "Ravi Menon", "from_round": 2, "reason": "flight"}
    made = api.post(url, body, "json")
    assert made.status_code == 201, made.json()
    assert made.json()["out"] == players[1] and made.json()["in"] == "Ravi Menon"
    assert api.get(url).json()["results"][0]["number"] == 1

    rounds = {
        m.round: m
        for m in Match.objects.filter(tournament=tournament).order_by("round")
        if team.pk in (m.team_a_id, m.team_b_id)
    }
    side = {m.round: "A" if m.team_a_id == team.pk else "B" for m in rounds.values()}
    first = _sheet(api, rounds[1].pk)["roster"][side[1]]
    later = _sheet(api, rounds[2].pk)["roster"][side[2]]
    assert first == players
    assert later == [players[0], "Ravi Menon", *players[2:]]

    second = api.post(
        url, {**body, "out": players[0], "in": "Anil K", "from_round": 3}, "json"
    )
    assert second.status_code == 409
    assert second.json()["code"] == "substitutions_used"
    api.patch(
        f"/api/v1/tournaments/{tournament.slug}/",
        {"substitutions_allowed": 2},
        "json",
    )
    wrong = api.post(url, {**body, "out": "Nobody", "in": players[0]}, "json")
    assert wrong.status_code == 400 and {"out", "in"} <= set(wrong.json())
    # A round whose sheet is final keeps the roster that played it.
    confirm_round = rounds[3]
    play_quickly(confirm_round.pk, organizer, 12, 10, deals=6)
    confirm(api, confirm_round.pk)
    late = api.post(url, {**body, "out": players[0], "in": "Anil K", "from_round": 3})
    assert late.status_code == 409 and late.json()["code"] == "round_played"


def test_only_an_organizer_approves_a_substitution(api, league):
    tournament, _, matches = league
    team = Team.objects.get(pk=matches[0].team_a_id)
    captain = member(tournament, Role.CAPTAIN, team=team)
    as_user(api, captain)
    answer = api.post(
        f"/api/v1/tournaments/{tournament.slug}/teams/{team.pk}/substitutions/",
        {"out": "x", "in": "y", "from_round": 1, "reason": "z"},
        "json",
    )
    assert answer.status_code == 403


# Disputes
# ----------------------------------------------------------------------------------


def test_a_dispute_blocks_confirmation_until_an_organizer_rules(api, league):
    tournament, organizer, matches = league
    match = matches[0]
    captain = member(
        tournament, Role.CAPTAIN, team=Team.objects.get(pk=match.team_b_id)
    )
    as_user(api, organizer)
    enter(api, match.pk, deals_for(10, 8, 6))
    url = f"/api/v1/matches/{match.pk}/"

    as_user(api, captain)
    raised = api.post(
        url + "disputes/", {"deal": 4, "text": "B held the jack; 4 was B's"}, "json"
    )
    assert raised.status_code == 201, raised.json()
    dispute = raised.json()
    assert dispute["open"] and dispute["raised_as"] == "captain of B"
    sheet = _sheet(api, match.pk)
    assert sheet["open_disputes"] == 1
    listed = api.get(f"/api/v1/tournaments/{tournament.slug}/matches/").json()
    row = next(r for r in listed["results"] if r["id"] == match.pk)
    assert row["open_disputes"] == 1

    as_user(api, organizer)
    refused = api.post(url + "confirm/", {"version": sheet["version"]}, "json")
    assert refused.status_code == 409 and refused.json()["code"] == "dispute_open"
    # A scorer rules nothing.
    scorer = member(tournament, Role.SCORER)
    as_user(api, scorer)
    rule = url + f"disputes/{dispute['id']}/rule/"
    assert api.post(rule, {"ruling": "x"}, "json").status_code == 403

    as_user(api, organizer)
    empty = api.post(rule, {"ruling": " "}, "json")
    assert empty.status_code == 400 and "ruling" in empty.json()
    ruled = api.post(rule, {"ruling": "The deal stands: A held it."}, "json")
    assert ruled.status_code == 200
    assert ruled.json()["open"] is False
    assert ruled.json()["ruled_by"] == organizer.username
    twice = api.post(rule, {"ruling": "again"}, "json")
    assert twice.status_code == 409 and twice.json()["code"] == "dispute_ruled"
    assert (
        api.post(
            url + f"disputes/{dispute['id'] + 99}/rule/", {"ruling": "x"}
        ).status_code
        == 404
    )

    confirm(api, match.pk)
    history = api.get(url + "history/").json()["results"]
    actions = [h["action"] for h in history]
    assert actions.index("dispute") < actions.index("ruling") < actions.index("lock")
    ruling = next(h for h in history if h["action"] == "ruling")
    assert ruling["reason"] == "The deal stands: A held it."


def test_who_may_raise_a_dispute(api, league):
    tournament, _, matches = league
    url = f"/api/v1/matches/{matches[0].pk}/disputes/"
    body = {"text": "the score is wrong"}
    assert api.post(url, body, "json").status_code == 401
    stranger = UserFactory()
    as_user(api, stranger)
    assert api.post(url, body, "json").status_code == 403
    other_captain = member(
        tournament,
        Role.CAPTAIN,
        team=Team.objects.exclude(
            pk__in=[matches[0].team_a_id, matches[0].team_b_id]
        ).filter(tournament=tournament)[0],
    )
    as_user(api, other_captain)
    assert api.post(url, body, "json").status_code == 403
    scorer = member(tournament, Role.SCORER)
    as_user(api, scorer)
    made = api.post(url, {**body, "deal": 7}, "json")
    assert made.status_code == 400 and "deal" in made.json()  # 6 deals
    made = api.post(url, body, "json")
    assert made.status_code == 201 and made.json()["deal"] is None
    assert made.json()["raised_as"] == "scorer"
    assert api.get(url).json()["results"][0]["text"] == "the score is wrong"


# The knockout
# ----------------------------------------------------------------------------------


def test_a_knockout_forfeit_moves_the_present_team_on(api):
    _, organizer = final_league(2, 3, qualifiers=4, slug="ko-day")
    as_user(api, organizer)
    assert api.post("/api/v1/tournaments/ko-day/knockout/").status_code == 201
    semi = bracket(api, "ko-day")["rounds"][0]["matches"][0]
    sheet = _sheet(api, semi["match"])
    both = api.post(
        f"/api/v1/matches/{semi['match']}/forfeit/",
        {"absent": "both", "reason": "nobody", "version": sheet["version"]},
        "json",
    )
    assert both.status_code == 400 and "absent" in both.json()
    answer = api.post(
        f"/api/v1/matches/{semi['match']}/forfeit/",
        {"absent": "A", "reason": "A left the venue", "version": sheet["version"]},
        "json",
    )
    assert answer.status_code == 200, answer.json()
    after = bracket(api, "ko-day")
    decided = after["rounds"][0]["matches"][0]
    assert decided["winner"] == "B"
    later = [m for r in after["rounds"][1:] for m in r["matches"]]
    # The present team plays on in the final; the absent one, a loser, in the
    # match for the second runner-up.
    for feed, team in (("winner", semi["team_b"]), ("loser", semi["team_a"])):
        fed = next(
            m
            for m in later
            for side in "ab"
            if m[f"from_{side}"] == semi["id"] and m[f"feed_{side}"] == feed
        )
        side = "a" if fed["from_a"] == semi["id"] else "b"
        assert fed[f"team_{side}"] == team


# The workbook
# ----------------------------------------------------------------------------------


def test_the_workbook_keeps_the_day(api, league):
    tournament, organizer, matches = league
    as_user(api, organizer)
    forfeited, disputed = matches[0], matches[1]
    api.post(
        f"/api/v1/matches/{forfeited.pk}/forfeit/",
        {"absent": "B", "reason": "no show", "version": 1},
        "json",
    )
    api.post(
        f"/api/v1/matches/{disputed.pk}/disputes/",
        {"deal": 2, "text": "deal 2 was misdealt"},
        "json",
    )
    team = Team.objects.get(pk=forfeited.team_a_id)
    players = list(team.players.values_list("name", flat=True))
    api.post(
        f"/api/v1/tournaments/{tournament.slug}/teams/{team.pk}/substitutions/",
        {"out": players[0], "in": "Sree Nair", "from_round": 2, "reason": "ill"},
        "json",
    )
    answer = api.get(f"/api/v1/tournaments/{tournament.slug}/export.xlsx")
    assert answer.status_code == 200
    book = workbook(answer.content)
    day = table(book, "Tournament day")
    assert {row["What"] for row in day} == {"Forfeit", "Dispute", "Substitution"}
    forfeit = next(r for r in day if r["What"] == "Forfeit")
    assert forfeit["Match id"] == forfeited.pk
    assert forfeit["Details"] == f"{forfeited.team_b.name} absent: no show"
    dispute = next(r for r in day if r["What"] == "Dispute")
    assert (dispute["Deal"], dispute["Details"]) == (
        2,
        "(organizer) deal 2 was misdealt",
    )
    sub = next(r for r in day if r["What"] == "Substitution")
    assert sub["Details"] == f"Sree Nair for {players[0]}: ill"

    rosters = {r["Match id"]: r for r in table(book, "Rosters")}
    assert len(rosters) == len(matches)
    assert rosters[forfeited.pk]["Players A"] == ", ".join(players)  # round 1
    assert rosters[forfeited.pk]["Players B"] in (None, "")  # absent: nobody played
    later = next(
        m for m in matches if m.round == 2 and team.pk in (m.team_a_id, m.team_b_id)
    )
    side = "A" if later.team_a_id == team.pk else "B"
    assert rosters[later.pk][f"Players {side}"].startswith("Sree Nair, ")
    sheets = {r["Match id"]: r["Status"] for r in table(book, "Draw")}
    assert sheets[forfeited.pk] == "Forfeited"
    standing = {r["Team id"]: r for r in table(book, "Standings")}
    assert standing[forfeited.team_a_id]["Forfeits won"] == 1
    assert standing[forfeited.team_b_id]["Forfeits lost"] == 1
    assert standing[forfeited.team_b_id]["Withdrawn"] == "no"


def test_a_forfeit_reads_right_on_its_pages_in_both_languages(api, league):
    """Issue 41: a forfeit read "0 of 18 deals · Forfeited · A wins by 0" and its
    "Who played" listed the absent team's players. It reads "A wins (B absent)" with
    the forfeit's score as rules.md §9 gives it, and only the team that came played."""
    from django.test import Client

    tournament, organizer, matches = league
    tournament.published = True
    tournament.save()
    one = matches[0]
    as_user(api, organizer)
    api.post(
        f"/api/v1/matches/{one.pk}/forfeit/",
        {"absent": "B", "reason": "no show", "version": 1},
        "json",
    )
    came = list(one.team_a.players.values_list("name", flat=True))
    absent = list(one.team_b.players.values_list("name", flat=True))
    a, b = one.team_a.name, one.team_b.name
    client = Client()
    page = " ".join(
        re.sub(
            r"<[^>]+>", " ", client.get(f"/matches/{one.pk}/").content.decode()
        ).split()
    )
    assert "wins by 0" not in page and "0 of 6 deals" not in page
    assert (
        f"{a} wins ({b} absent): 3 match points, counted like a bye; {b} loses with "
        "0 match points and a total of 0." in page
    )
    assert ", ".join(came) in page
    assert not any(name in page for name in absent)
    assert "nobody: the team did not come" in page
    malayalam = client.get(
        f"/matches/{one.pk}/", HTTP_ACCEPT_LANGUAGE="ml"
    ).content.decode()
    assert "ഹാജരായില്ല" in malayalam and "ആരുമില്ല: ടീം വന്നില്ല" in malayalam
    assert "wins by" not in malayalam
    listed = client.get(f"/t/{tournament.slug}/matches/?round=league-1").content
    assert "forfeit" in listed.decode() and "0–0" not in listed.decode()
