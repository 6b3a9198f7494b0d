"""The standings API: a league played through the API and ranked by hand.

Twelve teams, each in a section of its own, so any two may meet. Round 1 has five
matches and a bye; round 2 one more match for the bye team, and one still in play.

    match       totals    what it exercises
    t1 v t2     12-8      won by 4: R2 4, R3 4
    t3 v t4     14-8      won by 6: R2 capped at 5, R3 6 (left unconfirmed)
    t5 v t6     17-10     won by 7, of which 2 from a conduct penalty
    t7 v t8     20-13     won by 7 (1 from a second out-of-turn), R4 20 > 17
    t9 v t10    15-15     a tie: 1 match point each; equal on all four
    t11         bye       round 1
    t11 v t12   16-9      round 2: R2..R4 of the bye are t11's own average
    t1 v t2     (1 deal)  round 2, in play (2 deals): does not count

    rank team  P W T L bye  R1  R2  R3  R4
    1    t11   2 2 0 0 1    6   10  14  32   played and won count the bye (§9)
    2    t7    1 1 0 0 0    3   5   7   20   R4 splits t7 and t5
    3    t5    1 1 0 0 0    3   5   7   17   R3 splits t5 and t3
    4    t3    1 1 0 0 0    3   5   6   14   R2 splits t3 and t1
    5    t1    1 1 0 0 0    3   4   4   12
    6=   t9    1 0 1 0 0    1   0   0   15
    6=   t10   1 0 1 0 0    1   0   0   15
    8    t8    1 0 0 1 0    0   0   0   13
    9    t6    1 0 0 1 0    0   0   0   10
    10   t12   1 0 0 1 0    0   0   0   9
    11=  t2    1 0 0 1 0    0   0   0   8
    11=  t4    1 0 0 1 0    0   0   0   8
"""

import pytest

from scoring.domain.standings import lot_key
from scoring.models import Match, StandingsLot
from tests.conftest import as_user
from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member
from tests.scoring.excel import table, workbook
from tests.scoring.league import (
    finish_hand_league,
    hand_league,
    hand_match,
    sized_league,
)
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db

EXPECTED = [
    # team, rank, played, won, tied, lost, byes, r1, r2, r3, r4
    ("t11", 1, 2, 2, 0, 0, 1, 6, 10, 14, 32),  # the bye is played and won (§9)
    ("t7", 2, 1, 1, 0, 0, 0, 3, 5, 7, 20),
    ("t5", 3, 1, 1, 0, 0, 0, 3, 5, 7, 17),
    ("t3", 4, 1, 1, 0, 0, 0, 3, 5, 6, 14),
    ("t1", 5, 1, 1, 0, 0, 0, 3, 4, 4, 12),
    ("t9", 6, 1, 0, 1, 0, 0, 1, 0, 0, 15),
    ("t10", 6, 1, 0, 1, 0, 0, 1, 0, 0, 15),
    ("t8", 8, 1, 0, 0, 1, 0, 0, 0, 0, 13),
    ("t6", 9, 1, 0, 0, 1, 0, 0, 0, 0, 10),
    ("t12", 10, 1, 0, 0, 1, 0, 0, 0, 0, 9),
    ("t2", 11, 1, 0, 0, 1, 0, 0, 0, 0, 8),
    ("t4", 11, 1, 0, 0, 1, 0, 0, 0, 0, 8),
]
FIELDS = ("team_name", "rank", "played", "won", "tied", "lost", "byes")
NUMBERS = ("r1", "r2", "r3", "r4")


def url(league, tail=""):
    return f"/api/v1/tournaments/{league['tournament'].slug}/standings/{tail}"


@pytest.fixture
def league(api):
    return hand_league(api)


def rows(body):
    return [(*(r[f] for f in FIELDS), *(r[n] for n in NUMBERS)) for r in body["rows"]]


def test_a_hand_computed_league_ranks_by_r1_to_r4(api, league):
    answer = api.get(url(league))
    assert answer.status_code == 200
    body = answer.json()
    assert rows(body) == EXPECTED
    by_name = {r["team_name"]: r for r in body["rows"]}
    # The match still in play counts for nobody; t3 v t4 is completed, unconfirmed.
    assert {n for n, r in by_name.items() if r["provisional"]} == {"t3", "t4"}
    assert body["provisional"] is True
    assert {n for n, r in by_name.items() if r["shared"]} == {"t9", "t10", "t2", "t4"}
    assert body["progress"] == {
        "matches": 7,
        "decided": 6,
        "confirmed": 5,
        "live": 1,
        "draft_rounds": 0,
    }
    assert body["final"] is False
    assert body["lot"] is None
    # Six qualify: t9 and t10 are equal across the line. The league is in play, so
    # they are tied there and nothing waits for a lot (rules.md §9).
    assert [r["qualifies"] for r in body["rows"]] == [True] * 5 + [None, None] + [
        False
    ] * 5
    assert body["to_decide"] == []
    assert not any(r["lot"] for r in body["rows"])
    assert by_name["t11"]["section_name"] == "Section 11"
    assert by_name["t11"]["team"] == league["t11"].pk


def test_standings_add_up_to_the_stored_sheets(api, league):
    """The SQL sums of deals and penalties agree with each sheet's own totals."""
    body = api.get(url(league)).json()
    counted = Match.objects.filter(status__in=["completed", "confirmed"])
    totals = sum(m.total_a + m.total_b for m in counted)
    bye = next(r for r in body["rows"] if r["byes"])
    assert sum(r["r4"] for r in body["rows"]) - bye["r4"] / 2 == totals


def test_a_section_shows_its_rows_with_their_overall_rank(api, league):
    section = league["t10"].section_id
    body = api.get(url(league), {"section": section}).json()
    assert [(r["team_name"], r["rank"], r["place"]) for r in body["rows"]] == [
        ("t10", 6, 7)
    ]
    assert body["section"] == section
    answer = api.get(url(league), {"section": 999999})
    assert answer.status_code == 400
    assert "section" in answer.json()
    assert api.get(url(league), {"section": "x"}).status_code == 400


def test_a_reopened_sheet_counts_as_it_is_now(api, league):
    """The organizer reopens t1 v t2 and turns it round: the standings follow at
    once, and both rows are provisional until the sheet is confirmed again."""
    as_user(api, league["organizer"])
    match = league["matches"]["t1"]
    answer = api.post(
        f"/api/v1/matches/{match}/reopen/", {"reason": "deal 1 misread"}, "json"
    )
    assert answer.status_code == 200
    version = answer.json()["version"]
    # Deal 1 gave A 7 (56 redoubled, defeated by A); now B's 56 redoubled is made:
    # B receives 4 + 2 = 6, so A 12-7 = 5 and B 8+6 = 14.
    answer = api.put(
        f"/api/v1/matches/{match}/deals/1/",
        {
            "declarer": "B",
            "value": 56,
            "trump": "hearts",
            "level": "redoubled",
            "taken": 56,
            "version": version,
        },
        "json",
    )
    assert answer.status_code == 200, answer.json()
    api.force_authenticate(user=None)
    by_name = {r["team_name"]: r for r in api.get(url(league)).json()["rows"]}
    assert (by_name["t2"]["r1"], by_name["t2"]["r3"], by_name["t2"]["r4"]) == (3, 9, 14)
    assert (by_name["t1"]["r1"], by_name["t1"]["r4"]) == (0, 5)
    assert by_name["t1"]["provisional"] and by_name["t2"]["provisional"]


def test_lots_wait_for_the_final_standings(api, league):
    as_user(api, league["organizer"])
    answer = api.post(url(league, "lots/"), {}, "json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "league_not_final"
    assert "2 of 7 league sheets are not confirmed" in answer.json()["detail"]
    assert not StandingsLot.objects.exists()


def test_a_lot_settles_the_qualifying_line_with_a_recorded_seed(api, league):
    finish_hand_league(api, league)
    as_user(api, league["organizer"])
    answer = api.post(url(league, "lots/"), {"seed": 56}, "json")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["final"] is True
    t9, t10 = league["t9"].pk, league["t10"].pk
    first, second = sorted([t9, t10], key=lambda t: lot_key(56, t))
    assert [r["team"] for r in body["rows"][5:7]] == [first, second]
    assert [r["lot"] for r in body["rows"]] == [False] * 5 + [True, True] + [False] * 5
    assert [r["qualifies"] for r in body["rows"][5:7]] == [True, False]
    assert [r["rank"] for r in body["rows"][5:7]] == [6, 6]  # still equal on R1..R4
    assert body["lot"]["seed"] == 56
    assert body["lot"]["decided"] == [[first, second]]
    assert body["lot"]["drawn_by"] == "org"
    # The equal last two are below the line: no place to decide, no lot.
    assert [r["lot"] for r in body["rows"][-2:]] == [False, False]
    # Anyone reads the same thing afterwards.
    api.force_authenticate(user=None)
    assert api.get(url(league)).json()["rows"] == body["rows"]
    # Lots are drawn once.
    as_user(api, league["organizer"])
    again = api.post(url(league, "lots/"), {}, "json")
    assert again.status_code == 409
    assert again.json()["code"] == "lots_drawn"
    assert StandingsLot.objects.get().seed == 56


def test_lots_are_to_decide_only_on_final_standings_and_only_while_final(api, league):
    """rules.md §9: `to_decide` is empty while `final` is false; a lot drawn on the
    final standings orders nobody once a sheet is reopened, until it is final again."""
    t9, t10 = league["t9"].pk, league["t10"].pk
    finish_hand_league(api, league)
    body = api.get(url(league)).json()
    assert body["final"] is True
    assert body["to_decide"] == [[t9, t10]]
    assert [r["qualifies"] for r in body["rows"][5:7]] == [None, None]
    as_user(api, league["organizer"])
    assert api.post(url(league, "lots/"), {"seed": 56}, "json").status_code == 201
    live = league["matches"]["live"]
    answer = api.post(f"/api/v1/matches/{live}/reopen/", {"reason": "typo"}, "json")
    assert answer.status_code == 200, answer.json()
    body = api.get(url(league)).json()
    assert body["final"] is False
    assert body["to_decide"] == []
    assert not any(r["lot"] for r in body["rows"])
    assert [r["qualifies"] for r in body["rows"][5:7]] == [None, None]


def test_the_workbook_says_tied_mid_league_and_by_lot_only_when_final(api, league):
    """The Standings sheet's "Qualifies" never says "by lot" while the league is in
    play (rules.md §9), and says a lot is to be drawn once the standings are final."""
    slug = league["tournament"].slug
    as_user(api, league["organizer"])

    def qualifies():
        answer = api.get(f"/api/v1/tournaments/{slug}/export.xlsx")
        assert answer.status_code == 200
        rows = table(workbook(answer.content), "Standings")
        return {r["Team"]: r["Qualifies"] for r in rows}

    mid = qualifies()
    assert (mid["t9"], mid["t10"], mid["t1"], mid["t8"]) == (
        "tied across the line",
        "tied across the line",
        "yes",
        "no",
    )
    assert "by lot" not in " ".join(mid.values())
    finish_hand_league(api, league)
    as_user(api, league["organizer"])
    final = qualifies()
    assert (final["t9"], final["t10"]) == ("by lot, to be drawn", "by lot, to be drawn")


def test_a_random_seed_is_recorded_when_none_is_given(api, league):
    finish_hand_league(api, league)
    as_user(api, league["organizer"])
    answer = api.post(url(league, "lots/"), {}, "json")
    assert answer.status_code == 201
    lot = StandingsLot.objects.get()
    assert answer.json()["lot"]["seed"] == lot.seed
    assert 0 <= lot.seed < 2**63


@pytest.mark.parametrize(
    ("role", "code"), [(None, 401), (Role.SCORER, 403), (Role.CAPTAIN, 403)]
)
def test_only_organizers_draw_lots(api, league, role, code):
    finish_hand_league(api, league)
    as_user(api, league["organizer"])
    if role is None:
        api.force_authenticate(user=None)
    else:
        team = league["t1"] if role is Role.CAPTAIN else None
        as_user(api, member(league["tournament"], role, team=team))
    assert api.post(url(league, "lots/"), {}, "json").status_code == code
    assert not StandingsLot.objects.exists()


def test_bad_seeds_are_refused_naming_the_field(api, league):
    finish_hand_league(api, league)
    as_user(api, league["organizer"])
    for seed in (-1, 2**63, "abc"):
        answer = api.post(url(league, "lots/"), {"seed": seed}, "json")
        assert answer.status_code == 400
        assert "seed" in answer.json()
    assert not StandingsLot.objects.exists()


def test_an_unpublished_tournament_has_no_standings_for_outsiders(api, league):
    league["tournament"].published = False
    league["tournament"].save()
    assert api.get(url(league)).status_code == 404
    as_user(api, league["organizer"])
    assert api.get(url(league)).status_code == 200


def test_a_league_with_nothing_played_lists_every_team_level(api, league):
    empty = TournamentFactory(slug="empty-cup")
    for n in range(3):
        TeamFactory(section=SectionFactory(tournament=empty), name=f"e{n}")
    body = api.get("/api/v1/tournaments/empty-cup/standings/").json()
    assert [(r["rank"], r["r1"], r["played"]) for r in body["rows"]] == [(1, 0, 0)] * 3
    assert body["final"] is False
    assert body["to_decide"] == []  # every team level, nothing drawn by lot yet


def _counted_queries(api, django_assert_num_queries, slug, expected):
    with django_assert_num_queries(expected):
        answer = api.get(f"/api/v1/tournaments/{slug}/standings/")
    assert answer.status_code == 200
    return answer.json()


QUERIES = (
    8  # tournament, the fingerprint, teams, byes, the counted matches' stored
    # results, lot, progress (2)
)


@pytest.mark.parametrize(("sections", "per_section"), [(3, 2), (5, 5)])
def test_standings_cost_the_same_queries_at_any_size(
    api, django_assert_num_queries, sections, per_section
):
    _, organizer, matches = sized_league(sections, per_section)
    body = _counted_queries(api, django_assert_num_queries, "sized-cup", QUERIES)
    assert len(body["rows"]) == sections * per_section
    assert body["progress"]["decided"] == len(matches)
    as_user(api, organizer)  # logged in: the roles cost one query more
    _counted_queries(api, django_assert_num_queries, "sized-cup", QUERIES + 1)


def test_the_answer_has_the_documented_shape(api, league):
    """The rows are built as plain dicts for speed; they keep the schema's shape."""
    from scoring.league.apis import StandingRowOutput, StandingsOutput

    body = api.get(url(league)).json()
    assert set(body) == set(StandingsOutput().fields)
    for row in body["rows"]:
        assert set(row) == set(StandingRowOutput().fields)
    assert set(body["progress"]) == set(StandingsOutput().fields["progress"].fields)


def _poll(api, league, etag, expected):
    answer = api.get(url(league), HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == expected, answer.content
    return answer


def test_a_poll_that_finds_nothing_changed_is_answered_304(
    api, league, django_assert_num_queries
):
    first = api.get(url(league))
    etag = first["ETag"]
    assert etag.startswith('"') and first["Cache-Control"] == "private, no-cache"
    with django_assert_num_queries(2):  # the tournament and the fingerprint
        answer = _poll(api, league, etag, 304)
    assert answer.content == b"" and answer["ETag"] == etag
    # Another section's rows are other standings: their own tag.
    section = api.get(url(league), {"section": league["t10"].section_id})
    assert section["ETag"] != etag
    _poll(api, league, f'"other", {etag}', 304)  # one of several tags matches
    _poll(api, league, '"other"', 200)


def _changed(api, league, etag) -> str:
    """The standings' tag has changed: the poll gets the new standings."""
    answer = _poll(api, league, etag, 200)
    assert answer["ETag"] != etag
    return answer["ETag"]


def test_the_tag_changes_with_everything_the_standings_show(api, league):
    etag = api.get(url(league))["ETag"]
    as_user(api, league["organizer"])
    # The last deal of the sheet still in play...
    in_play = Match.objects.filter(
        tournament=league["tournament"], round=2, status="in_progress"
    ).get()
    sheet = api.get(f"/api/v1/matches/{in_play.pk}/").json()
    answer = api.post(
        f"/api/v1/matches/{in_play.pk}/deals/",
        {
            "number": len(sheet["deals"]) + 1,
            "declarer": "A",
            "value": 28,
            "trump": "clubs",
            "taken": 30,
            "version": sheet["version"],
        },
        "json",
    )
    assert answer.status_code == 201, answer.json()
    # ... which ends the sheet: it counts now.
    etag = _changed(api, league, etag)
    # A deal changed on a completed sheet changes its totals on the rows.
    completed = Match.objects.get(pk=league["matches"]["t3"])
    sheet = api.get(f"/api/v1/matches/{completed.pk}/").json()
    last = sheet["deals"][-1]
    answer = api.put(
        f"/api/v1/matches/{completed.pk}/deals/{last['number']}/",
        {
            **{k: last[k] for k in ("declarer", "value", "trump", "level")},
            "taken": 56 - last["taken"] if last["taken"] != 28 else 29,
            "version": sheet["version"],
        },
        "json",
    )
    assert answer.status_code == 200, answer.json()
    etag = _changed(api, league, etag)
    # A confirmation changes no version, but the rows' provisional marks.
    unconfirmed = Match.objects.get(pk=league["matches"]["t3"])
    assert unconfirmed.status == "completed"
    answer = api.post(
        f"/api/v1/matches/{unconfirmed.pk}/confirm/",
        {"version": unconfirmed.version},
        "json",
    )
    assert answer.status_code == 200, answer.json()
    etag = _changed(api, league, etag)
    # A reopening with its reason.
    answer = api.post(
        f"/api/v1/matches/{unconfirmed.pk}/reopen/", {"reason": "a second look"}, "json"
    )
    assert answer.status_code == 200, answer.json()
    _changed(api, league, etag)


def test_a_deal_on_a_sheet_in_play_leaves_the_tag_as_it_was(api, league):
    """The standings count decided sheets only: the deals of a sheet in play change
    nothing they show, so a round's polls are answered 304 between two ends of a
    match (scoring/league/selectors.py, docs/standings.md)."""
    as_user(api, league["organizer"])
    mid = hand_match(league, "t3", "t5", 2, 3, 4)
    body = {"declarer": "A", "value": 28, "trump": "clubs", "taken": 30}
    version = api.get(f"/api/v1/matches/{mid}/").json()["version"]
    etag = api.get(url(league))["ETag"]
    for number in (1, 2, 3):
        answer = api.post(
            f"/api/v1/matches/{mid}/deals/",
            {**body, "number": number, "version": version},
            "json",
        )
        assert answer.status_code == 201, answer.json()
        version = answer.json()["version"]
        if number == 1:  # the sheet is in play now: the progress shows it
            etag = _changed(api, league, etag)
        else:
            _poll(api, league, etag, 304)
    answer = api.post(
        f"/api/v1/matches/{mid}/deals/",
        {**body, "number": 4, "version": version},
        "json",
    )
    assert answer.status_code == 201, answer.json()
    _changed(api, league, etag)  # the last deal: the sheet is decided and counts


def test_the_tag_changes_with_a_new_team_or_name_during_registration(api, db):
    tournament = TournamentFactory(slug="open-desk")
    organizer = member(tournament, Role.ORGANIZER, username="desk-organizer")
    section = SectionFactory(tournament=tournament, states=["NJ"])
    team = TeamFactory(section=section, name="Aces", captain_state="NJ")
    league = {"tournament": tournament}
    etag = api.get(url(league))["ETag"]
    as_user(api, organizer)
    answer = api.patch(
        f"/api/v1/tournaments/{tournament.slug}/teams/{team.pk}/",
        {"name": "Aces High"},
        "json",
    )
    assert answer.status_code == 200, answer.json()
    etag = _changed(api, league, etag)
    TeamFactory(section=team.section, name="Kings")
    _changed(api, league, etag)
