"""Bracket size, seeding order and byes (rules.md §6)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brackets.domain.seeding import (
    bracket_size,
    byes,
    first_round,
    seed_order,
    stage_deals,
    stage_keys,
)
from tournament.domain.errors import RuleError


def test_twenty_four_qualifiers_as_the_rule_book_lists_them():
    assert bracket_size(24) == 32
    assert byes(24) == [1, 2, 3, 4, 5, 6, 7, 8]
    played = sorted(pair for pair in first_round(24) if pair[1] is not None)
    # rules.md §6: 9-24, 10-23, 11-22, 12-21, 13-20, 14-19, 15-18, 16-17.
    assert played == [(9 + k, 24 - k) for k in range(8)]


@pytest.mark.parametrize(
    ("qualifiers", "size", "bye_count", "matches"),
    [(24, 32, 8, 8), (16, 16, 0, 8), (12, 16, 4, 4), (9, 16, 7, 1), (2, 2, 0, 1)],
)
def test_sizes_byes_and_first_round_matches(qualifiers, size, bye_count, matches):
    pairs = first_round(qualifiers)
    assert bracket_size(qualifiers) == size
    assert len(pairs) == size // 2
    assert len(byes(qualifiers)) == bye_count
    assert sum(1 for _, low in pairs if low is not None) == matches
    assert sorted(high for high, low in pairs if low is None) == byes(qualifiers)


def test_nine_qualifiers_play_one_first_round_match():
    assert [p for p in first_round(9) if p[1] is not None] == [(8, 9)]


def test_the_standard_order_of_eight():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@given(st.integers(2, 256))
def test_byes_go_to_the_top_seeds_and_every_seed_has_one_place(qualifiers):
    size = bracket_size(qualifiers)
    assert size // 2 < qualifiers <= size
    pairs = first_round(qualifiers)
    placed = sorted(s for pair in pairs for s in pair if s is not None)
    assert placed == list(range(1, qualifiers + 1))
    with_bye = sorted(high for high, low in pairs if low is None)
    assert with_bye == list(range(1, size - qualifiers + 1))
    for high, low in pairs:
        if low is not None:
            assert high + low == size + 1  # the first round pairs s with P + 1 - s


@given(st.integers(1, 8))
def test_better_seeds_are_spread_apart(power):
    """Seeds 1..2^k sit in different blocks of size/2^k places: 1 and 2 meet only in
    the final, 1..4 only from the semi-finals on, and so on."""
    size = 2**power
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    for k in range(power + 1):
        block = size // 2**k
        top = [order.index(s) // block for s in range(1, 2**k + 1)]
        assert len(set(top)) == len(top)


def test_qualifiers_out_of_range_are_refused():
    with pytest.raises(RuleError) as error:
        bracket_size(1)
    assert error.value.code == "qualifiers_out_of_range"


def test_stage_deals_defaults_and_changes():
    assert stage_keys(24) == [
        "round_of_32",
        "round_of_16",
        "quarter_final",
        "semi_final",
        "second_runner_up",
        "final",
    ]
    assert stage_deals(24) == {
        "round_of_32": 18,
        "round_of_16": 18,
        "quarter_final": 18,
        "semi_final": 24,
        "second_runner_up": 24,
        "final": 18,
    }
    assert stage_deals(3) == {"semi_final": 24, "final": 18}
    assert stage_deals(8, {"final": 12})["final"] == 12
    with pytest.raises(RuleError) as error:
        stage_deals(8, {"round_of_16": 18})
    assert error.value.code == "unknown_stage"
    assert "quarter_final, semi_final, second_runner_up, final" in str(error.value)
    with pytest.raises(RuleError) as error:
        stage_deals(8, {"final": 97})
    assert error.value.code == "stage_deals_out_of_range"


@pytest.mark.parametrize(
    ("setting", "playing", "offered"),
    [(24, 23, 23), (24, 24, 24), (24, 40, 24), (24, None, 24), (8, 0, 0)],
)
def test_the_form_offers_no_more_qualifiers_than_can_play(setting, playing, offered):
    """Issue 52: 24 were offered when 23 could play, so the first click was
    refused; a seeded knockout (playing unknown) keeps the setting."""
    from brackets.domain.seeding import qualifiers_offered

    assert qualifiers_offered(setting, playing) == offered
