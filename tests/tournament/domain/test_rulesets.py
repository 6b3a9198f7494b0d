"""The rule sets of rules.md §1, checked against its table."""

import pytest

from tournament.domain.rulesets import (
    RULESETS,
    EqualTotals,
    LevelMode,
    RuleSetCode,
    ruleset_get,
)


@pytest.mark.parametrize(
    ("code", "source", "sizes", "deals", "mode", "doubled", "redoubled", "equal"),
    [
        ("international", "000", (3,), 18, LevelMode.ADD, 1, 2, EqualTotals.TIE),
        ("gcka", "004", (3,), 7, LevelMode.MULTIPLY, 2, 3, EqualTotals.MORE_DEALS_WON),
        ("online", "002", (2, 3, 4), 12, LevelMode.MULTIPLY, 2, 3, EqualTotals.TIE),
        ("classic", "001", (3, 4), 18, LevelMode.MULTIPLY, 2, 4, EqualTotals.TIE),
        (
            "tables",
            "003",
            (2, 3, 4),
            None,
            LevelMode.MULTIPLY,
            2,
            4,
            EqualTotals.TABLES,
        ),
    ],
)
def test_rule_sets_match_rules_md(
    code, source, sizes, deals, mode, doubled, redoubled, equal
):
    rules = ruleset_get(code)
    assert (rules.source, rules.team_sizes, rules.league_deals) == (
        source,
        sizes,
        deals,
    )
    assert (rules.level_mode, rules.doubled, rules.redoubled) == (
        mode,
        doubled,
        redoubled,
    )
    assert rules.equal_totals == equal
    assert (rules.league_rounds, rules.qualifiers) == (8, 24)
    assert rules.default_team_size in rules.team_sizes


def test_every_code_has_a_rule_set_and_unknown_codes_are_named():
    assert set(RULESETS) == set(RuleSetCode)
    with pytest.raises(KeyError, match="known: international, gcka"):
        ruleset_get("bridge")
