"""`python -m bench ratings` (bench/ratings.py): its federation plays what it says,
and its baselines score what a coin and a perfect order score."""

import random

from bench.ratings import (
    KNOCKOUT,
    ROUNDS,
    Federation,
    Forecast,
    Played,
    discordance,
)
from scoring.domain.ratings import Outcome, Rating, Ratings


def test_a_tournament_is_its_league_rounds_and_a_knockout_to_one_champion():
    federation = Federation(20, random.Random(1))
    played = federation.tournament()
    league = ROUNDS * 20 // 2
    assert len(played.matches) == league + KNOCKOUT - 1
    knockout = played.matches[league:]
    assert all(m.outcome is not Outcome.TIE for m in knockout)
    assert sorted(played.places.values()) == list(range(1, 21))
    # No team meets another twice in the league.
    pairs = [frozenset((m.team_a, m.team_b)) for m in played.matches[:league]]
    assert len(set(pairs)) == len(pairs)


def test_a_coin_misses_half_and_a_sure_forecast_scores_what_happened():
    matches = [
        Played(k, 1, 2, [1], [2], outcome)
        for k, outcome in enumerate([Outcome.A, Outcome.B, Outcome.TIE, Outcome.A])
    ]
    coin = Forecast("a coin", [0.5] * 4)
    assert coin.misses(matches) == 0.5
    assert coin.brier(matches) == 0.25 * 3 / 4
    sure = Forecast("sure", [1.0, 0.0, 1.0, 0.0])
    assert sure.misses(matches) == 1 / 3  # the last decided match missed
    assert sure.brier(matches) == (0 + 0 + 0.25 + 1) / 4


def test_the_order_figure_is_0_for_the_hidden_order_and_1_against_it():
    skill = {1: 2.0, 2: 1.0, 3: 0.0}
    same = Ratings(people={p: Rating(mu=25 + s, sigma=1.0) for p, s in skill.items()})
    against = Ratings(
        people={p: Rating(mu=25 - s, sigma=1.0) for p, s in skill.items()}
    )
    assert discordance(same, skill) == 0
    assert discordance(against, skill) == 1
