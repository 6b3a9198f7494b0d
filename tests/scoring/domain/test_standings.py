"""The ranking of rules.md §5 as a pure function: hand-computed tables for every
tie-break level, byes, ties, and lots; hypothesis for the properties of any league."""

from collections import Counter
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.domain.rules import Side, decide
from scoring.domain.standings import (
    Absent,
    MatchResult,
    contenders,
    draw_lots,
    line_undecided,
    lot_key,
    places_to_decide,
    qualifying,
    rank_teams,
    settle,
    shown,
)

A, B = Side.A, Side.B


def won(a: int, b: int, total_a: int, total_b: int, confirmed=True) -> MatchResult:
    """team a beat team b, total_a to total_b"""
    assert total_a > total_b
    return MatchResult(a, b, total_a, total_b, A, confirmed)


def tied(a: int, b: int, total: int) -> MatchResult:
    return MatchResult(a, b, total, total, None)


def table(standings):
    return [(s.team, s.rank, s.r1, s.r2, s.r3, s.r4) for s in standings]


# Hand-computed tables, one per tie-break level
# ----------------------------------------------------------------------------------


def test_r1_decides_first():
    # 1 beats 2; 3 and 4 tie: 1 has 3 points, 3 and 4 one each, 2 none.
    got = rank_teams([1, 2, 3, 4], [won(1, 2, 20, 10), tied(3, 4, 15)])
    assert table(got) == [
        (1, 1, 3, 5, 10, 20),
        (3, 2, 1, 0, 0, 15),
        (4, 2, 1, 0, 0, 15),
        (2, 4, 0, 0, 0, 10),
    ]
    assert [(s.played, s.won, s.tied, s.lost) for s in got] == [
        (1, 1, 0, 0),
        (1, 0, 1, 0),
        (1, 0, 1, 0),
        (1, 0, 0, 1),
    ]


def test_equal_r1_split_by_r2():
    # Both win once. Team 1 wins by 4 (R2 4, R3 4); team 3 by 5 (R2 5, R3 5).
    # Team 1 has the larger R4 (30 v 25), but R2 comes first.
    got = rank_teams([1, 2, 3, 4], [won(1, 2, 30, 26), won(3, 4, 25, 20)])
    assert table(got)[:2] == [(3, 1, 3, 5, 5, 25), (1, 2, 3, 4, 4, 30)]


def test_equal_r1_r2_split_by_r3():
    # Both win by 5 or more: R2 is capped at 5 for both; R3 is 12 against 6.
    got = rank_teams([1, 2, 3, 4], [won(1, 2, 20, 14), won(3, 4, 24, 12)])
    assert table(got)[:2] == [(3, 1, 3, 5, 12, 24), (1, 2, 3, 5, 6, 20)]


def test_equal_r1_r3_split_by_r4():
    # Both win by 5: R1..R3 equal; R4 is the own total, 25 against 20.
    got = rank_teams([1, 2, 3, 4], [won(1, 2, 20, 15), won(3, 4, 25, 20)])
    assert table(got)[:2] == [(3, 1, 3, 5, 5, 25), (1, 2, 3, 5, 5, 20)]
    # ... and the losers are split by R4 alone: 20 against 15.
    assert table(got)[2:] == [(4, 3, 0, 0, 0, 20), (2, 4, 0, 0, 0, 15)]


def test_r4_counts_lost_and_tied_matches():
    # Team 1: won 20-15, lost 10-12, tied 9-9: R4 = 20 + 10 + 9 = 39.
    results = [won(1, 2, 20, 15), won(3, 1, 12, 10), tied(1, 4, 9)]
    row = next(s for s in rank_teams([1, 2, 3, 4], results) if s.team == 1)
    assert (row.r1, row.r2, row.r3, row.r4) == (4, 5, 5, 39)
    assert (row.played, row.won, row.tied, row.lost) == (3, 1, 1, 1)


def test_equal_on_all_four_share_a_rank():
    got = rank_teams([1, 2, 3, 4, 5], [won(1, 2, 25, 20), won(3, 4, 25, 20)])
    assert [(s.team, s.rank, s.place) for s in got] == [
        (1, 1, 1),
        (3, 1, 2),
        (2, 3, 3),
        (4, 3, 4),
        (5, 5, 5),  # played nothing
    ]


def test_a_league_of_six_over_three_rounds():
    """A whole small league, worked out by hand (totals as 18-deal sheets give)."""
    results = [
        # round 1
        won(1, 2, 30, 22),  # 1: +8
        won(3, 4, 27, 24),  # 3: +3
        tied(5, 6, 25),
        # round 2
        won(1, 3, 26, 25),  # 1: +1
        won(4, 5, 33, 20),  # 4: +13
        won(6, 2, 28, 21),  # 6: +7
        # round 3
        won(2, 5, 29, 24),  # 2: +5
        won(6, 3, 26, 23),  # 6: +3
        won(4, 1, 27, 27 - 2),  # 4: +2
    ]
    got = rank_teams(range(1, 7), results)
    #   team  R1        R2            R3          R4
    # 6: 1+3+3=7   5+3=8       7+3=10      25+28+26=79
    # 1: 3+3+0=6   5+1=6       8+1=9       30+26+25=81
    # 4: 0+3+3=6   5+2=7       13+2=15     24+33+27=84
    # 2: 0+0+3=3   5           5           22+21+29=72
    # 3: 3+0+0=3   3           3           27+25+23=75
    # 5: 1+0+0=1   0           0           25+20+24=69
    assert table(got) == [
        (6, 1, 7, 8, 10, 79),
        (4, 2, 6, 7, 15, 84),
        (1, 3, 6, 6, 9, 81),
        (2, 4, 3, 5, 5, 72),
        (3, 5, 3, 3, 3, 75),
        (5, 6, 1, 0, 0, 69),
    ]


# Byes
# ----------------------------------------------------------------------------------


def test_a_bye_is_a_win_and_the_own_average_for_r2_to_r4():
    # Team 1 played two: won 20-12 (R2 5, R3 8) and lost 15-18. One bye.
    # The bye adds R1 3 and, for R2..R4, the average per played match.
    got = rank_teams([1, 2, 3], [won(1, 2, 20, 12), won(3, 1, 18, 15)], byes=[1])
    one = next(s for s in got if s.team == 1)
    # rules.md §9: played and won count the bye too.
    assert (one.played, one.won, one.lost, one.byes) == (3, 2, 1, 1)
    assert one.r1 == 6
    assert one.r2 == 5 + Fraction(5, 2)
    assert one.r3 == 8 + Fraction(8, 2)
    assert one.r4 == 35 + Fraction(35, 2)


def test_a_bye_before_any_match_gives_match_points_only():
    got = rank_teams([1, 2], [], byes=[1])
    assert table(got) == [(1, 1, 3, 0, 0, 0), (2, 2, 0, 0, 0, 0)]


def test_bye_averages_are_exact_fractions():
    # Three played (R4 10 + 11 + 12 = 33... made uneven: 10 + 11 + 13 = 34), one bye:
    # 34 + 34/3, not rounded.
    results = [won(1, 2, 10, 9), won(1, 3, 11, 10), won(1, 4, 13, 12)]
    one = rank_teams([1, 2, 3, 4], results, byes=[1])[0]
    assert one.r4 == Fraction(34 * 4, 3)
    assert one.r2 == one.r3 == 3 + 1


# Ties, provisional rows
# ----------------------------------------------------------------------------------


def test_a_tie_is_one_match_point_each_and_no_difference():
    got = rank_teams([1, 2], [tied(1, 2, 24)])
    assert table(got) == [(1, 1, 1, 0, 0, 24), (2, 1, 1, 0, 0, 24)]


def test_a_winner_on_equal_totals_counts_a_difference_of_nothing():
    # gcka: equal totals, the side with more deals won wins (rules.md §1).
    got = rank_teams([1, 2], [MatchResult(1, 2, 20, 20, A)])
    assert table(got) == [(1, 1, 3, 0, 0, 20), (2, 2, 0, 0, 0, 20)]


def test_rows_with_an_unconfirmed_match_are_provisional():
    results = [won(1, 2, 20, 10), won(3, 4, 20, 10, confirmed=False)]
    got = {s.team: s.provisional for s in rank_teams([1, 2, 3, 4, 5], results)}
    assert got == {1: False, 2: False, 3: True, 4: True, 5: False}


def test_impossible_input_is_an_assertion():
    with pytest.raises(AssertionError):
        rank_teams([1], [won(1, 2, 20, 10)])  # 2 is not in the league
    with pytest.raises(AssertionError):
        MatchResult(1, 1, 20, 10, A)
    with pytest.raises(AssertionError):
        rank_teams([1, 2], [MatchResult(1, 2, 10, 20, A)])


# Lots
# ----------------------------------------------------------------------------------


def four_equal_pairs():
    """Teams 1..8: 1/3, 5/7 equal winners; 2/4, 6/8 equal losers."""
    return rank_teams(
        range(1, 9),
        [
            won(1, 2, 25, 20),
            won(3, 4, 25, 20),
            won(5, 6, 22, 18),
            won(7, 8, 22, 18),
        ],
    )


def test_lots_decide_only_groups_with_a_place_to_decide():
    standings = four_equal_pairs()
    assert [s.rank for s in standings] == [1, 1, 3, 3, 5, 5, 7, 7]
    # Three qualify: the pair at 1 is seeded by lot, the pair at 3 across the line.
    assert places_to_decide(standings, 3) == [[1, 3], [5, 7]]
    assert line_undecided(standings, 3) == [5, 7]
    lots = draw_lots(standings, seed=11, places=3)
    assert [s.lot for s in lots] == [True] * 4 + [False] * 4
    assert [s.place for s in lots] == list(range(1, 9))
    assert [s.rank for s in lots] == [1, 1, 3, 3, 5, 5, 7, 7]  # ranks stay shared
    assert line_undecided(lots, 3) == []
    first = sorted([1, 3], key=lambda t: lot_key(11, t))
    assert [s.team for s in lots[:2]] == first


def test_a_lot_is_the_same_for_the_same_seed_and_differs_between_seeds():
    standings = four_equal_pairs()
    orders = {
        tuple(s.team for s in draw_lots(standings, seed=seed, places=8))
        for seed in range(200)
    }
    assert len(orders) == 16  # each of 4 pairs either way round: all are reached
    again = draw_lots(standings, seed=7, places=8)
    assert again == draw_lots(standings, seed=7, places=8)


def test_no_lot_without_equal_teams_or_beyond_the_places():
    standings = four_equal_pairs()
    lots = draw_lots(standings, seed=3, places=0)
    assert lots == standings
    assert places_to_decide(standings, 0) == []


def test_draw_lots_needs_the_standings_in_order():
    standings = four_equal_pairs()
    with pytest.raises(AssertionError):
        draw_lots(list(reversed(standings)), seed=1, places=2)


# Properties of any league
# ----------------------------------------------------------------------------------


@st.composite
def leagues(draw):
    teams = draw(st.integers(2, 14))
    ids = draw(
        st.lists(st.integers(1, 10**6), min_size=teams, max_size=teams, unique=True)
    )
    results = []
    for _ in range(draw(st.integers(0, 30))):
        a, b = draw(st.lists(st.sampled_from(ids), min_size=2, max_size=2, unique=True))
        total_a, total_b = draw(st.integers(0, 60)), draw(st.integers(0, 60))
        if total_a == total_b:
            winner = draw(st.sampled_from([None, A, B]))  # gcka: by deals won
        else:
            winner = A if total_a > total_b else B
        results.append(MatchResult(a, b, total_a, total_b, winner, draw(st.booleans())))
    byes = draw(st.lists(st.sampled_from(ids), max_size=3))
    return ids, results, byes


@settings(max_examples=300, deadline=None)
@given(leagues())
def test_any_league_ranks_every_team_once_by_r1_to_r4(league):
    ids, results, byes = league
    got = rank_teams(ids, results, byes)
    assert sorted(s.team for s in got) == sorted(ids)
    assert [s.place for s in got] == list(range(1, len(ids) + 1))
    for s in got:
        # rank: one more than the teams strictly ahead on R1..R4
        assert s.rank == 1 + sum(o.key > s.key for o in got)
        assert s.r1 == 3 * s.won + s.tied  # won counts byes (rules.md §9)
        assert s.played == s.won + s.tied + s.lost
        assert 0 <= s.r2 <= s.r3 or s.r3 == s.r2 == 0
    for ahead, behind in pairwise(got):
        assert ahead.key >= behind.key
        assert (ahead.rank == behind.rank) == (ahead.key == behind.key)
    # Every match gives 3 match points (a win) or 2 (a tie); every bye 3.
    decided = sum(r.winner is not None for r in results)
    assert sum(s.r1 for s in got) == 3 * decided + 2 * (
        len(results) - decided
    ) + 3 * len(byes)
    # Without byes, R4 over the league is every total of every match.
    if not byes:
        assert sum(s.r4 for s in got) == sum(r.total_a + r.total_b for r in results)
    # A row is provisional exactly when one of its matches is unconfirmed.
    unconfirmed = {t for r in results if not r.confirmed for t in (r.team_a, r.team_b)}
    assert {s.team for s in got if s.provisional} == unconfirmed
    played = Counter(t for r in results for t in (r.team_a, r.team_b))
    played.update(byes)
    assert {s.team: s.played for s in got} == {t: played[t] for t in ids}


@settings(max_examples=200, deadline=None)
@given(leagues(), st.data())
def test_the_order_of_the_input_does_not_matter(league, data):
    ids, results, byes = league
    shuffled = data.draw(st.permutations(results))
    teams = data.draw(st.permutations(ids))
    assert rank_teams(teams, shuffled, byes) == rank_teams(ids, results, byes)


@settings(max_examples=300, deadline=None)
@given(leagues(), st.integers(0, 2**63 - 1), st.integers(0, 16))
def test_lots_move_teams_only_among_equals_above_the_places(league, seed, places):
    ids, results, byes = league
    standings = rank_teams(ids, results, byes)
    lots = draw_lots(standings, seed=seed, places=places)
    assert [s.place for s in lots] == list(range(1, len(ids) + 1))
    assert [s.key for s in lots] == [s.key for s in standings]
    assert [s.rank for s in lots] == [s.rank for s in standings]
    decided = {t for group in places_to_decide(standings, places) for t in group}
    assert {s.team for s in lots if s.lot} == decided
    for s in lots:
        if not s.lot:
            assert standings[s.place - 1].team == s.team  # not moved
    # Within the first `places`, no two teams share a place, and nobody is left
    # equal across the line.
    assert line_undecided(lots, places) == []
    # Same seed, same lots; the lot's order is the seed's hash order.
    assert draw_lots(standings, seed=seed, places=places) == lots
    for group in places_to_decide(standings, places):
        placed = [s.team for s in lots if s.team in group]
        assert placed == sorted(group, key=lambda t: lot_key(seed, t))


@settings(max_examples=300, deadline=None)
@given(
    leagues(),
    st.one_of(st.none(), st.integers(0, 2**63 - 1)),
    st.integers(0, 16),
    st.lists(st.integers(1, 10**6), max_size=3),
)
def test_lots_wait_for_the_end(league, seed, places, gone):
    """rules.md §9: while the league is in play nothing is decided by lot, whatever
    lot was recorded (a sheet reopened after it): ranks stay shared, nobody is to
    decide, and teams equal across the line are shown equal (None), not placed."""
    ids, results, byes = league
    standings = rank_teams(ids, results, byes, withdrawn=set(gone) & set(ids))
    live = settle(standings, places=places, final=False, seed=seed)
    assert live.to_decide == []
    assert live.rows == standings
    assert not any(s.lot for s in live.rows)
    across = set(line_undecided(standings, places))
    assert {t for t, q in live.qualifies.items() if q is None} == across
    for place, s in contenders(standings):
        if s.team not in across:
            assert live.qualifies[s.team] is (place <= places)
    # Every team equal across the line shares its rank with one on the other side.
    for team in across:
        rank = next(s.rank for s in standings if s.team == team)
        sides = {live.qualifies[s.team] for s in standings if s.rank == rank}
        assert None in sides
    # Final: the groups wait for a lot; once drawn, it orders them and the line.
    final = settle(standings, places=places, final=True, seed=seed)
    assert final.to_decide == places_to_decide(standings, places)
    if seed is None:
        assert final.rows == standings
    else:
        assert final.rows == draw_lots(standings, seed=seed, places=places)
        assert None not in final.qualifies.values()


def test_one_round_in_no_lot_decides_the_seven_teams_at_zero():
    """The issue's league after one round: seven losers level at 0, the line
    through them. They are tied there, and nobody is to be decided."""
    ids = list(range(1, 15))
    results = [won(a, a + 7, 20 + a, 10) for a in range(1, 8)]
    standings = rank_teams(ids, results)
    live = settle(standings, places=10, final=False, seed=None)
    assert live.to_decide == []
    assert [live.qualifies[t] for t in range(8, 15)] == [None] * 7
    assert all(live.qualifies[t] for t in range(1, 8))
    assert {s.rank for s in live.rows if s.team > 7} == {8}


# A sheet's stored result, ranked
# ----------------------------------------------------------------------------------


def test_a_gcka_match_on_equal_totals_goes_to_more_deals_won():
    """004: A takes 4 in one deal (a 56 made), B 2 and 2 in two (40s made): 4-4 on
    totals, B won two deals to one, so B wins; international calls it a tie."""
    from tournament.domain.rulesets import ruleset_get

    # The sheet decides (and stores) the winner; the standings rank what it stored.
    winner, _ = decide(ruleset_get("gcka"), 4, 4, 1, 2)
    assert winner is B
    assert decide(ruleset_get("international"), 4, 4, 1, 2)[0] is None
    gcka = MatchResult(1, 2, 4, 4, winner)
    got = rank_teams([1, 2], [gcka])
    assert [(s.team, s.r1, s.r2, s.r3) for s in got] == [(2, 3, 0, 0), (1, 0, 0, 0)]


def test_qualifying_leaves_teams_equal_across_the_line_open_until_a_lot():
    standings = four_equal_pairs()  # ranks 1 1 3 3 5 5 7 7
    assert (
        list(qualifying(standings, 3).values())
        == [True, True, None, None] + [False] * 4
    )
    lots = draw_lots(standings, seed=9, places=3)
    assert list(qualifying(lots, 3).values()) == [True] * 3 + [False] * 5
    assert all(qualifying(standings, 8).values())


def test_r2_to_r4_are_shown_whole_or_to_two_decimals():
    assert shown(32) == 32 and isinstance(shown(32), int)
    assert shown(Fraction(64, 2)) == 32 and isinstance(shown(Fraction(64, 2)), int)
    assert shown(Fraction(98, 3)) == 32.67
    assert shown(Fraction(15, 2)) == 7.5


# Forfeits and withdrawals (rules.md §9)
# ----------------------------------------------------------------------------------


def forfeit(a: int, b: int, absent: Absent, confirmed=True) -> MatchResult:
    return MatchResult(a, b, 0, 0, absent.present, confirmed, absent)


def test_a_forfeit_win_counts_as_a_bye_and_a_forfeit_loss_as_a_zero():
    # Team 1: won 20-12, lost 15-18, and team 4 did not come to its third match.
    # Team 4: lost that match with 0, and played 30-26 against team 2 (won).
    results = [
        won(1, 2, 20, 12),
        won(3, 1, 18, 15),
        forfeit(1, 4, Absent.B),
        won(4, 2, 30, 26),
    ]
    got = {s.team: s for s in rank_teams([1, 2, 3, 4], results)}
    one, four = got[1], got[4]
    assert (one.played, one.won, one.lost, one.forfeits_won) == (3, 2, 1, 1)
    assert one.r1 == 6
    assert (one.r2, one.r3, one.r4) == (
        5 + Fraction(5, 2),
        8 + Fraction(8, 2),
        35 + Fraction(35, 2),
    )
    # The forfeit loss is a match played, lost, with a total of 0: R4 30 + 0,
    # and no own average is added.
    assert (four.played, four.won, four.lost, four.forfeits_lost) == (2, 1, 1, 1)
    assert (four.r1, four.r2, four.r3, four.r4) == (3, 4, 4, 30)


def test_a_forfeit_win_after_a_forfeit_loss_averages_over_both():
    # Team 1 lost a forfeit (0) and won 20-10 at a table, then won a forfeit:
    # its own average is (20 + 0) / 2 = 10 for R4, 5 / 2 for R2, 10 / 2 for R3.
    results = [
        forfeit(1, 2, Absent.A),
        won(1, 3, 20, 10),
        forfeit(4, 1, Absent.A),
    ]
    one = next(s for s in rank_teams([1, 2, 3, 4], results) if s.team == 1)
    assert (one.played, one.won, one.lost) == (3, 2, 1)
    assert (one.r1, one.r2, one.r3, one.r4) == (6, 5 + Fraction(5, 2), 15, 30)


def test_both_absent_both_lose_and_nobody_wins():
    got = {s.team: s for s in rank_teams([1, 2], [forfeit(1, 2, Absent.BOTH)])}
    for s in got.values():
        assert (s.played, s.won, s.lost, s.r1, s.r4, s.forfeits_lost) == (
            1,
            0,
            1,
            0,
            0,
            1,
        )


def test_a_forfeit_must_name_the_present_team_as_its_winner():
    with pytest.raises(AssertionError):
        MatchResult(1, 2, 0, 0, A, True, Absent.A)
    with pytest.raises(AssertionError):
        MatchResult(1, 2, 3, 0, A, True, Absent.B)
    with pytest.raises(AssertionError):
        MatchResult(1, 2, 0, 0, A, True, Absent.BOTH)


def test_a_withdrawn_team_keeps_its_rank_but_the_line_passes_over_it():
    # Team 1 withdrew after winning twice; it stays first, the two qualifying
    # places go to the next two teams.
    results = [won(1, 2, 20, 10), won(1, 3, 20, 10), won(2, 3, 20, 10)]
    got = rank_teams([1, 2, 3, 4], results, withdrawn=[1])
    assert [s.team for s in got] == [1, 2, 3, 4]
    assert got[0].withdrawn and got[0].rank == 1
    assert qualifying(got, 2) == {1: False, 2: True, 3: True, 4: False}
    assert [(place, s.team) for place, s in contenders(got)] == [
        (1, 2),
        (2, 3),
        (3, 4),
    ]


def test_lots_are_drawn_only_among_teams_not_withdrawn():
    # Teams 1, 2, 3 equal; 1 withdrawn. Two places: 2 and 3 qualify with no lot
    # for who qualifies, but their seeds are decided by lot; 1 draws nothing.
    results = [tied(1, 2, 10), tied(2, 3, 10), tied(3, 1, 10)]
    got = rank_teams([1, 2, 3, 4], results, withdrawn=[1])
    assert places_to_decide(got, 2) == [[2, 3]]
    assert places_to_decide(got, 1) == [[2, 3]]
    assert line_undecided(got, 2) == []
    assert line_undecided(got, 1) == [2, 3]
    lots = draw_lots(got, seed=5, places=1)
    assert lots[2].team == 1 and not lots[2].lot  # after the teams the lot ordered
    assert {s.team for s in lots if s.lot} == {2, 3}
    assert list(qualifying(lots, 1).values()).count(True) == 1
    assert qualifying(lots, 1)[1] is False


@st.composite
def days(draw):
    """A league with any mix of played matches, forfeits (by A, B or both), byes and
    withdrawn teams."""
    ids, results, byes = draw(leagues())
    for _ in range(draw(st.integers(0, 8))):
        a, b = draw(st.lists(st.sampled_from(ids), min_size=2, max_size=2, unique=True))
        results.append(
            forfeit(a, b, draw(st.sampled_from(list(Absent))), draw(st.booleans()))
        )
    withdrawn = draw(st.lists(st.sampled_from(ids), unique=True, max_size=len(ids)))
    return ids, results, byes, withdrawn


@settings(max_examples=300, deadline=None)
@given(leagues(), st.data())
def test_a_forfeit_win_and_a_bye_rank_a_team_the_same(league, data):
    ids, results, byes = league
    team = data.draw(st.sampled_from(ids))
    opponent = data.draw(st.sampled_from([t for t in ids if t != team]))
    absent = Absent.B if data.draw(st.booleans()) else Absent.A
    pair = (team, opponent) if absent is Absent.B else (opponent, team)
    with_bye = rank_teams(ids, results, [*byes, team])
    with_forfeit = rank_teams(ids, [*results, forfeit(*pair, absent)], byes)
    row = next(s for s in with_bye if s.team == team)
    other = next(s for s in with_forfeit if s.team == team)
    assert (row.r1, row.r2, row.r3, row.r4) == (other.r1, other.r2, other.r3, other.r4)
    assert (row.played, row.won, row.tied, row.lost) == (
        other.played,
        other.won,
        other.tied,
        other.lost,
    )


@settings(max_examples=300, deadline=None)
@given(days(), st.integers(0, 2**63 - 1), st.integers(0, 16))
def test_standings_hold_their_invariants_on_any_day(day, seed, places):
    ids, results, byes, withdrawn = day
    got = rank_teams(ids, results, byes, withdrawn)
    assert sorted(s.team for s in got) == sorted(ids)
    assert [s.place for s in got] == list(range(1, len(ids) + 1))
    rounds = Counter(t for r in results for t in (r.team_a, r.team_b))
    rounds.update(byes)
    for s in got:
        assert s.rank == 1 + sum(o.key > s.key for o in got)
        assert s.r1 == 3 * s.won + s.tied
        assert s.played == s.won + s.tied + s.lost == rounds[s.team]
        assert s.withdrawn == (s.team in withdrawn)
        assert s.forfeits_won + s.byes <= s.won
        assert s.forfeits_lost <= s.lost
        assert s.r4 >= 0
    # Every result gives 3 match points to a winner, 1 each for a tie, 0 to both
    # absent; every bye 3.
    points = sum(3 if r.winner is not None else (0 if r.absent else 2) for r in results)
    assert sum(s.r1 for s in got) == points + 3 * len(byes)
    # After the lots, exactly the best `places` contenders qualify, never a
    # withdrawn team, and nobody is left equal across the line.
    lots = draw_lots(got, seed=seed, places=places)
    assert [s.key for s in lots] == [s.key for s in got]
    assert not any(s.lot and s.withdrawn for s in lots)
    after = qualifying(lots, places)
    assert line_undecided(lots, places) == []
    inside = [t for t, q in after.items() if q]
    assert len(inside) == min(places, len(ids) - len(withdrawn))
    assert not set(inside) & set(withdrawn)
    assert [s.team for _, s in contenders(lots)][: len(inside)] == [
        s.team for s in lots if s.team in inside
    ]
