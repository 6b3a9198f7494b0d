"""The league draw through the API (API.md "League"): draw, redraw, lock, refusals,
release of rounds, and what the public sees."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.models import Bye, LeagueDraw, LeagueRound, Match, SheetChange
from tests.conftest import as_user
from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member
from tournament.domain.types import Role, TournamentStatus

pytestmark = pytest.mark.django_db

DRAW = "/api/v1/tournaments/{}/draw/"
ROUNDS = "/api/v1/tournaments/{}/rounds/"


def make_field(tournament, sizes):
    """Sections named S0, S1, … of the given sizes, with their teams."""
    teams = []
    for index, size in enumerate(sizes):
        section = SectionFactory(tournament=tournament, name=f"S{index}")
        teams += [
            TeamFactory(section=section, name=f"S{index} team {n}") for n in range(size)
        ]
    return teams


@pytest.fixture
def field(tournament):
    return make_field(tournament, (4, 4, 3, 3))  # 14 teams


def draw(api, tournament, organizer, **body):
    return as_user(api, organizer).post(
        DRAW.format(tournament.slug), body, format="json"
    )


def pairings(tournament):
    return sorted(
        Match.objects.filter(tournament=tournament).values_list(
            "round", "table", "team_a_id", "team_b_id"
        )
    )


def test_an_organizer_draws_the_whole_league(api, tournament, organizer, field):
    answer = draw(api, tournament, organizer, seed=56)
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["draw"]["seed"] == 56
    assert body["draw"]["algorithm"] == "56-draw/1"
    assert body["draw"]["number"] == 1
    assert body["valid"] is True and body["check_problems"] == []
    assert [r["number"] for r in body["rounds"]] == list(range(1, 9))
    assert all(len(r["matches"]) == 7 and r["byes"] == [] for r in body["rounds"])
    assert all(r["released"] is False for r in body["rounds"])
    section = {t.pk: t.section.name for t in field}
    met = set()
    for rnd in body["rounds"]:
        seen = set()
        for m in rnd["matches"]:
            a, b = m["team_a"], m["team_b"]
            assert section[a] != section[b]
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
            seen |= {a, b}
        assert seen == set(section)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.LEAGUE
    assert Match.objects.filter(tournament=tournament).count() == 56
    assert all(m.deals_scheduled == 18 for m in Match.objects.all())
    # Each match's history starts with its creation by the draw, seed and all.
    created = SheetChange.objects.filter(action="match_create")
    assert created.count() == 56
    assert all(c.after["seed"] == 56 and c.after["draw"] == 1 for c in created)
    assert body["spread"]["most_from_one_section"] >= 2
    assert {s["section"] for s in body["sections"]} == {"S0", "S1", "S2", "S3"}


def test_the_same_seed_gives_the_same_draw_and_a_redraw_replaces_it(
    api, tournament, organizer, field
):
    draw(api, tournament, organizer, seed=7)
    first = pairings(tournament)
    assert draw(api, tournament, organizer, seed=8).status_code == 201
    assert pairings(tournament) != first
    assert draw(api, tournament, organizer, seed=7).status_code == 201
    assert pairings(tournament) == first
    draws = LeagueDraw.objects.filter(tournament=tournament).order_by("number")
    assert [(d.number, d.seed, d.current) for d in draws] == [
        (1, 7, False),
        (2, 8, False),
        (3, 7, True),
    ]
    assert Match.objects.filter(tournament=tournament).count() == 56
    body = as_user(api, organizer).get(DRAW.format(tournament.slug)).json()
    assert [d["seed"] for d in body["earlier"]] == [8, 7]


def test_without_a_seed_one_is_chosen_and_recorded(api, tournament, organizer, field):
    body = draw(api, tournament, organizer).json()
    seed = body["draw"]["seed"]
    assert isinstance(seed, int) and 0 <= seed < 2**63
    assert LeagueDraw.objects.get(current=True).seed == seed


def test_an_odd_count_gets_one_bye_per_round(api, tournament, organizer):
    teams = make_field(tournament, (4, 4, 3, 2))  # 13 teams
    body = draw(api, tournament, organizer, seed=3).json()
    byes = [b for r in body["rounds"] for b in r["byes"]]
    assert len(byes) == 8 and len(set(byes)) == 8
    assert set(byes) <= {t.pk for t in teams}
    assert Bye.objects.filter(tournament=tournament).count() == 8
    assert all(len(r["matches"]) == 6 for r in body["rounds"])


def test_an_impossible_field_is_refused_naming_the_section(api, tournament, organizer):
    make_field(tournament, (8, 4))
    answer = draw(api, tournament, organizer, seed=1)
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "section_too_large"
    assert "section S0 has 8 of the 12 teams; at most 6 can be drawn" in body["detail"]
    assert not Match.objects.exists() and not LeagueDraw.objects.exists()
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTRATION
    # GET says the same before anyone presses the button.
    state = as_user(api, organizer).get(DRAW.format(tournament.slug)).json()
    assert [p["code"] for p in state["problems"]] == [
        "section_too_large",
        "too_few_opponents",
    ]
    assert state["draw"] is None and state["valid"] is None


def test_the_first_result_locks_the_draw(api, tournament, organizer, field):
    draw(api, tournament, organizer, seed=5)
    match = Match.objects.order_by("round", "table").first()
    deal = {"number": 1, "declarer": "A", "value": 40, "trump": "clubs"}
    posted = as_user(api, organizer).post(
        f"/api/v1/matches/{match.pk}/deals/",
        {**deal, "level": "none", "taken": 40, "version": match.version},
        format="json",
    )
    assert posted.status_code == 201
    before = pairings(tournament)
    answer = draw(api, tournament, organizer, seed=6)
    assert answer.status_code == 409
    assert answer.json()["code"] == "draw_locked"
    assert "the league has results" in answer.json()["detail"]
    assert pairings(tournament) == before
    state = as_user(api, organizer).get(DRAW.format(tournament.slug)).json()
    assert state["locked"] is True and "results" in state["locked_reason"]


def test_a_drawn_league_fixes_the_teams(api, tournament, organizer, field):
    draw(api, tournament, organizer, seed=5)
    answer = as_user(api, organizer).post(
        f"/api/v1/tournaments/{tournament.slug}/teams/",
        {
            "name": "Late Comers",
            "captain": {"name": "Late", "city": "Pune", "country": "India"},
            "players": ["Late", "Later", "Latest"],
        },
        format="json",
    )
    assert answer.status_code == 409
    assert answer.json()["code"] == "draw_locked"


def test_unscored_matches_set_up_by_hand_make_way_for_the_draw(
    api, tournament, organizer, field
):
    a, b = field[0], field[-1]
    as_user(api, organizer).post(
        f"/api/v1/tournaments/{tournament.slug}/matches/",
        {"team_a": a.pk, "team_b": b.pk, "round": 1, "table": 9},
        format="json",
    )
    assert draw(api, tournament, organizer, seed=2).status_code == 201
    assert Match.objects.filter(round=1).count() == 7
    assert not Match.objects.filter(round=1, table=9).exists()


@pytest.mark.parametrize("who", ["anonymous", "scorer", "captain", "outsider"])
def test_only_organizers_draw(api, tournament, field, who, request):
    user = {
        "anonymous": None,
        "scorer": lambda: member(tournament, Role.SCORER, "s"),
        "captain": lambda: member(tournament, Role.CAPTAIN, "c", team=field[0]),
        "outsider": lambda: request.getfixturevalue("outsider"),
    }[who]
    client = as_user(api, user()) if user else api
    answer = client.post(DRAW.format(tournament.slug), {"seed": 1}, format="json")
    assert answer.status_code == (401 if who == "anonymous" else 403)
    assert not Match.objects.exists()


def test_bad_seeds_are_refused_by_field(api, tournament, organizer, field):
    for seed in (-1, 2**63, "soon"):
        answer = draw(api, tournament, organizer, seed=seed)
        assert answer.status_code == 400
        assert "seed" in answer.json()
    assert not Match.objects.exists()


# Draft rounds and their release
# ----------------------------------------------------------------------------------


def test_rounds_are_drafts_until_released(api, tournament, organizer, field):
    draw(api, tournament, organizer, seed=9)
    api.force_authenticate(user=None)
    public = api.get(ROUNDS.format(tournament.slug))
    assert public.status_code == 200 and public.json() == []
    matches = api.get(f"/api/v1/tournaments/{tournament.slug}/matches/").json()
    assert matches["count"] == 0
    hidden = Match.objects.filter(round=1).first()
    assert api.get(f"/api/v1/matches/{hidden.pk}/").status_code == 404
    state = api.get(DRAW.format(tournament.slug)).json()
    assert state["draw"]["seed"] is None  # the seed would reveal the drafts

    scorer = member(tournament, Role.SCORER, "scorer-1")
    assert len(as_user(api, scorer).get(ROUNDS.format(tournament.slug)).json()) == 8

    released = as_user(api, organizer).post(
        ROUNDS.format(tournament.slug) + "1/release/"
    )
    assert released.status_code == 200
    assert released.json()["released"] is True
    api.force_authenticate(user=None)
    public = api.get(ROUNDS.format(tournament.slug)).json()
    assert [r["number"] for r in public] == [1]
    assert api.get(f"/api/v1/matches/{hidden.pk}/").status_code == 200
    assert LeagueRound.objects.get(number=1).released_by == organizer

    for number in range(2, 9):
        as_user(api, organizer).post(
            ROUNDS.format(tournament.slug) + f"{number}/release/"
        )
    api.force_authenticate(user=None)
    assert api.get(DRAW.format(tournament.slug)).json()["draw"]["seed"] == 9


def test_releasing_needs_an_organizer_and_a_drawn_round(
    api, tournament, organizer, scorer, field
):
    url = ROUNDS.format(tournament.slug) + "1/release/"
    assert as_user(api, organizer).post(url).status_code == 409
    draw(api, tournament, organizer, seed=1)
    assert as_user(api, scorer).post(url).status_code == 403
    assert (
        as_user(api, organizer)
        .post(ROUNDS.format(tournament.slug) + "9/release/")
        .status_code
        == 409
    )


def test_a_teams_rounds(api, tournament, organizer, field):
    draw(api, tournament, organizer, seed=4)
    team = field[0]
    rounds = (
        as_user(api, organizer)
        .get(ROUNDS.format(tournament.slug), {"team": team.pk})
        .json()
    )
    assert len(rounds) == 8
    opponents = set()
    for r in rounds:
        (m,) = r["matches"]
        assert team.pk in (m["team_a"], m["team_b"])
        opponents.add(m["team_b"] if m["team_a"] == team.pk else m["team_a"])
    assert len(opponents) == 8


@pytest.mark.parametrize("sizes", [(3, 3, 3, 3), (12, 12, 12, 12)])
def test_rounds_and_draw_take_the_same_queries_at_any_size(
    api, tournament, organizer, sizes, django_assert_num_queries
):
    make_field(tournament, sizes)
    draw(api, tournament, organizer, seed=1)
    client = as_user(api, organizer)
    with django_assert_num_queries(5):
        assert client.get(ROUNDS.format(tournament.slug)).status_code == 200
    with django_assert_num_queries(9):
        assert client.get(DRAW.format(tournament.slug)).status_code == 200


# The checker on a stored draw
# ----------------------------------------------------------------------------------


def test_the_check_command_validates_a_stored_draw(api, tournament, organizer, field):
    draw(api, tournament, organizer, seed=12)
    call_command("draw_check", tournament.slug)  # valid: no error
    m1, m2 = Match.objects.filter(round=1).order_by("table")[:2]
    Match.objects.filter(pk=m2.pk).update(team_b=m1.team_b)  # a team plays twice
    with pytest.raises(CommandError, match="plays twice"):
        call_command("draw_check", tournament.slug)
    state = as_user(api, organizer).get(DRAW.format(tournament.slug)).json()
    assert state["valid"] is False
    assert any("plays twice" in p for p in state["check_problems"])


def test_the_check_command_names_an_unknown_tournament(db):
    TournamentFactory(slug="real")
    with pytest.raises(CommandError, match="no tournament nope"):
        call_command("draw_check", "nope")
