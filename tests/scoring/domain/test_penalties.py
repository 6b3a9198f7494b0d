"""The penalties of rules.md §3 as amended, per rule set and per edition.

The reference below is written from the rule books' words (000 §3.2, §3.10, §4.2, §4.9,
§5.5; 004 §1.5-1.7; 001), not from the engine's code, and hypothesis holds the engine to
it over every rule set, both editions and any order of entry.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.domain.auction import auction_check, auction_parse, auction_settle
from scoring.domain.rules import (
    Deal,
    Edition,
    Level,
    Penalty,
    PenaltyKind,
    Side,
    Trump,
    score_penalties,
    score_sheet,
)
from tournament.domain.errors import RuleError
from tournament.domain.rulesets import RULESETS, ruleset_get

INTERNATIONAL = ruleset_get("international")
GCKA = ruleset_get("gcka")
CLASSIC = ruleset_get("classic")
K = PenaltyKind

# 004 §1.5 item 2 and §1.6: every offence is a point; 000 has its one-time warnings.
HAS_WARNINGS = {"international": True, "online": True, "classic": True, "tables": True}
HAS_WARNINGS["gcka"] = False
CONDUCT_MOST = {"gcka": 2}  # 004: "up to 2 points"; 000 sets none (5 here)


def reference(penalties, code, *, last_deal, edition):
    """What each penalty gives, by the books: {key: (points, warning)}."""
    warns = HAS_WARNINGS[code] or edition is Edition.FIRST
    seen = set()
    out = {}
    for p in sorted(penalties, key=lambda p: (p.deal, p.key)):
        if p.kind in (K.OUT_OF_TURN, K.LEAD_OUT_OF_TURN):
            # 000 §3.2 (bids, doubles, discards) and §4.2 (leads): two clauses, each
            # with its own first warning; none in the last deal (000 §4.9).
            first = (p.offender, p.kind) not in seen
            seen.add((p.offender, p.kind))
            warning = warns and first and p.deal < last_deal
            out[p.key] = (0, True) if warning else (1, False)
        elif p.kind is K.REVIEW:
            out[p.key] = (1, False)  # 000 §3.10: one point at once
        elif p.kind is K.CONDUCT:
            out[p.key] = (p.points, False)
        else:
            out[p.key] = (3, False)  # the deal, and three points more
    return out


codes = st.sampled_from(sorted(RULESETS))
kinds = st.sampled_from(list(PenaltyKind))


@st.composite
def penalty_lists(draw, code):
    most = CONDUCT_MOST.get(code, 5)
    out = []
    for key in range(1, draw(st.integers(0, 12)) + 1):
        kind = draw(kinds)
        points = draw(st.integers(0, most)) if kind is K.CONDUCT else None
        deal = draw(st.integers(1, 18))
        out.append(Penalty(key, deal, draw(st.sampled_from(Side)), kind, points))
    return out


@given(st.data(), codes, st.sampled_from(Edition))
def test_every_penalty_gives_what_the_books_say(data, code, edition):
    penalties = data.draw(penalty_lists(code))
    last = data.draw(st.integers(1, 18))
    rules = RULESETS[code]
    got = {
        r.key: (r.points, r.warning)
        for r in score_penalties(penalties, rules, last_deal=last, edition=edition)
    }
    assert got == reference(penalties, code, last_deal=last, edition=edition)
    # Whatever the rule set, penalty points go to the team that did not offend.
    results = score_penalties(penalties, rules, last_deal=last, edition=edition)
    offender = {p.key: p.offender for p in penalties}
    assert all(r.award_to is offender[r.key].other for r in results)


@given(st.data(), codes)
def test_the_editions_differ_only_in_gcka_warnings(data, code):
    penalties = data.draw(penalty_lists(code))
    rules = RULESETS[code]
    first = score_penalties(penalties, rules, last_deal=18, edition=Edition.FIRST)
    current = score_penalties(penalties, rules, last_deal=18)
    if code != "gcka":
        assert first == current


def _p(key, deal, side, kind, points=None):
    return Penalty(key, deal, Side(side), kind, points)


def test_gcka_has_no_warning_every_offence_is_a_point():
    results = score_penalties(
        [_p(1, 1, "A", K.OUT_OF_TURN), _p(2, 2, "B", K.LEAD_OUT_OF_TURN)],
        GCKA,
        last_deal=7,
    )
    assert [(r.award_to, r.points, r.warning) for r in results] == [
        ("B", 1, False),
        ("A", 1, False),
    ]


def test_a_gcka_sheet_of_the_first_edition_keeps_its_warning():
    (result,) = score_penalties(
        [_p(1, 1, "A", K.OUT_OF_TURN)], GCKA, last_deal=7, edition=Edition.FIRST
    )
    assert (result.points, result.warning) == (0, True)


def test_a_lead_out_of_turn_has_its_own_first_warning():
    results = score_penalties(
        [
            _p(1, 2, "A", K.OUT_OF_TURN),
            _p(2, 3, "A", K.LEAD_OUT_OF_TURN),
            _p(3, 4, "A", K.LEAD_OUT_OF_TURN),
            _p(4, 5, "A", K.OUT_OF_TURN),
        ],
        INTERNATIONAL,
        last_deal=18,
    )
    assert [(r.points, r.warning) for r in results] == [
        (0, True),
        (0, True),
        (1, False),
        (1, False),
    ]


def test_the_review_is_one_point_at_once_and_uses_no_warning():
    results = score_penalties(
        [_p(1, 2, "B", K.REVIEW), _p(2, 3, "B", K.OUT_OF_TURN)],
        INTERNATIONAL,
        last_deal=18,
    )
    assert [(r.award_to, r.points, r.warning) for r in results] == [
        ("A", 1, False),
        ("A", 0, True),
    ]


def test_the_last_deal_has_no_warning_for_a_lead_either():
    (result,) = score_penalties(
        [_p(1, 18, "A", K.LEAD_OUT_OF_TURN)], INTERNATIONAL, last_deal=18
    )
    assert (result.points, result.warning) == (1, False)


def test_kallakali_000_5_5_example():
    # 40 clubs by A; B catches a kallakali: B receives 3 + 3 = 6.
    deal = Deal(1, Side.A, 40, Trump.CLUBS, Level.NONE, 40)
    sheet = score_sheet(
        INTERNATIONAL, [deal], [_p(1, 1, "A", K.KALLAKALI)], deals_scheduled=18
    )
    assert (sheet.total_a, sheet.total_b) == (0, 6)


@pytest.mark.parametrize("rules", list(RULESETS.values()), ids=lambda r: r.code)
def test_two_awarding_offences_in_one_deal_are_both_penalized(rules):
    # Both teams revoke: the deal goes to the team that did not offend first (the
    # first entered); each offence still gives its 3 points to the other team.
    deal = Deal(1, Side.A, 40, Trump.HEARTS, Level.NONE, 44)
    penalties = [_p(1, 1, "B", K.CARDINAL_RULE), _p(2, 1, "A", K.KALLAKALI)]
    scheduled = 18 if rules.league_deals else None
    sheet = score_sheet(rules, [deal], penalties, deals_scheduled=scheduled)
    row = sheet.rows[0]
    assert row.result.award_to is Side.A  # B offended first: A, the declarer, made
    assert row.result.made is True
    assert row.result.awarded_by is K.CARDINAL_RULE
    award = row.result.award
    assert (row.received_a, row.received_b) == (award + 3, 3)
    # Entered the other way round, the deal goes to B, defeated.
    flipped = [_p(1, 1, "A", K.KALLAKALI), _p(2, 1, "B", K.CARDINAL_RULE)]
    row = score_sheet(rules, [deal], flipped, deals_scheduled=scheduled).rows[0]
    assert (row.result.award_to, row.result.made) == (Side.B, False)
    assert (row.received_a, row.received_b) == (3, row.result.award + 3)


@pytest.mark.parametrize(
    ("code", "most"), [("gcka", 2), ("international", 5), ("online", 5), ("classic", 5)]
)
def test_conduct_is_capped_by_the_rule_set(code, most):
    from scoring.domain.rules import check_penalty_points

    rules = ruleset_get(code)
    check_penalty_points(K.CONDUCT, most, rules)
    with pytest.raises(RuleError) as caught:
        check_penalty_points(K.CONDUCT, most + 1, rules)
    assert caught.value.code == "conduct_points_out_of_range"
    assert caught.value.params["most"] == most


# 001: the lead player's first call cannot be a pass
# ----------------------------------------------------------------------------------


def test_classic_lead_may_not_pass():
    auction = auction_parse("A: P P P P P P")
    assert auction_settle(auction).value == 28  # 000 §3.1: 28 no-trump by A
    with pytest.raises(RuleError) as caught:
        auction_settle(auction, lead_may_pass=CLASSIC.lead_may_pass)
    assert caught.value.code == "lead_must_bid_classic"
    assert "call 1" in caught.value.message


def test_classic_lead_bid_is_accepted():
    contract = auction_check(
        "A: 28C P P P P P",
        declarer=Side.A,
        value=28,
        trump=Trump.CLUBS,
        level=Level.NONE,
        lead_may_pass=CLASSIC.lead_may_pass,
    )
    assert contract.value == 28


@pytest.mark.parametrize("code", sorted(RULESETS))
def test_only_classic_forbids_the_lead_pass(code):
    assert RULESETS[code].lead_may_pass is (code != "classic")
