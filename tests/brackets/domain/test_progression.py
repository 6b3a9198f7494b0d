"""The bracket plan, who fills which place, and the podium (rules.md §6)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brackets.domain.progression import Feed, Kind, fill, plan_bracket, podium
from scoring.domain.rules import Side


def play(plan, rng):
    """Decide every slot in order of play; the teams are their seeds."""
    seeds = {s: s for s in range(1, plan.qualifiers + 1)}
    winners = {}
    for slot in plan.slots:
        filled = fill(plan, seeds, winners)[slot.number]
        assert filled.a is not None and filled.b is not None
        winners[slot.number] = rng.choice([Side.A, Side.B])
    return seeds, winners


def test_the_bracket_of_twenty_four():
    plan = plan_bracket(24)
    assert [r.name for r in plan.rounds] == [
        "First knockout round",
        "Round of 16",
        "Quarter-finals",
        "Semi-finals",
        "Second runner-up match",
        "Final",
    ]
    assert [len(r.slots) for r in plan.rounds] == [8, 8, 4, 2, 1, 1]
    assert plan.rounds[0].byes == (1, 8, 4, 5, 2, 7, 3, 6)
    # Seed 1 meets the winner of 16-17 in the round of 16.
    top = plan.slot(plan.rounds[1].slots[0])
    assert (top.a.feed, top.a.ref) == (Feed.SEED, 1)
    feeder = plan.slot(top.b.ref)
    assert (feeder.a.ref, feeder.b.ref) == (16, 17)
    third = plan.second_runner_up
    assert third.a.feed is third.b.feed is Feed.LOSER
    assert {third.a.ref, third.b.ref} == {s.number for s in plan.semi_finals}


def test_sixteen_have_no_byes_and_two_only_a_final():
    assert plan_bracket(16).rounds[0].byes == ()
    assert plan_bracket(16).rounds[0].name == "Round of 16"
    two = plan_bracket(2)
    assert [s.kind for s in two.slots] == [Kind.FINAL]
    assert fill(two, {1: "x", 2: "y"}, {1: Side.B})[1].b == "y"
    assert podium(two, fill(two, {1: "x", 2: "y"}, {1: Side.B}), {1: Side.B}) == (
        podium(two, {}, {}).__class__("y", "x", None, None)
    )


def test_three_qualifiers_one_semi_final_and_its_loser_second_runner_up():
    plan = plan_bracket(3)
    assert plan.second_runner_up is None
    seeds = {1: 1, 2: 2, 3: 3}
    winners = {1: Side.B}  # seed 3 beats seed 2
    winners[plan.final.number] = Side.A
    result = podium(plan, fill(plan, seeds, winners), winners)
    assert (result.champion, result.runner_up, result.second_runner_up) == (1, 3, 2)
    assert result.third_runner_up is None


def test_a_place_stays_unknown_until_its_match_is_decided():
    plan = plan_bracket(24)
    seeds = {s: f"team {s}" for s in range(1, 25)}
    filled = fill(plan, seeds, {})
    r16 = plan.rounds[1].slots[0]
    assert (filled[r16].a, filled[r16].b) == ("team 1", None)
    filled = fill(plan, seeds, {1: Side.B})
    assert filled[r16].b == "team 17"


@pytest.mark.parametrize("qualifiers", [24, 16, 12, 9, 4, 2])
def test_fed_by_names_every_later_place(qualifiers):
    plan = plan_bracket(qualifiers)
    for slot in plan.slots:
        for later, side, feed in plan.fed_by(slot.number):
            assert later.number > slot.number
            assert later.source(side).ref == slot.number
            assert feed in (Feed.WINNER, Feed.LOSER)


@given(st.integers(2, 64), st.integers(0, 2**32))
def test_any_bracket_plays_out_to_a_podium(qualifiers, seed):
    plan = plan_bracket(qualifiers)
    seeds, winners = play(plan, random.Random(seed))
    filled = fill(plan, seeds, winners)
    result = podium(plan, filled, winners)
    places = [
        result.champion,
        result.runner_up,
        result.second_runner_up,
        result.third_runner_up,
    ]
    named = [p for p in places if p is not None]
    assert len(named) == len(set(named)) == min(qualifiers, 4)
    # Every team plays until it loses once (the semi-final losers twice at most).
    losses: dict[int, int] = {}
    for slot in plan.slots:
        side = winners[slot.number]
        loser = filled[slot.number].team(side.other)
        losses[loser] = losses.get(loser, 0) + 1
    assert result.champion not in losses
    assert len(losses) == qualifiers - 1
    # Seeds 1 and 2 can only meet in the final (or as both semi-final losers).
    for slot in plan.slots:
        teams = {filled[slot.number].a, filled[slot.number].b}
        if teams == {1, 2} and slot.kind is not Kind.SECOND_RUNNER_UP:
            assert slot.kind is Kind.FINAL
