"""A season's points and standings (RULES.md §10, brackets/domain/seasons.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brackets.domain.seasons import (
    DEFAULT_POINTS,
    best_places,
    place_points,
    points_table,
    season_standings,
)


def test_the_default_table_scores_each_place_of_a_championship():
    table = points_table(None)
    assert table == DEFAULT_POINTS
    scored = {place: place_points(place, table) for place in (1, 2, 3, 4, 5, 8, 9)}
    assert scored == {1: 100, 2: 75, 3: 60, 4: 50, 5: 40, 8: 40, 9: 30}
    assert place_points(24, table) == 20  # the first knockout round's losers
    assert place_points(25, table) == 10  # the best team that did not qualify
    assert place_points(500, table) == 0


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ({2: 10}, "starts at place 1"),
        ({1: 10, 0: 5}, "counted from 1"),
        ({1: -1}, "0 or more"),
        ({1: 10, 5: 20}, "never scores more"),
    ],
)
def test_a_table_that_breaks_a_rule_is_refused_saying_which(raw, said):
    with pytest.raises(ValueError, match=said):
        points_table(raw)


TABLES = st.dictionaries(st.integers(2, 200), st.integers(0, 100), max_size=12).map(
    lambda extra: {1: 100, **{p: min(v, 100) for p, v in extra.items()}}
)


def _monotone(table):
    kept, last = {}, None
    for place in sorted(table):
        last = table[place] if last is None else min(last, table[place])
        kept[place] = last
    return kept


@given(TABLES.map(_monotone), st.integers(1, 300), st.integers(1, 300))
def test_a_better_place_never_scores_less(raw, one, other):
    table = points_table(raw)
    if one <= other:
        assert place_points(one, table) >= place_points(other, table)
    if one in table:
        assert place_points(one, table) == table[one]


@given(
    st.dictionaries(
        st.sampled_from(["spring", "summer", "autumn"]),
        st.dictionaries(st.integers(1, 30), st.integers(1, 60), max_size=20),
        max_size=3,
    )
)
def test_totals_add_each_tournaments_points_and_equal_totals_share_a_rank(places):
    names = {key: f"name {key % 7}" for key in range(1, 31)}
    rows = season_standings(places, names, DEFAULT_POINTS)
    entrants = {key for finished in places.values() for key in finished}
    assert {row.key for row in rows} == entrants
    for row in rows:
        assert row.points == {
            slug: place_points(finished[row.key], DEFAULT_POINTS)
            for slug, finished in places.items()
            if row.key in finished
        }
        assert row.total == sum(row.points.values())
    assert [row.total for row in rows] == sorted((r.total for r in rows), reverse=True)
    for n, row in enumerate(rows):
        if n and rows[n - 1].total == row.total:
            assert row.rank == rows[n - 1].rank
            assert (rows[n - 1].name, rows[n - 1].key) <= (row.name, row.key)
        else:
            assert row.rank == n + 1


def test_a_player_scores_his_teams_place_the_best_if_he_played_for_two():
    places = {10: 1, 20: 9, 30: 40}
    played = [(1, 10), (2, 20), (3, 20), (3, 30), (1, 10)]
    assert best_places(played, places) == {1: 1, 2: 9, 3: 9}
