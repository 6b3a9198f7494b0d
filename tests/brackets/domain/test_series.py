"""The final's best-of-three series (rules.md §6)."""

import itertools

import pytest

from brackets.domain.series import series_state
from scoring.domain.rules import Side

A, B = Side.A, Side.B


def test_a_new_series_plays_game_one():
    state = series_state([])
    assert (state.wins_a, state.wins_b, state.winner, state.next_game) == (
        0,
        0,
        None,
        1,
    )


def test_two_straight_wins_end_it_without_a_third_game():
    state = series_state([B, B])
    assert (state.winner, state.next_game) == (B, None)


def test_a_third_game_only_at_one_game_each():
    assert series_state([A, B]).next_game == 3
    assert series_state([A, B, A]).winner is A


def test_every_sequence_of_three_games():
    for games in itertools.product([A, B], repeat=3):
        first_two = series_state(games[:2])
        if first_two.winner:
            assert games[0] == games[1] == first_two.winner
            with pytest.raises(AssertionError):
                series_state(games)
        else:
            state = series_state(games)
            assert state.winner is games[2]
            assert state.wins(state.winner) == 2


def test_a_series_is_best_of_an_odd_number():
    with pytest.raises(AssertionError):
        series_state([], best_of=2)
    assert series_state([A], best_of=1).winner is A
