"""The auction of a deal (scoring/domain/auction.py; 000 §3; docs/auction.md): its
notation, every rule by example, every short auction of a small table checked
against the rules' invariants, and legal auctions built at random by hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.domain.auction import (
    LETTER_OF,
    Auction,
    Call,
    CallKind,
    auction_check,
    auction_parse,
    auction_settle,
)
from scoring.domain.rules import Level, Side, Trump
from tournament.domain.errors import RuleError

A, B = Side.A, Side.B
S, H, D, C, N = Trump.SPADES, Trump.HEARTS, Trump.DIAMONDS, Trump.CLUBS, Trump.NO_TRUMP
NONE, DOUBLED, REDOUBLED = Level.NONE, Level.DOUBLED, Level.REDOUBLED


def settle(text: str, players: int = 6):
    c = auction_settle(auction_parse(text), players=players)
    return c.declarer, c.value, c.trump, c.level


def refused(text: str, players: int = 6) -> str:
    with pytest.raises(RuleError) as caught:
        auction_settle(auction_parse(text), players=players)
    assert caught.value.field == "auction"
    return caught.value.code


@pytest.mark.parametrize(
    ("text", "contract"),
    [
        ("A: 28S P P P P P", (A, 28, S, NONE)),
        ("B: P P P P P P", (B, 28, N, NONE)),  # the lead's pass is 28 no-trump
        ("A: P 29H P P P P P", (B, 29, H, NONE)),
        ("A: 28S 30H P P X P P P P P", (B, 30, H, DOUBLED)),
        ("A: 28S 30H P P X XX", (B, 30, H, REDOUBLED)),
        ("A: 28S X 29D P P P P P", (A, 29, D, NONE)),  # a bid over a double clears it
        ("A: 32D P P P P P R40 X XX", (A, 40, D, REDOUBLED)),
        ("A: 30S P P P P P R48 P P P P P", (A, 48, S, NONE)),
        ("A: 30S P P P P P R56 X P P P P P", (A, 56, S, DOUBLED)),
        ("A: 28C 29C 30C 31C 32C 33C P P P P P", (B, 33, C, NONE)),
        ("A: 28S P 30S P P P P P", (A, 30, S, NONE)),  # a partner may bid over
        ("a: 28nt p p p p p", (A, 28, N, NONE)),  # letters in any case, NT too
        ("B: ♠28 P P P P P", (B, 28, S, NONE)),  # a reverse bid, a suit symbol
        ("A: 56N P P P P P", (A, 56, N, NONE)),
        ("A: 28S 30p P P P P P", (B, 30, N, NONE)),  # "30 Pass": 30 no-trump (000 §3)
    ],
)
def test_auctions_that_end_on_their_contract(text, contract):
    assert settle(text) == contract
    assert str(auction_parse(text)).upper() == str(auction_parse(text)).upper()


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("28S P P P P P", "no_lead"),
        ("C: 28S P P P P P", "no_lead"),
        ("A:", "no_calls"),
        ("A: 27S P P P P P", "bid_out_of_range"),
        ("A: 57N P P P P P", "bid_out_of_range"),
        ("A: 28Q P P P P P", "unknown_call"),
        ("A: X P P P P P", "lead_must_bid"),
        ("A: R40 P P P P P", "lead_must_bid"),
        ("A: 30S 30H", "bid_not_higher"),
        ("A: 30S 29H", "bid_not_higher"),
        ("A: 30S P X", "double_own"),
        ("A: 30S X X", "double_own"),  # the second X is by A's own player
        ("A: 30S X P X", "double_again"),
        ("A: 30S X P XX", "redouble_not_doubled"),  # a defender cannot redouble
        ("A: 30S XX", "redouble_not_doubled"),
        ("A: 30S P P P P P R44", "raise_not_a_ceiling"),
        ("A: 44S P P P P P R40", "raise_not_a_ceiling"),
        ("A: 30S P P P P R40", "raise_out_of_turn"),  # not everyone has passed
        ("A: 30S X P P P P P R40", "raise_out_of_turn"),  # the doubler's turn
        ("A: 30S P P P P P R40 P P P P P R48", "raise_twice"),
        ("A: 30S P P P P P R40 42S", "bid_after_raise"),
        ("A: 30S X XX P", "after_the_end"),
        ("A: 30S P P P P P P", "after_the_end"),
        ("A: 30S P P P P P 31H", "after_the_end"),
        ("A: 30S P P P P", "unfinished"),
        ("A: 30S P P P P P R40", "unfinished"),  # after a raise, the others speak
        ("A: 30S X", "unfinished"),
        ("A: " + "P " * 300, "too_long"),
        ("A: NT28 P P P P P", "bid_not_approved"),  # 000 §3: no-trump after the number
        ("A: N28 P P P P P", "bid_not_approved"),
        ("A: P28 P P P P P", "bid_not_approved"),  # "Pass 28", not approved
        ("A: 28S nt30 P P P P P", "bid_not_approved"),
        ("A: NT27 P P P P P", "bid_out_of_range"),
        ("A: 28S 30 P P P P P", "unknown_call"),  # a number alone
    ],
)
def test_every_rule_is_named_when_broken(text, code):
    assert refused(text) == code


def test_a_refusal_names_the_call_and_the_rule():
    with pytest.raises(RuleError) as caught:
        auction_settle(auction_parse("A: 30S 29H"))
    assert caught.value.params == {"call": 2, "token": "29H", "value": 30}
    assert "call 2 (29H)" in caught.value.message and "000 §3.1" in caught.value.message


def test_an_unapproved_reverse_bid_names_the_call_the_rule_and_what_to_write():
    with pytest.raises(RuleError) as caught:
        auction_parse("B: 28S NT30 P P P P P")
    error = caught.value
    assert (error.code, error.field) == ("bid_not_approved", "auction")
    assert error.params == {"call": 2, "token": "NT30", "approved": "30N"}
    assert "call 2 (NT30) is not an approved bid" in error.message
    assert "write 30N" in error.message
    assert '000 §3: "Pass 28" is not approved' in error.message


WORDS_BEFORE = {"C": C, "D": D, "H": H, "S": S, "♣": C, "♦": D, "♥": H, "♠": S}


@given(
    value=st.integers(28, 56),
    word=st.sampled_from(["N", "NT", "P"]),
    lower=st.booleans(),
    position=st.integers(1, 5),
)
def test_no_trump_noes_or_pass_before_the_number_is_refused(
    value, word, lower, position
):
    """000 §3's approved bids put a suit, and only a suit, before the number; "Pass
    28" is listed as not approved, and no-trump and Noes come after the number."""
    token = f"{word.lower() if lower else word}{value}"
    calls = ["P"] * (position - 1) + [token]
    with pytest.raises(RuleError) as caught:
        auction_parse("A: " + " ".join(calls))
    assert caught.value.code == "bid_not_approved"
    assert caught.value.params == {
        "call": position,
        "token": token,
        "approved": f"{value}N",
    }
    # Written the approved way, after the number, it is read as no-trump.
    after = auction_parse("A: " + " ".join([*calls[:-1], f"{value}{word}"]))
    assert after.calls[-1] == Call(CallKind.BID, value=value, trump=N)
    assert str(after).endswith(f" {value}N")


@given(value=st.integers(28, 56), word=st.sampled_from(sorted(WORDS_BEFORE)))
def test_a_suit_before_its_number_reads_as_the_bid(value, word):
    """Approved bid 2 (000 §3): "Clubs 28", a reverse bid, is 28 clubs."""
    reverse = auction_parse(f"A: {word}{value} P P P P P")
    forward = auction_parse(f"A: {value}{LETTER_OF[WORDS_BEFORE[word]]} P P P P P")
    assert reverse == forward
    assert settle(f"a: {word.lower()}{value} p p p p p") == (
        A,
        value,
        WORDS_BEFORE[word],
        NONE,
    )


def test_the_auction_must_end_on_the_deals_contract():
    found = auction_check(
        "A: 28S 30H P P X P P P P P", declarer=B, value=30, trump=H, level=DOUBLED
    )
    assert found.bidder_seat == 1
    for wrong in (
        {"declarer": A, "value": 30, "trump": H, "level": DOUBLED},
        {"declarer": B, "value": 31, "trump": H, "level": DOUBLED},
        {"declarer": B, "value": 30, "trump": S, "level": DOUBLED},
        {"declarer": B, "value": 30, "trump": H, "level": NONE},
    ):
        with pytest.raises(RuleError) as caught:
            auction_check("A: 28S 30H P P X P P P P P", **wrong)
        assert caught.value.code == "contract_differs"
        assert "the auction ends on 30 H by B, doubled" in caught.value.message


# Every short auction of a table of four (three passes end it), against a second
# reading of the same rules, written as plainly as possible.
# ----------------------------------------------------------------------------------

ALPHABET = ["P", "28S", "29H", "30N", "X", "XX", "R40"]
LONGEST = 12


def _expected(calls: list[str], players: int):
    """("refused", the call at fault), ("unfinished",) or ("done", the contract)."""
    others = players - 1
    seats = [A if s % 2 == 0 else B for s in range(players)]
    value, trump, bidder, level, raised, passes = None, None, 0, NONE, False, 0
    for i, call in enumerate(calls):
        seat, fault = i % players, ("refused", i + 1)
        if i == 0 and call == "P":
            call = "28N"
        ended = level is REDOUBLED or passes == others
        if call == "R40":
            if i == 0 or raised or not ended or level is not NONE or seat != bidder:
                return fault
            if value is None or value >= 40:
                return fault
            value, raised, passes = 40, True, 0
            continue
        if ended or (i == 0 and call in ("X", "XX")):
            return fault
        if call == "P":
            passes += 1
            continue
        if call in ("X", "XX"):
            mine = seats[seat] == seats[bidder]
            if call == "X" and (mine or level is not NONE):
                return fault
            if call == "XX" and (not mine or level is not DOUBLED):
                return fault
            level = DOUBLED if call == "X" else REDOUBLED
        else:
            number = int(call[:2])
            if raised or (value is not None and number <= value):
                return fault
            value, bidder, level = number, seat, NONE
            trump = {"S": S, "H": H, "N": N}[call[2]]
        passes = 0
    if not (level is REDOUBLED or passes == others):
        return ("unfinished",)
    return ("done", (seats[bidder], value, trump, level))


def test_every_short_auction_of_a_table_of_four():
    """Every sequence of up to LONGEST calls, explored call by call: a refused one is
    refused at the same call (and so are all that go on from it, as the rules are
    read in order), an unfinished one goes on."""
    seen = {"refused": 0, "unfinished": 0, "done": 0}
    stack = [[c] for c in ALPHABET]
    while stack:
        calls = stack.pop()
        text = "A: " + " ".join(calls)
        wanted = _expected(calls, players=4)
        seen[wanted[0]] += 1
        if wanted[0] == "done":
            assert settle(text, players=4) == wanted[1], text
        else:
            with pytest.raises(RuleError) as caught:
                settle(text, players=4)
            if wanted[0] == "refused":
                assert caught.value.params.get("call") == wanted[1], text
                continue  # its every continuation is refused at the same call
            assert caught.value.code == "unfinished", text
        if len(calls) < LONGEST:
            stack += [[*calls, c] for c in ALPHABET]
    assert min(seen.values()) > 100, seen


# Legal auctions built at random, call by call
# ----------------------------------------------------------------------------------


@st.composite
def legal_auctions(draw, players: int = 6):
    """A legal auction and the contract it ends on, built by choosing, at each turn,
    one of the calls the rules allow."""
    others = players - 1
    lead = draw(st.sampled_from([A, B]))
    seats = [lead if s % 2 == 0 else lead.other for s in range(players)]
    first = draw(st.one_of(st.just(None), st.integers(28, 56)))
    trump = draw(st.sampled_from(list(Trump)))
    calls = [Call(CallKind.PASS) if first is None else Call(CallKind.BID, first, trump)]
    value, bidder, level, raised, passes = first or 28, 0, NONE, False, 0
    if first is None:
        trump = N
    seat = 0
    while True:
        seat = (seat + 1) % players
        if level is REDOUBLED:
            break
        if passes == others:
            can_raise = level is NONE and not raised and seat == bidder
            ceilings = [r for r in (40, 48, 56) if r > value]
            if can_raise and ceilings and draw(st.booleans()):
                value, raised, passes = draw(st.sampled_from(ceilings)), True, 0
                calls.append(Call(CallKind.RAISE, value))
                continue
            break
        choices = ["P"] * 3
        if not raised and value < 56:
            choices.append("bid")
        mine = seats[seat] == seats[bidder]
        if not mine and level is NONE:
            choices.append("X")
        if mine and level is DOUBLED:
            choices.append("XX")
        choice = draw(st.sampled_from(choices))
        if choice == "P":
            calls.append(Call(CallKind.PASS))
            passes += 1
            continue
        passes = 0
        if choice == "bid":
            value = draw(st.integers(value + 1, 56))
            trump = draw(st.sampled_from(list(Trump)))
            bidder, level = seat, NONE
            calls.append(Call(CallKind.BID, value, trump))
        elif choice == "X":
            level = DOUBLED
            calls.append(Call(CallKind.DOUBLE))
        else:
            level = REDOUBLED
            calls.append(Call(CallKind.REDOUBLE))
    return Auction(lead, tuple(calls)), (seats[bidder], value, trump, level)


@given(legal_auctions())
def test_a_legal_auction_ends_on_its_contract_and_reads_back(built):
    auction, contract = built
    got = auction_settle(auction)
    assert (got.declarer, got.value, got.trump, got.level) == contract
    assert auction_parse(str(auction)) == auction


@given(legal_auctions(), st.data())
def test_a_bid_that_does_not_raise_the_number_is_refused(built, data):
    auction, _ = built
    bids = [i for i, c in enumerate(auction.calls) if c.kind is CallKind.BID and i]
    if not bids:
        return
    at = data.draw(st.sampled_from(bids))
    before = max(
        (
            c.value or 0
            for c in auction.calls[:at]
            if c.kind in (CallKind.BID, CallKind.RAISE)
        ),
        default=28,  # the lead passed: 28 no-trump
    )
    lower = data.draw(st.integers(28, before))
    calls = list(auction.calls)
    calls[at] = Call(CallKind.BID, lower, Trump.CLUBS)
    with pytest.raises(RuleError) as caught:
        auction_settle(Auction(auction.lead, tuple(calls)))
    assert caught.value.code == "bid_not_higher"
    assert caught.value.params["call"] == at + 1
    assert caught.value.params["token"] == str(calls[at])


@given(legal_auctions())
def test_cutting_the_end_leaves_it_unfinished(built):
    auction, _ = built
    cut = Auction(auction.lead, auction.calls[:-1])
    ends_with_raise_window = (
        len(cut.calls) >= 6
        and all(c.kind is CallKind.PASS for c in cut.calls[-5:])
        and auction.calls[-1].kind is CallKind.RAISE
    )
    if ends_with_raise_window or not cut.calls:
        return
    with pytest.raises(RuleError) as caught:
        auction_settle(cut)
    assert caught.value.code == "unfinished"
