"""One set of round names (scoring/domain/rounds.py): the bracket's plan, the desk,
the screen, the Matches tab, the links and the match page all say the same."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brackets.domain.progression import plan_bracket
from scoring.domain.rounds import bracket_places, round_name


@given(st.integers(2, 256))
def test_every_knockout_round_is_called_what_the_bracket_calls_it(qualifiers):
    plan = plan_bracket(qualifiers)
    names: dict[int, list[str]] = {}
    for r in plan.rounds:
        names.setdefault(r.number, []).append(str(r.name))
    assert bracket_places(qualifiers) == plan.size
    for number, called in names.items():
        said = round_name("knockout", number, qualifiers)
        if called == ["Second runner-up match", "Final"]:
            assert said == "Final and second runner-up match"
        else:
            assert called == [said]
        assert "Knockout round" not in said


@pytest.mark.parametrize(
    ("qualifiers", "names"),
    [
        (
            24,
            [
                "First knockout round",
                "Round of 16",
                "Quarter-finals",
                "Semi-finals",
                "Final and second runner-up match",
            ],
        ),
        (
            16,
            [
                "Round of 16",
                "Quarter-finals",
                "Semi-finals",
                "Final and second runner-up match",
            ],
        ),
        (8, ["Quarter-finals", "Semi-finals", "Final and second runner-up match"]),
        (3, ["Semi-finals", "Final"]),
        (2, ["Final"]),
    ],
)
def test_the_names_players_use(qualifiers, names):
    assert [
        round_name("knockout", n, qualifiers) for n in range(1, len(names) + 1)
    ] == (names)


def test_a_league_round_and_a_round_outside_the_bracket():
    assert round_name("league", 3, 24) == "Round 3"
    assert round_name("knockout", 9, 8) == "Knockout round 9"
    assert round_name("knockout", 2, None) == "Knockout round 2"
    # The words are marked for the pages: the template and its holes.
    said = round_name("knockout", 1, 32)
    assert (said.template, said.params) == ("Round of %(places)s", {"places": 32})
