"""The knockout tie-break of rules.md §6 (000 §5.7): regulation, two extra deals, the
toss, one sudden-death deal."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.domain.rules import (
    Deal,
    Level,
    Penalty,
    PenaltyKind,
    Side,
    Trump,
    score_sheet,
    sheet_status,
)
from scoring.domain.tiebreak import (
    DecidedBy,
    Phase,
    Toss,
    apply,
    decided_by_deals,
    problems,
    settle,
    toss_due,
)
from tournament.domain.rulesets import ruleset_get

INTERNATIONAL = ruleset_get("international")
GCKA = ruleset_get("gcka")
A, B = Side.A, Side.B
TOSS = Toss(winner=A, first_dealer=B)


def won(number: int, side: Side, award: int = 1) -> Deal:
    """A deal that gives `award` (1..4, made contracts of the chart) to `side`."""
    value = {1: 28, 2: 40, 3: 48, 4: 56}[award]
    return Deal(number, side, value, Trump.SPADES, Level.NONE, value)


def sheet_of(winners, penalties=(), rules=INTERNATIONAL, n=4):
    deals = [won(k, side) for k, side in enumerate(winners, start=1)]
    return score_sheet(rules, deals, penalties, deals_scheduled=n, knockout=True)


def state(winners, toss=None, n=4, **kw):
    sheet = sheet_of(winners, n=n, **kw)
    return sheet, settle(sheet, deals_scheduled=n, toss=toss)


def test_regulation_accepts_the_stipulated_deals_only():
    _, tb = state([A, B])
    assert tb.phase is Phase.REGULATION
    assert tb.deals_allowed == 4
    assert tb.missing == (3, 4)
    assert tb.winner is None
    assert "tie-break deals follow only if" in tb.reason


def test_unequal_totals_after_the_stipulated_deals_decide():
    sheet, tb = state([A, B, A, A])
    assert (tb.phase, tb.winner, tb.decided_by) == (Phase.DECIDED, A, DecidedBy.TOTAL)
    assert tb.deals_allowed == 4
    assert apply(sheet, tb).complete


def test_equal_totals_open_two_extra_deals():
    _, tb = state([A, B, A, B])
    assert tb.phase is Phase.EXTRA_DEALS
    assert (tb.deals_allowed, tb.missing, tb.equal_at) == (6, (5, 6), 4)
    _, tb = state([A, B, A, B, A])
    assert (tb.phase, tb.missing) == (Phase.EXTRA_DEALS, (6,))


def test_the_extra_deals_decide_on_totals():
    _, tb = state([A, B, A, B, B, B])
    assert (tb.phase, tb.winner, tb.decided_by) == (
        Phase.DECIDED,
        B,
        DecidedBy.EXTRA_DEALS,
    )
    assert tb.deals_allowed == 6


def test_still_equal_asks_for_the_toss_and_no_deal_before_it():
    sheet, tb = state([A, B, A, B, A, B])
    assert tb.phase is Phase.TOSS
    assert tb.deals_allowed == 6
    assert tb.missing == ()
    assert "record the toss first" in tb.reason
    assert toss_due(tb) is None
    applied = apply(sheet, tb)
    assert not applied.complete
    assert applied.decided_by == "tie"
    assert sheet_status(applied, knockout=True).value == "in_progress"


def test_the_toss_opens_one_sudden_death_deal_whose_winner_wins():
    _, tb = state([A, B, A, B, A, B], toss=TOSS)
    assert (tb.phase, tb.deals_allowed, tb.missing) == (Phase.SUDDEN_DEATH, 7, (7,))
    assert toss_due(tb) == "the toss of this match is already recorded"
    _, tb = state([A, B, A, B, A, B, B], toss=TOSS)
    assert (tb.phase, tb.winner, tb.decided_by) == (
        Phase.DECIDED,
        B,
        DecidedBy.SUDDEN_DEATH,
    )


def test_the_sudden_death_deal_goes_to_whom_it_is_awarded():
    """A kallakali in the last deal gives it, and the match, to the other team."""
    deals = [won(k, s) for k, s in enumerate([A, B, A, B, A, B, A], start=1)]
    caught = [Penalty(1, 7, A, PenaltyKind.KALLAKALI)]
    sheet = score_sheet(INTERNATIONAL, deals, caught, deals_scheduled=4, knockout=True)
    tb = settle(sheet, deals_scheduled=4, toss=TOSS)
    assert tb.winner is B
    assert tb.decided_by is DecidedBy.SUDDEN_DEATH


def test_penalty_points_count_in_the_totals_that_decide():
    """An out-of-turn in the last stipulated deal is never a warning: it breaks the
    tie after deal 4."""
    penalties = [Penalty(1, 4, A, PenaltyKind.OUT_OF_TURN)]
    sheet, tb = state([A, B, A, B], penalties=penalties)
    assert (sheet.total_a, sheet.total_b) == (2, 3)
    assert (tb.phase, tb.winner) == (Phase.DECIDED, B)


def test_gcka_more_deals_won_does_not_settle_a_knockout():
    deals = [won(1, A, 3), won(2, B), won(3, B), won(4, B)]
    sheet = score_sheet(GCKA, deals, deals_scheduled=4, knockout=True)
    assert (sheet.total_a, sheet.total_b, sheet.deals_won_b) == (3, 3, 3)
    assert settle(sheet, deals_scheduled=4, toss=None).phase is Phase.EXTRA_DEALS


def test_no_toss_before_it_is_due():
    _, tb = state([A, B, A])
    assert toss_due(tb).startswith("no toss is due: the match has 4 deals")


def test_problems_name_a_deal_beyond_the_state():
    sheet, tb = state([A, B, A, A, B])  # deal 5 after a decided match
    [(code, message)] = problems(sheet, tb, deals_scheduled=4)
    assert code == "tiebreak_deal_not_open"
    assert message.startswith("deal 5 cannot be on this sheet: the match was decided")
    sheet, tb = state([A, B, A, B, A, B, A])  # deal 7 without the toss
    [(code, message)] = problems(sheet, tb, deals_scheduled=4)
    assert "record the toss first" in message


def test_problems_name_a_toss_without_a_tie():
    sheet, tb = state([A, B, A, B, A, A], toss=TOSS)
    assert [code for code, _ in problems(sheet, tb, deals_scheduled=4)] == [
        "toss_without_tie"
    ]
    sheet, tb = state([A, B, A, B, A, B, A], toss=TOSS)
    assert problems(sheet, tb, deals_scheduled=4) == []


@given(
    n=st.integers(1, 24),
    awards=st.lists(
        st.tuples(st.sampled_from([A, B]), st.integers(1, 4)), min_size=30, max_size=30
    ),
)
def test_playing_the_missing_deals_always_ends_decided(n, awards):
    """Adding the lowest missing deal (and the toss when asked) reaches a decision in
    at most N+3 deals; on the way the state never refuses its own sheet, the phases
    only move forward, and the decision agrees with the totals."""
    deals: list[Deal] = []
    toss = None
    order = list(Phase)
    last = 0
    for side, award in awards:
        sheet = score_sheet(INTERNATIONAL, deals, deals_scheduled=n, knockout=True)
        tb = settle(sheet, deals_scheduled=n, toss=toss)
        assert problems(sheet, tb, deals_scheduled=n) == []
        assert order.index(tb.phase) >= last
        last = order.index(tb.phase)
        if tb.decided:
            break
        if tb.phase is Phase.TOSS:
            toss = Toss(side, side.other)
            continue
        assert tb.missing and max(tb.missing) <= tb.deals_allowed <= n + 3
        deals.append(won(tb.missing[0], side, award))
    assert tb.decided
    assert len(deals) in (n, n + 2, n + 3)
    assert decided_by_deals(len(deals), n) is tb.decided_by  # what the bracket reads
    assert tb.deciding_deal == n + 3
    if tb.decided_by is DecidedBy.SUDDEN_DEATH:
        assert tb.winner is deals[-1].declarer
        assert toss is not None
    else:
        assert sheet.total(tb.winner) > sheet.total(tb.winner.other)
        assert toss is None
    assert sheet_status(apply(sheet, tb), knockout=True).value == "completed"


@pytest.mark.parametrize("n", [2, 18, 24])
def test_a_tie_after_the_extra_deals_needs_exactly_n_plus_three(n):
    _, tb = state([*[A, B] * (n // 2), A, B, B], toss=TOSS, n=n)
    assert (tb.phase, tb.winner, tb.deals_allowed) == (Phase.DECIDED, B, n + 3)
