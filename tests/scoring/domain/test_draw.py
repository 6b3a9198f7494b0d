"""The league draw as pure Python (rules.md §5): exhaustive over small fields,
hypothesis over random ones, adversarial tight fields up to 500 teams, the checker."""

import hashlib
import math
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.domain.draw import (
    ALGORITHM,
    DrawError,
    DrawRound,
    DrawTeam,
    Pairing,
    check_draw,
    draw_league,
    draw_problems,
    draw_spread,
    opponents,
)


def partitions(n, largest=None):
    """Every way to split n teams into sections (sizes, largest first)."""
    largest = n if largest is None else largest
    if n == 0:
        yield ()
        return
    for first in range(min(n, largest), 0, -1):
        for rest in partitions(n - first, first):
            yield (first, *rest)


def field(sizes, *, start=1, step=1):
    """Teams in sections S0, S1, … of the given sizes, keys start, start+step, …"""
    teams, key = [], start
    for index, size in enumerate(sizes):
        for _ in range(size):
            teams.append(DrawTeam(key, f"S{index}"))
            key += step
    return teams


def assert_drawn_or_refused(teams, rounds, seed):
    """The draw is valid, or the feasibility check said why before drawing."""
    problems = draw_problems(teams, rounds)
    if problems:
        with pytest.raises(DrawError) as refused:
            draw_league(teams, rounds, seed)
        assert refused.value.code == problems[0].code
        return None
    draw = draw_league(teams, rounds, seed)
    assert check_draw(teams, rounds, draw.rounds) == []
    return draw


# Exhaustive: every section split of small fields
# ----------------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 21))
def test_every_split_of_up_to_20_teams_is_drawn_exactly_when_the_check_allows(count):
    """Over 8 rounds, for all 2,712 splits of 2..20 teams: a draw comes out exactly
    when draw_problems finds nothing. So the three conditions are the whole story
    here, and the draw never fails where a draw exists."""
    drawn = refused = 0
    for sizes in partitions(count):
        teams = field(sizes)
        if assert_drawn_or_refused(teams, 8, seed=count) is None:
            refused += 1
        else:
            drawn += 1
    assert drawn + refused == sum(1 for _ in partitions(count))
    if count < 9:  # 8 rounds need at least 9 teams (8 opponents, or 7 and a bye)
        assert drawn == 0
    if count >= 17:  # 3 sections of near-equal size always work from here
        assert drawn > refused


@pytest.mark.parametrize("rounds", [1, 2, 3, 5, 7, 9, 11])
def test_every_split_of_up_to_14_teams_for_other_round_counts(rounds):
    for count in range(2, 15):
        for sizes in partitions(count):
            assert_drawn_or_refused(field(sizes), rounds, seed=rounds * 100 + count)


@pytest.mark.parametrize(
    ("sizes", "rounds"),
    [
        ((4, 4, 4), 8),  # per-round pairing elsewhere fails 27% of the time
        ((6, 4, 4), 8),  # … and 76% of the time
        ((7, 7, 2), 8),  # only one team of the small section may meet A per round
        ((2, 2, 2), 3),  # a spread-first pass leaves two triangles every time
        ((7, 7, 1, 1), 8),
        ((6, 4, 3), 8),  # odd: every team of the six has the bye once
    ],
)
def test_known_traps_are_drawn_for_every_seed(sizes, rounds):
    teams = field(sizes)
    for seed in range(200):
        draw = draw_league(teams, rounds, seed)
        assert check_draw(teams, rounds, draw.rounds) == []


# The feasibility check, in an organizer's words
# ----------------------------------------------------------------------------------


def named(teams, names):
    return [replace(t, section=names[t.section]) for t in teams]


def test_a_section_with_more_than_half_of_the_teams_is_named():
    teams = named(field((26, 22)), {"S0": "Tri-State", "S1": "Texas"})
    problems = draw_problems(teams, 8)
    assert [p.code for p in problems] == ["section_too_large"]
    assert problems[0].params == {"section": "Tri-State", "teams": 26, "limit": 24}
    assert "section Tri-State has 26 of the 48 teams; at most 24 can be drawn" in (
        problems[0].message
    )
    assert "Move 2 teams" in problems[0].message


def test_with_an_odd_count_the_bye_makes_room_for_one_more():
    assert draw_problems(field((24, 23)), 8) == []  # 48 places with the bye
    problems = draw_problems(field((25, 22)), 8)
    assert problems[0].params["limit"] == 24
    assert "counting the bye" in problems[0].message


def test_too_few_outside_opponents_for_the_rounds():
    teams = named(field((7, 6)), {"S0": "Texas", "S1": "Chicago"})
    problems = draw_problems(teams, 8)
    assert [p.code for p in problems] == ["too_few_opponents"]
    assert problems[0].params == {"section": "Texas", "opponents": 7, "rounds": 8}
    assert "can meet only 6 teams from other sections or a bye" in problems[0].message
    assert "Draw at most 7 rounds" in problems[0].message


def test_the_largest_sections_together_can_crowd_out_the_rest():
    """6/6/1 over 8 rounds: each team of the sixes has exactly 8 outside opponents
    (with the bye), so the lone team would have to play 12 matches."""
    teams = named(field((6, 6, 1)), {"S0": "Texas", "S1": "Chicago", "S2": "Ohio"})
    problems = draw_problems(teams, 8)
    assert [p.code for p in problems] == ["sections_too_large"]
    assert problems[0].params["sections"] == ["Chicago", "Texas"]
    assert "need at least 24 matches against the other 1 team and the bye" in (
        problems[0].message
    )
    assert draw_problems(field((6, 6, 1)), 7) == []


def test_when_every_team_would_need_the_bye_the_message_says_so():
    problems = draw_problems(field((3, 3, 3)), 7)
    assert problems[0].code == "sections_too_large"
    assert "need at least 9 byes, and a round has one bye (7 in all)" in (
        problems[0].message
    )


def test_one_section_and_too_few_teams():
    assert draw_problems(field((5,)), 3)[0].code == "one_section"
    assert draw_problems(field((1,)), 3)[0].code == "too_few_teams"
    assert draw_problems([], 3)[0].code == "too_few_teams"
    assert draw_problems(field((1, 1)), 0)[0].code == "no_rounds"


def test_nothing_is_drawn_when_the_check_refuses():
    with pytest.raises(DrawError) as refused:
        draw_league(field((26, 22)), 8, seed=1)
    assert refused.value.code == "section_too_large"
    assert refused.value.status == 400


# Random fields: hypothesis
# ----------------------------------------------------------------------------------

fields = st.lists(st.integers(1, 30), min_size=1, max_size=9).map(
    lambda sizes: field(sorted(sizes, reverse=True), start=1000, step=7)
)


@settings(max_examples=300, deadline=None)
@given(teams=fields, rounds=st.integers(1, 12), seed=st.integers(0, 2**63 - 1))
def test_any_field_is_drawn_validly_or_refused_with_a_reason(teams, rounds, seed):
    assert_drawn_or_refused(teams, rounds, seed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(teams=fields, seed=st.integers(0, 2**32), order=st.randoms())
def test_the_same_teams_and_seed_give_the_same_draw(teams, seed, order):
    if draw_problems(teams, 8):
        return
    shuffled = teams[:]
    order.shuffle(shuffled)  # the order teams arrive in does not matter
    assert draw_league(shuffled, 8, seed) == draw_league(teams, 8, seed)


def test_another_seed_gives_another_draw():
    teams = field((10, 8, 7, 6, 6, 6, 5))
    draws = {draw_league(teams, 8, seed).rounds for seed in range(20)}
    assert len(draws) == 20


def test_a_pinned_draw_is_the_same_on_every_machine():
    """blake2b over team keys, not Python's hash or random: this draw is the same on
    any machine and any Python. If it changes, the algorithm changed: bump
    ALGORITHM, since stored seeds would no longer reproduce their draws."""
    draw = draw_league([DrawTeam(k, "ABC"[k % 3]) for k in range(1, 13)], 8, 2026)
    first = [(p.table, p.team_a, p.team_b) for p in draw.rounds[0].pairings]
    assert first == [
        (1, 10, 6),
        (2, 4, 2),
        (3, 12, 8),
        (4, 9, 11),
        (5, 5, 1),
        (6, 7, 3),
    ]
    digest = hashlib.sha256(repr(draw.rounds).encode()).hexdigest()
    assert digest == "2fe597568c9572fb7afb7f6577ca010dc3a1f2be9d580ee5a1116dbdce26b9b4"
    assert ALGORITHM == "56-draw/1"


# Adversarial fields up to 500 teams
# ----------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [9, 17, 33, 64, 101, 250, 499, 500])
@pytest.mark.parametrize("below_half", [0, 1, 2, 4, 7])
def test_a_large_section_at_or_just_below_half_of_the_places(count, below_half):
    """The tightest fields DRAW.md knows: one section of exactly half the places (the
    rest must all meet it every round), or up to 7 below it, the band where no proof
    covers a round-by-round matcher."""
    places = count + count % 2
    big = places // 2 - below_half
    rest = count - big
    sizes = (big, *([rest // 3 + 1] * (rest % 3)), *([rest // 3] * (3 - rest % 3)))
    sizes = tuple(s for s in sizes if s)
    for seed in range(3):
        assert_drawn_or_refused(field(sizes), 8, seed)


def test_two_sections_of_exactly_half_make_a_bipartite_league():
    teams = field((20, 20))
    draw = draw_league(teams, 8, seed=3)
    assert check_draw(teams, 8, draw.rounds) == []
    section = {t.key: t.section for t in teams}
    assert all(
        section[p.team_a] != section[p.team_b] for r in draw.rounds for p in r.pairings
    )


@pytest.mark.parametrize("count", [47, 48, 128, 499, 500])
def test_realistic_uneven_fields_are_drawn_and_spread(count):
    rng = random.Random(count)
    weights = [25, 14, 12, 10, 8, 7, 6, 5, 4, 3, 2, 2, 1, 1]
    teams = [
        DrawTeam(k, f"S{rng.choices(range(len(weights)), weights)[0]}")
        for k in range(count)
    ]
    draw = draw_league(teams, 8, seed=count)
    assert check_draw(teams, 8, draw.rounds) == []
    spread = draw_spread(teams, draw.rounds)
    # A quarter of the field is one section, so meeting it two or three times is
    # forced (its teams play all their matches outside it: `meetings` is that
    # average); the spread keeps every team within one match of it.
    forced = max(mean for _, mean in spread.meetings)
    assert spread.most_from_one_section <= math.ceil(forced) + 1


def test_the_spread_preference_spreads_opponents_over_more_sections():
    from scoring.domain import draw as module

    teams = field((10, 8, 7, 6, 6, 6, 5))
    spread, plain = [], []
    for seed in range(10):
        f = module._Field(teams, 8)
        for wanted, out in ((True, spread), (False, plain)):
            mates = None
            for attempt in range(0, 40, 2):  # even attempts: one setting throughout
                try:
                    mates = module._by_matching(f, seed, attempt, spread=wanted)
                    break
                except module._DeadEnd:
                    continue
            assert mates is not None
            rounds = module._rounds(f, mates, seed)
            out.append(draw_spread(teams, rounds).mean_sections_met)
    assert sum(spread) / len(spread) > sum(plain) / len(plain) + 0.5


# What a draw looks like
# ----------------------------------------------------------------------------------


def test_odd_count_one_bye_per_round_never_two_for_a_team():
    teams = field((5, 4, 3, 3))  # 15 teams
    draw = draw_league(teams, 8, seed=11)
    byes = [r.bye for r in draw.rounds]
    assert None not in byes
    assert len(set(byes)) == 8
    assert all(len(r.pairings) == 7 for r in draw.rounds)


def test_tables_are_numbered_and_a_and_b_are_even():
    teams = field((12, 10, 9, 8, 7, 2))
    draw = draw_league(teams, 8, seed=5)
    as_a = dict.fromkeys((t.key for t in teams), 0)
    for rnd in draw.rounds:
        assert [p.table for p in rnd.pairings] == list(range(1, 25))
        for p in rnd.pairings:
            as_a[p.team_a] += 1
    assert min(as_a.values()) >= 3
    assert max(as_a.values()) <= 5


def test_opponents_lists_each_teams_matches_in_round_order():
    teams = field((3, 3, 3))
    draw = draw_league(teams, 5, seed=2)
    met = opponents(draw.rounds)
    assert set(met) == {t.key for t in teams}
    assert all(len(v) == 5 for v in met.values())
    assert sum(v.count(None) for v in met.values()) == 5  # one bye per round


# The checker: every rule, broken once
# ----------------------------------------------------------------------------------


def test_the_checker_finds_every_broken_rule():
    teams = field((2, 2))  # keys 1, 2 in S0; 3, 4 in S1
    good = [
        DrawRound(1, (Pairing(1, 1, 3), Pairing(2, 2, 4))),
        DrawRound(2, (Pairing(1, 1, 4), Pairing(2, 2, 3))),
    ]
    assert check_draw(teams, 2, good) == []

    def broken(*rounds, count=2):
        return " | ".join(check_draw(teams, count, rounds))

    same_section = DrawRound(2, (Pairing(1, 1, 2), Pairing(2, 3, 4)))
    assert "both in section S0" in broken(good[0], same_section)
    again = DrawRound(2, (Pairing(1, 1, 3), Pairing(2, 2, 4)))
    assert "met already in round 1" in broken(good[0], again)
    twice = DrawRound(2, (Pairing(1, 1, 4), Pairing(2, 1, 3)))
    assert "team 1 plays twice" in broken(good[0], twice)
    assert "teams 2 have no match and no bye" in broken(good[0], twice)
    stranger = DrawRound(2, (Pairing(1, 1, 4), Pairing(2, 2, 99)))
    assert "team 99 is not in the tournament" in broken(good[0], stranger)
    tables = DrawRound(2, (Pairing(1, 1, 4), Pairing(3, 2, 3)))
    assert "tables are [1, 3]" in broken(good[0], tables)
    assert "the league has rounds 1 to 3" in broken(*good, count=3)
    bye = DrawRound(2, (Pairing(1, 1, 4),), bye=2)
    assert "a bye, though the count of teams is even" in broken(good[0], bye)


def test_the_checker_counts_byes_of_an_odd_field():
    teams = field((2, 1))  # 1, 2 in S0; 3 in S1
    first = DrawRound(1, (Pairing(1, 1, 3),), bye=2)
    assert check_draw(teams, 2, [first, DrawRound(2, (Pairing(1, 2, 3),), bye=1)]) == []
    assert "second bye (the first in round 1)" in " ".join(
        check_draw(teams, 2, [first, DrawRound(2, (Pairing(1, 1, 3),), bye=2)])
    )
    assert "no bye, though the count of teams is odd" in " ".join(
        check_draw(teams, 2, [first, DrawRound(2, (Pairing(1, 2, 3),))])
    )
