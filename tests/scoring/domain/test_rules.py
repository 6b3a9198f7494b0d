"""Deal scoring, penalties and match sheets of rules.md §2-4, checked against its text.

The expected awards are written out from rules.md's chart and level rules here, apart
from the engine's own tables, so that a wrong chart in the engine cannot agree with
itself.
"""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.domain.rules import (
    AWARDING_KINDS,
    Deal,
    Level,
    Penalty,
    PenaltyKind,
    Side,
    Trump,
    announced_after,
    announced_deals,
    award_deal,
    deal_from_values,
    score_deal,
    score_penalties,
    score_sheet,
)
from tournament.domain.errors import RuleError, RuleErrors
from tournament.domain.rulesets import RULESETS, RuleSetCode, ruleset_get

INTERNATIONAL = ruleset_get("international")
GCKA = ruleset_get("gcka")
CLASSIC = ruleset_get("classic")


def expected(code: str, value: int, level: str, made: bool) -> int:
    """rules.md §2, read literally."""
    if value <= 39:
        base = 1 if made else 2
    elif value <= 47:
        base = 2 if made else 3
    elif value <= 55:
        base = 3 if made else 4
    else:
        base = 4 if made else 5
    if level == "none":
        return base
    doubled = level == "doubled"
    if code == "international":
        return base + (1 if doubled else 2)
    if code in ("gcka", "online"):
        return base * (2 if doubled else 3)
    return base * (2 if doubled else 4)  # classic, tables


def deal(number=1, declarer="A", value=40, trump="clubs", level="none", taken=40):
    return Deal(number, Side(declarer), value, Trump(trump), Level(level), taken)


def test_every_value_level_taken_and_rule_set_against_the_chart():
    checked = 0
    for code, value, level, taken, declarer in itertools.product(
        [c.value for c in RuleSetCode],
        range(28, 57),
        [lv.value for lv in Level],
        range(57),
        "AB",
    ):
        result = score_deal(
            deal(declarer=declarer, value=value, level=level, taken=taken),
            RULESETS[RuleSetCode(code)],
        )
        made = taken >= value
        assert result.made is made
        assert result.award_to == (declarer if made else {"A": "B", "B": "A"}[declarer])
        assert result.award == expected(code, value, level, made), (
            code,
            value,
            level,
            taken,
        )
        assert result.awarded_by is None
        checked += 1
    assert checked == 5 * 29 * 3 * 57 * 2


@pytest.mark.parametrize(
    ("rules", "value", "trump", "level", "taken", "award_to", "award"),
    [
        # The worked examples of rules.md §2.
        (INTERNATIONAL, 40, "clubs", "none", 40, "A", 2),
        (INTERNATIONAL, 48, "hearts", "doubled", 47, "B", 5),
        (INTERNATIONAL, 56, "no_trump", "redoubled", 56, "A", 6),
        (GCKA, 48, "hearts", "doubled", 47, "B", 8),
        (GCKA, 56, "no_trump", "redoubled", 56, "A", 12),
        (CLASSIC, 56, "no_trump", "redoubled", 56, "A", 16),
        # The chart's edges.
        (INTERNATIONAL, 28, "spades", "none", 27, "B", 2),
        (INTERNATIONAL, 39, "spades", "none", 39, "A", 1),
        (INTERNATIONAL, 47, "spades", "none", 46, "B", 3),
        (INTERNATIONAL, 55, "spades", "none", 55, "A", 3),
        (INTERNATIONAL, 56, "spades", "none", 0, "B", 5),
    ],
)
def test_worked_examples(rules, value, trump, level, taken, award_to, award):
    result = score_deal(deal(value=value, trump=trump, level=level, taken=taken), rules)
    assert (result.award_to, result.award) == (award_to, award)


def test_kallakali_example_of_000_5_5():
    """40 clubs by A in the 9th deal; B catches an illegal play: B receives 3 + 3."""
    deals = [deal(number=9, value=40, taken=44)]  # A had made it at the table
    sheet = score_sheet(
        INTERNATIONAL,
        deals,
        [Penalty(1, 9, Side.A, PenaltyKind.KALLAKALI)],
        deals_scheduled=18,
    )
    (row,) = sheet.rows
    assert row.result.award_to == "B"
    assert row.result.made is False
    assert row.result.award == 3
    assert row.result.awarded_by == "kallakali"
    assert (row.received_a, row.received_b) == (0, 6)
    assert sheet.penalties[0].points == 3
    assert (sheet.total_a, sheet.total_b) == (0, 6)


def test_a_defender_offending_makes_the_contract_whatever_was_taken():
    result = award_deal(
        deal(value=48, level="doubled", taken=10),
        INTERNATIONAL,
        offender=Side.B,
        kind=PenaltyKind.CARDINAL_RULE,
    )
    assert (result.made, result.award_to, result.award) == (True, "A", 4)


def _oot(key, deal_number, offender):
    return Penalty(key, deal_number, Side(offender), PenaltyKind.OUT_OF_TURN)


def test_out_of_turn_first_is_a_warning_per_team_then_one_point():
    results = score_penalties(
        [_oot(1, 2, "A"), _oot(2, 3, "A"), _oot(3, 3, "B"), _oot(4, 5, "B")],
        INTERNATIONAL,
        last_deal=18,
    )
    assert [(r.award_to, r.points, r.warning) for r in results] == [
        ("B", 0, True),
        ("B", 1, False),
        ("A", 0, True),
        ("A", 1, False),
    ]


def test_out_of_turn_in_the_last_deal_has_no_warning():
    results = score_penalties(
        [_oot(1, 18, "A"), _oot(2, 17, "B")], INTERNATIONAL, last_deal=18
    )
    by_key = {r.key: r for r in results}
    assert (by_key[1].points, by_key[1].warning) == (1, False)
    assert (by_key[2].points, by_key[2].warning) == (0, True)


def test_out_of_turn_order_is_by_deal_not_by_entry():
    # Entered late for deal 3, the offence in deal 3 is the warning, not deal 7's.
    results = score_penalties(
        [_oot(1, 7, "A"), _oot(2, 3, "A")], INTERNATIONAL, last_deal=18
    )
    assert {r.key: r.points for r in results} == {2: 0, 1: 1}


@pytest.mark.parametrize(
    ("rules", "points"),
    [(GCKA, p) for p in range(3)] + [(INTERNATIONAL, p) for p in range(6)],
)
def test_conduct_gives_what_the_organizer_sets(rules, points):
    (result,) = score_penalties(
        [Penalty(1, 4, Side.B, PenaltyKind.CONDUCT, points)], rules, last_deal=7
    )
    assert (result.award_to, result.points) == ("A", points)


@pytest.mark.parametrize(
    ("rules", "kind", "points", "code"),
    [
        (GCKA, "conduct", None, "conduct_points_missing"),
        (GCKA, "conduct", 3, "conduct_points_out_of_range"),
        (INTERNATIONAL, "conduct", 6, "conduct_points_out_of_range"),
        (CLASSIC, "conduct", -1, "conduct_points_out_of_range"),
        (INTERNATIONAL, "kallakali", 1, "points_fixed"),
        (INTERNATIONAL, "out_of_turn", 0, "points_fixed"),
        (GCKA, "review", 1, "points_fixed"),
        (GCKA, "lead_out_of_turn", 1, "points_fixed"),
    ],
)
def test_penalty_points_are_checked(rules, kind, points, code):
    from scoring.domain.rules import check_penalty_points

    with pytest.raises(RuleError) as caught:
        check_penalty_points(PenaltyKind(kind), points, rules)
    assert (caught.value.code, caught.value.field) == (code, "points")


def test_deal_from_values_names_every_wrong_field():
    with pytest.raises(RuleErrors) as caught:
        deal_from_values(
            number=19,
            declarer="C",
            value=27,
            trump="stars",
            level="tripled",
            taken=57,
            deals_allowed=18,
        )
    assert sorted(e.field for e in caught.value.errors) == [
        "declarer",
        "level",
        "number",
        "taken",
        "trump",
        "value",
    ]
    messages = " ".join(e.message for e in caught.value.errors)
    assert "28 to 56" in messages
    assert "deals 1 to 18" in messages


@pytest.mark.parametrize(
    ("field", "raw", "code"),
    [
        ("value", 57, "value_out_of_range"),
        ("value", 27, "value_out_of_range"),
        ("taken", -1, "taken_out_of_range"),
        ("number", 0, "deal_number_out_of_range"),
        ("value", "40", "not_a_number"),
        ("taken", True, "not_a_number"),
    ],
)
def test_deal_from_values_single_errors(field, raw, code):
    values = dict(
        number=1, declarer="A", value=40, trump="clubs", level="none", taken=40
    )
    values[field] = raw
    with pytest.raises(RuleError) as caught:
        deal_from_values(**values, deals_allowed=18)
    assert (caught.value.code, caught.value.field) == (code, field)


def test_a_hand_checked_international_sheet():
    """Six deals and two penalties, added up by hand."""
    deals = [
        deal(1, "A", 28, "no_trump", "none", 30),  # A made 28: A 1
        deal(2, "B", 40, "hearts", "doubled", 39),  # B defeated, doubled: A 3+1
        deal(3, "B", 48, "spades", "none", 50),  # B made 48: B 3
        deal(4, "A", 56, "clubs", "redoubled", 56),  # A made 56 redoubled: A 4+2
        deal(5, "A", 32, "diamonds", "none", 20),  # kallakali by B: A 1 + 3
        deal(6, "B", 29, "clubs", "none", 28),  # B defeated: A 2
    ]
    penalties = [
        Penalty(10, 5, Side.B, PenaltyKind.KALLAKALI),
        Penalty(11, 2, Side.A, PenaltyKind.OUT_OF_TURN),  # warning
        Penalty(12, 3, Side.A, PenaltyKind.OUT_OF_TURN),  # B 1
    ]
    sheet = score_sheet(INTERNATIONAL, deals, penalties, deals_scheduled=6)
    assert [(r.received_a, r.received_b) for r in sheet.rows] == [
        (1, 0),
        (4, 0),
        (0, 4),
        (6, 0),
        (4, 0),
        (2, 0),
    ]
    assert [(r.total_a, r.total_b) for r in sheet.rows][-1] == (17, 4)
    assert (sheet.total_a, sheet.total_b) == (17, 4)
    assert (sheet.deals_won_a, sheet.deals_won_b) == (5, 1)
    assert sheet.complete and sheet.winner == "A" and sheet.difference == 13
    # A match of six deals: each is one of the last six (000 §5.3).
    assert [r.checkpoint for r in sheet.rows] == [True] * 6


def test_an_open_sheet_has_no_winner_and_lists_the_missing_deals():
    sheet = score_sheet(INTERNATIONAL, [deal(1), deal(3)], deals_scheduled=4)
    assert (sheet.complete, sheet.winner, sheet.missing) == (False, None, (2, 4))


def test_equal_totals_tie_in_the_league_but_gcka_counts_deals_won():
    # A makes a 56 (4), B wins two small deals (1 + 1) and one (2): 4 - 4.
    deals = [
        deal(1, "A", 56, taken=56),
        deal(2, "B", 28, taken=28),
        deal(3, "B", 28, taken=28),
        deal(4, "A", 28, taken=27),
    ]
    intl = score_sheet(INTERNATIONAL, deals, deals_scheduled=4)
    assert (intl.total_a, intl.total_b, intl.winner, intl.decided_by) == (
        4,
        4,
        None,
        "tie",
    )
    gcka = score_sheet(GCKA, deals, deals_scheduled=4)
    # The same chart without a level; B won three deals to A's one.
    assert (gcka.total_a, gcka.total_b) == (4, 4)
    assert (gcka.winner, gcka.decided_by) == ("B", "deals_won")
    assert (gcka.deals_won_a, gcka.deals_won_b) == (1, 3)
    knockout = score_sheet(GCKA, deals, deals_scheduled=4, knockout=True)
    assert knockout.winner is None
    # Equal totals and equal deals won: still a tie under gcka.
    even = [deal(1, "A", 40, taken=40), deal(2, "B", 40, taken=40)]
    assert score_sheet(GCKA, even, deals_scheduled=2).winner is None


def test_tables_format_transfers_tables_until_one_side_has_none():
    tables = ruleset_get("tables")
    deals = [deal(n, "A", 56, level="redoubled", taken=56) for n in range(1, 3)]
    sheet = score_sheet(tables, deals[:1], deals_scheduled=None)
    assert (sheet.total_a, sheet.total_b, sheet.complete) == (28, -4, True)
    assert sheet.winner == "A" and sheet.decided_by == "tables"
    small = score_sheet(tables, [deal(1, "B", 28, taken=28)], deals_scheduled=None)
    assert (small.total_a, small.total_b, small.complete) == (11, 13, False)


# Properties
# ----------------------------------------------------------------------------------

sides = st.sampled_from(list(Side))
deals_strategy = st.builds(
    Deal,
    number=st.integers(1, 18),
    declarer=sides,
    value=st.integers(28, 56),
    trump=st.sampled_from(list(Trump)),
    level=st.sampled_from(list(Level)),
    taken=st.integers(0, 56),
)
rulesets = st.sampled_from(list(RULESETS.values()))


@given(deals_strategy, rulesets)
def test_exactly_one_team_receives_points_for_a_scored_deal(d, rules):
    result = score_deal(d, rules)
    assert result.award > 0
    assert result.award_to in (Side.A, Side.B)
    sheet = score_sheet(rules, [d], deals_scheduled=18)
    row = sheet.rows[0]
    assert (row.received_a > 0) != (row.received_b > 0)


@given(deals_strategy, rulesets, sides, st.sampled_from(sorted(AWARDING_KINDS)))
def test_an_awarded_deal_goes_to_the_non_offender(d, rules, offender, kind):
    sheet = score_sheet(
        rules, [d], [Penalty(1, d.number, offender, kind)], deals_scheduled=18
    )
    row = sheet.rows[0]
    assert row.result.award_to is offender.other
    assert row.result.made is (offender is not d.declarer)
    got = row.received_a if offender is Side.B else row.received_b
    assert got == row.result.award + 3
    assert (row.received_b if offender is Side.B else row.received_a) == 0


@st.composite
def sheets(draw):
    rules = draw(rulesets)
    numbers = draw(st.lists(st.integers(1, 18), unique=True, max_size=18))
    deals = []
    for n in numbers:
        d = draw(deals_strategy)
        deals.append(Deal(n, d.declarer, d.value, d.trump, d.level, d.taken))
    penalties = []
    for key in range(draw(st.integers(0, 6)) if numbers else 0):
        n = draw(st.sampled_from(numbers))
        kind = draw(st.sampled_from(list(PenaltyKind)))
        points = (
            draw(st.integers(0, rules.conduct_max))
            if kind is PenaltyKind.CONDUCT
            else None
        )
        penalties.append(Penalty(key, n, draw(sides), kind, points))
    return rules, deals, penalties


@given(sheets())
def test_totals_equal_the_sum_of_the_rows(case):
    rules, deals, penalties = case
    if rules.league_deals is None:
        rules = INTERNATIONAL
    sheet = score_sheet(rules, deals, penalties, deals_scheduled=18)
    assert sheet.total_a == sum(r.received_a for r in sheet.rows)
    assert sheet.total_b == sum(r.received_b for r in sheet.rows)
    deal_points = sum(r.result.award for r in sheet.rows)
    penalty_points = sum(p.points for p in sheet.penalties)
    assert sheet.total_a + sheet.total_b == deal_points + penalty_points
    assert sheet.deals_won_a + sheet.deals_won_b == len(deals)
    if sheet.rows:
        assert (sheet.rows[-1].total_a, sheet.rows[-1].total_b) == (
            sheet.total_a,
            sheet.total_b,
        )
    assert sheet.complete is (len(deals) == 18)
    if sheet.complete and sheet.total_a != sheet.total_b:
        assert sheet.winner == ("A" if sheet.total_a > sheet.total_b else "B")
        assert sheet.difference == abs(sheet.total_a - sheet.total_b)


@given(sheets())
def test_tables_are_conserved(case):
    _, deals, penalties = case
    sheet = score_sheet(ruleset_get("tables"), deals, penalties, deals_scheduled=None)
    assert sheet.total_a + sheet.total_b == 24


# When the scorer announces the totals (rules.md §4, 000 §5.3: "after every six deals
# and also, at the end of each of the last six deals")
# ----------------------------------------------------------------------------------


def announced_by_the_words(n: int, scheduled: int, extra: int = 0) -> set[int]:
    """000 §5.3 read literally: every sixth deal, each of the last six, and each
    tie-break deal past them (rules.md §4)."""
    every_sixth = set(range(6, scheduled + 1, 6))
    last_six = set(range(max(1, scheduled - 5), scheduled + 1))
    tiebreak = set(range(scheduled + 1, scheduled + extra + 1))
    return every_sixth | last_six | tiebreak


@pytest.mark.parametrize(
    ("scheduled", "extra", "announced"),
    [
        (18, 0, (6, 12, 13, 14, 15, 16, 17, 18)),  # rules.md §4's example
        (18, 3, (6, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21)),  # with its tie-break
        (24, 0, (6, 12, 18, 19, 20, 21, 22, 23, 24)),  # a semi-final
        (24, 3, (6, 12, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27)),
        (12, 0, (6, 7, 8, 9, 10, 11, 12)),  # online
        (7, 0, (2, 3, 4, 5, 6, 7)),  # gcka
        (6, 0, (1, 2, 3, 4, 5, 6)),
        (4, 3, (1, 2, 3, 4, 5, 6, 7)),
        (1, 0, (1,)),
    ],
)
def test_the_totals_are_announced_after_every_sixth_and_each_of_the_last_six(
    scheduled, extra, announced
):
    assert announced_deals(scheduled, extra) == announced


def test_every_small_length_announces_as_the_rule_reads():
    for scheduled in range(1, 61):
        for extra in (0, 2, 3):
            wanted = announced_by_the_words(scheduled, scheduled, extra)
            got = announced_deals(scheduled, extra)
            assert set(got) == wanted, (scheduled, extra)


@given(scheduled=st.integers(1, 99), extra=st.integers(0, 3))
def test_announcements_leave_no_six_deals_unannounced_and_end_on_the_last(
    scheduled, extra
):
    got = announced_deals(scheduled, extra)
    last = scheduled + extra
    assert got[-1] == last  # the final totals are always announced
    gaps = [b - a for a, b in zip((0, *got), got, strict=False)]
    assert max(gaps) <= 6  # the score is never more than six deals unannounced
    assert set(range(max(1, scheduled - 5), last + 1)) <= set(got)
    assert all(announced_after(n, scheduled) for n in range(6, scheduled + 1, 6))
    quiet = set(range(1, last + 1)) - set(got)
    assert all(n % 6 and n <= scheduled - 6 for n in quiet)


@given(number=st.integers(1, 400))
def test_the_tables_format_announces_every_sixth_deal_only(number):
    assert announced_after(number, None) is (number % 6 == 0)


@given(scheduled=st.integers(1, 30), data=st.data())
def test_a_sheet_marks_the_announced_deals_whatever_is_entered(scheduled, data):
    numbers = data.draw(
        st.sets(st.integers(1, scheduled), max_size=scheduled).map(sorted)
    )
    deals = [deal(n) for n in numbers]
    sheet = score_sheet(INTERNATIONAL, deals, deals_scheduled=scheduled)
    wanted = announced_by_the_words(scheduled, scheduled)
    assert [r.number for r in sheet.rows if r.checkpoint] == [
        n for n in numbers if n in wanted
    ]
