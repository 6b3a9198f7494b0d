"""Every team's final place (RULES.md §6, brackets/domain/places.py)."""

import random
from collections import Counter
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from brackets.domain.places import (
    LeagueRow,
    final_decided,
    final_places,
    knockout_places,
)
from brackets.domain.progression import Kind, fill, plan_bracket
from scoring.domain.rules import Side


def played(qualifiers: int, seed: int, *, upto: int | None = None):
    """A bracket of seeds 1..Q with every slot (or the first `upto`) decided."""
    rng = random.Random(seed)
    plan = plan_bracket(qualifiers)
    seeds = {s: s for s in range(1, qualifiers + 1)}
    winners: dict[int, Side] = {}
    for slot in plan.slots[:upto]:
        winners[slot.number] = rng.choice([Side.A, Side.B])
    return plan, fill(plan, seeds, winners), winners


def ranked_as_competition(places: list[int]) -> bool:
    """Shared places repeat the number and the next place skips them: before a
    place p there are exactly p - 1 teams (1, 2, 3, 4, 5, 5, 5, 5, 9, …)."""
    counts = Counter(places)
    return all(sum(n for q, n in counts.items() if q < p) == p - 1 for p in counts)


def test_twenty_four_qualifiers_finish_one_to_four_then_five_nine_and_seventeen():
    plan, filled, winners = played(24, 7)
    places = knockout_places(plan, filled, winners)
    counts = Counter(places.values())
    assert counts == {1: 1, 2: 1, 3: 1, 4: 1, 5: 4, 9: 8, 17: 8}
    final = plan.final
    champion = filled[final.number].team(winners[final.number])
    assert places[champion] == 1


def test_the_semi_finals_losers_share_three_until_their_match_is_decided():
    plan = plan_bracket(8)
    third = plan.second_runner_up
    assert third is not None
    rng = random.Random(3)
    seeds = {s: s for s in range(1, 9)}
    winners = {
        s.number: rng.choice([Side.A, Side.B])
        for s in plan.slots
        if s.kind is not Kind.SECOND_RUNNER_UP
    }
    filled = fill(plan, seeds, winners)
    assert final_decided(plan, winners)
    places = knockout_places(plan, filled, winners)
    assert sorted(places.values()) == [1, 2, 3, 3, 5, 5, 5, 5]


def test_the_others_follow_the_qualifiers_in_league_order_and_withdrawn_teams_last():
    knockout = {"a": 1, "b": 2}
    league = [
        LeagueRow("b", 1),
        LeagueRow("w", 2, withdrawn=True),  # inside the qualifying places
        LeagueRow("a", 3),
        LeagueRow("x", 4),
        LeagueRow("y", 5),
        LeagueRow("z", 5),  # equal with y: they share a place
        LeagueRow("v", 7),
    ]
    rows = final_places(knockout, league)
    assert [(r.team, r.final_place, r.league_rank) for r in rows] == [
        ("a", 1, 3),
        ("b", 2, 1),
        ("x", 3, 4),
        ("y", 4, 5),
        ("z", 4, 5),
        ("v", 6, 7),
        ("w", 7, 2),
    ]


def test_before_the_knockout_the_league_order_alone():
    league = [LeagueRow(t, r) for t, r in (("a", 1), ("b", 1), ("c", 3))]
    assert [r.final_place for r in final_places({}, league)] == [1, 1, 3]


@given(st.integers(2, 64), st.integers(0, 2**32), st.integers(0, 12))
def test_once_the_final_is_decided_every_team_has_one_place_ranked_as_shared(
    qualifiers, seed, others
):
    plan, filled, winners = played(qualifiers, seed)
    assert final_decided(plan, winners)
    knockout = knockout_places(plan, filled, winners)
    assert set(knockout) == set(range(1, qualifiers + 1))  # every qualifier placed
    assert ranked_as_competition(list(knockout.values()))
    rng = random.Random(seed)
    teams = list(range(1, qualifiers + others + 1))
    rng.shuffle(teams)
    ranks, rank = [], 0
    for n, _ in enumerate(teams, start=1):
        rank = rank if n > 1 and rng.random() < 0.2 else n
        ranks.append(rank)
    league = [
        LeagueRow(team, rank, withdrawn=team > qualifiers and rng.random() < 0.3)
        for team, rank in zip(teams, ranks, strict=True)
    ]
    rows = final_places(knockout, league)
    assert sorted(r.team for r in rows) == sorted(teams)  # each team once
    assert [r.final_place for r in rows] == sorted(r.final_place for r in rows)
    assert ranked_as_competition([r.final_place for r in rows])
    for row in rows:
        if row.team in knockout:
            assert row.final_place == knockout[row.team] <= qualifiers
        else:
            assert row.final_place > qualifiers  # after every qualifier
    stayed = [r for r in rows if r.team not in knockout and not _gone(league, r)]
    gone = [r for r in rows if _gone(league, r)]
    assert all(s.final_place < g.final_place for s in stayed for g in gone)
    for group in (stayed, gone):  # league order kept, equal ranks share
        for before, after in pairwise(group):
            assert before.league_rank <= after.league_rank
            assert (before.final_place == after.final_place) == (
                before.league_rank == after.league_rank
            )


def _gone(league, row) -> bool:
    return next(r.withdrawn for r in league if r.team == row.team)


@given(st.integers(2, 40), st.integers(0, 2**32), st.integers(0, 80))
def test_while_the_knockout_is_played_a_team_is_never_placed_worse_than_it_ends(
    qualifiers, seed, upto
):
    """A team still in play takes the place its match's loser takes: never better
    than what it may still win, never worse than where it ends (bar the semi-final
    losers' shared 3 before their match)."""
    plan, filled, winners = played(qualifiers, seed, upto=upto)
    now = knockout_places(plan, filled, winners)
    end_plan, end_filled, end_winners = played(qualifiers, seed)
    end = knockout_places(end_plan, end_filled, end_winners)
    third = plan.second_runner_up
    for team, place in now.items():
        if third is not None and place == 3 and third.number not in winners:
            continue
        assert place >= end[team]
