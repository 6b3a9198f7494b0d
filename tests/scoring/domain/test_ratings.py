"""The ratings' rule (RULES.md §10, scoring/domain/ratings.py), on any list of
matches: rating in parts is rating whole, to the bit; the sides are symmetric; a win
raises, a loss lowers; the display and its provisional mark."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.domain import ratings
from scoring.domain.ratings import (
    DISPLAY_BASE,
    NEWCOMER,
    PROVISIONAL_MATCHES,
    Outcome,
    RatedMatch,
    Rating,
    Ratings,
    rate,
    win_probability,
)

OUTCOMES = st.sampled_from(list(Outcome))


@st.composite
def matches(draw, people=12, most=40):
    """A list of matches among `people`, each two sides of 1 to 3 distinct players."""
    listed = []
    for key in range(draw(st.integers(0, most))):
        chosen = draw(
            st.lists(st.integers(1, people), min_size=2, max_size=6, unique=True)
        )
        cut = draw(st.integers(1, len(chosen) - 1))
        listed.append(RatedMatch(key, chosen[:cut], chosen[cut:], draw(OUTCOMES)))
    return listed


MIRROR = {Outcome.A: Outcome.B, Outcome.B: Outcome.A, Outcome.TIE: Outcome.TIE}


@given(matches(), st.data())
def test_rating_in_two_parts_is_rating_whole_to_the_bit(listed, data):
    """The worker rates each confirmed sheet from the stored ratings; the rebuild
    rates everything at once: the same floats."""
    cut = data.draw(st.integers(0, len(listed)))
    whole = rate(listed)
    first = rate(listed[:cut])
    second = rate(listed[cut:], start=first.people)
    assert second.people == whole.people
    assert first.steps + second.steps == whole.steps


@given(matches())
def test_the_same_matches_rate_the_same_whoever_lists_the_players(listed):
    shuffled = [
        RatedMatch(m.key, list(reversed(m.side_a)), list(reversed(m.side_b)), m.outcome)
        for m in listed
    ]
    assert rate(shuffled).people == rate(listed).people


@given(matches())
def test_sides_are_symmetric(listed):
    """Side A winning is side B winning with the sides swapped."""
    mirrored = [
        RatedMatch(m.key, m.side_b, m.side_a, MIRROR[m.outcome]) for m in listed
    ]
    one, other = rate(listed).people, rate(mirrored).people
    assert one.keys() == other.keys()
    for person, rating in one.items():
        assert math.isclose(rating.mu, other[person].mu, abs_tol=1e-9)
        assert math.isclose(rating.sigma, other[person].sigma, abs_tol=1e-9)
        assert rating.matches == other[person].matches


@given(matches(), st.lists(st.integers(1, 12), min_size=2, max_size=6, unique=True))
def test_a_win_raises_the_winners_and_lowers_the_losers(listed, chosen):
    before = rate(listed)
    cut = len(chosen) // 2
    match = RatedMatch(999, chosen[:cut], chosen[cut:], Outcome.A)
    after = rate([match], start=before.people)
    for person in match.side_a:
        assert after.of(person).mu > before.of(person).mu
    for person in match.side_b:
        assert after.of(person).mu < before.of(person).mu
    for person in chosen:
        assert after.of(person).matches == before.of(person).matches + 1
    # Nobody else moves.
    for person, rating in before.people.items():
        if person not in chosen:
            assert after.people[person] == rating


@given(matches())
def test_each_person_counts_the_matches_they_played(listed):
    ratings = rate(listed)
    for person, rating in ratings.people.items():
        played = sum(person in (*m.side_a, *m.side_b) for m in listed)
        assert rating.matches == played
        assert [s.match for s in ratings.steps if s.person == person] == [
            m.key for m in listed if person in (*m.side_a, *m.side_b)
        ]


def test_newcomers_who_tie_keep_their_mean_and_grow_surer():
    tied = rate([RatedMatch(1, [1, 2, 3], [4, 5, 6], Outcome.TIE)])
    for person in range(1, 7):
        assert tied.of(person).mu == pytest.approx(NEWCOMER.mu)
        assert tied.of(person).sigma < NEWCOMER.sigma


def test_the_display_is_the_conservative_skill_on_a_readable_scale():
    assert NEWCOMER.display == DISPLAY_BASE  # mu - 3 sigma = 0
    assert NEWCOMER.provisional
    assert Rating(mu=30.0, sigma=2.0, matches=PROVISIONAL_MATCHES).display == 1960
    assert not Rating(matches=PROVISIONAL_MATCHES).provisional
    assert Rating(matches=PROVISIONAL_MATCHES - 1).provisional
    assert Rating(mu=30.0, sigma=2.0).uncertainty == 240


@given(st.floats(0, 50), st.floats(0.5, 9), st.floats(0, 50), st.floats(0.5, 9))
def test_a_surer_or_stronger_rating_shows_higher(mu, sigma, other_mu, other_sigma):
    one, other = Rating(mu, sigma), Rating(other_mu, other_sigma)
    if one.conservative > other.conservative + 0.05:
        assert one.display >= other.display


def test_a_player_on_both_sides_or_a_side_without_players_is_refused():
    with pytest.raises(ValueError, match="both sides"):
        RatedMatch(1, [1, 2], [2, 3], Outcome.A)
    with pytest.raises(ValueError, match="without players"):
        RatedMatch(1, [], [2, 3], Outcome.A)
    with pytest.raises(ValueError, match="twice"):
        RatedMatch(1, [1, 1], [2, 3], Outcome.A)


@given(matches(), st.lists(st.integers(1, 12), min_size=2, max_size=6, unique=True))
def test_the_two_sides_chances_add_up_to_one(listed, chosen):
    ratings = rate(listed)
    cut = len(chosen) // 2
    a, b = chosen[:cut], chosen[cut:]
    assert 0 < win_probability(a, b, ratings) < 1
    assert win_probability(a, b, ratings) + win_probability(b, a, ratings) == (
        pytest.approx(1)
    )


def test_the_stronger_side_is_predicted_to_win():
    ratings = rate([RatedMatch(k, [1, 2, 3], [4, 5, 6], Outcome.A) for k in range(5)])
    assert win_probability([1, 2, 3], [4, 5, 6], ratings) > 0.5
    assert win_probability([4, 5, 6], [1, 2, 3], Ratings()) == pytest.approx(0.5)


_PLACES = st.tuples(
    st.dates().map(lambda d: d.isoformat()),
    st.integers(0, 10**6),
    st.booleans(),
    st.integers(0, 999),
    st.integers(0, 99_999),
    st.integers(0, 10**12),
)


@given(st.lists(_PLACES, min_size=2, max_size=30, unique_by=lambda p: p[-1]))
def test_a_position_sorts_as_the_ratings_order_does(places):
    """Day, tournament, league before knockout, round, table, sheet: the text sorts
    exactly as the tuple (RULES.md §10), so SQL can compare places."""
    by_text = sorted(places, key=lambda p: ratings.position(*p))
    assert by_text == sorted(places)


def test_a_position_out_of_its_range_is_refused():
    with pytest.raises(ValueError):
        ratings.position("2026-01-01", 1, False, 1000, 1, 1)
