"""The auction of a deal (000 §3), written in a compact notation a scorer can type or
tap, and checked against the rules: plain values in, a contract or a `RuleError`
naming the rule out (docs/auction.md).

The notation: the team of the lead player (the one to the dealer's right), a colon,
then every call in turn, anticlockwise from the lead player, separated by spaces:

    A: 28S 30H P P X P P P P P          30 hearts by B, doubled by A
    B: P P P P P P                      the lead passed: 28 no-trump by B
    A: 32D P P P P P R40 X XX           32 diamonds raised to 40, doubled, redoubled

- `28S`, `40N`, ...: a bid, a value 28..56 and a trump: C, D, H, S or N (no-trump;
  "Noes" and "28 Pass" are written N; `NT`, `P` as in `28P` and the suit symbols are
  read too). A "plus" bid is written as the bid it makes: "plus 2 diamonds" after 29
  spades is `31D`. A reverse bid, a suit before its number (`S28`, "Spades 28"), is
  read as the bid; only a suit may come first: 000 §3's approved bids put no-trump,
  Noes and Pass after the number, and list "Pass 28" as not approved, so `N28`,
  `NT28` and `P28` are refused (`bid_not_approved`).
- `P`: no bid. The lead player's first `P` is his bid of 28 no-trump (000 §3.1).
- `X`: double, a bid by the team that does not hold the contract.
- `XX`: redouble, by the doubled team; it ends the auction (000 §3.7).
- `R40`, `R48`, `R56`: the one self-raise (000 §3.3). When every other player has
  passed his contract, the turn is back with the bidder, who may raise it once to 40,
  48 or 56 in the same trump; after it only doubles and passes.

Vocabulary: a *seat* is a player's place in the turn order (0 is the lead player);
seats alternate between the two teams. The auction ends when every other player has
passed after the last bid, raise or double, or at a redouble.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from tournament.domain.errors import RuleError, Words, marked

from .rules import Level, Side, Trump

FIELD = "auction"
LOWEST, HIGHEST = 28, 56
RAISES = (40, 48, 56)  # the ceilings of a self-raise (000 §3.3)
PLAYERS = 6  # three a side (000 §1.1); a rule set with other tables passes its own
LETTERS = {
    "C": Trump.CLUBS,
    "D": Trump.DIAMONDS,
    "H": Trump.HEARTS,
    "S": Trump.SPADES,
    "N": Trump.NO_TRUMP,
    "NT": Trump.NO_TRUMP,
    "P": Trump.NO_TRUMP,  # "28 Pass", approved bid 5 of 000 §3: 28 no-trump
    "♣": Trump.CLUBS,
    "♦": Trump.DIAMONDS,
    "♥": Trump.HEARTS,
    "♠": Trump.SPADES,
}
LETTER_OF = {
    Trump.CLUBS: "C",
    Trump.DIAMONDS: "D",
    Trump.HEARTS: "H",
    Trump.SPADES: "S",
    Trump.NO_TRUMP: "N",
}
TEXT_MAX = 400  # characters: an auction of 56 with every seat speaking fits many times


class CallKind(StrEnum):
    BID = "bid"
    PASS = "pass"  # noqa: S105 - a call, not a secret
    DOUBLE = "double"
    REDOUBLE = "redouble"
    RAISE = "raise"


@dataclass(frozen=True)
class Call:
    kind: CallKind
    value: int | None = None  # a bid's or a raise's
    trump: Trump | None = None  # a bid's

    def __str__(self) -> str:
        if self.kind is CallKind.BID:
            assert self.trump is not None  # noqa: S101 - a bid has its trump
            return f"{self.value}{LETTER_OF[self.trump]}"
        if self.kind is CallKind.RAISE:
            return f"R{self.value}"
        return {CallKind.PASS: "P", CallKind.DOUBLE: "X", CallKind.REDOUBLE: "XX"}[
            self.kind
        ]


@dataclass(frozen=True)
class Auction:
    lead: Side  # the lead player's team
    calls: tuple[Call, ...]

    def __str__(self) -> str:
        return f"{self.lead.value}: " + " ".join(str(c) for c in self.calls)


@dataclass(frozen=True)
class Contract:
    """What an auction ends on, as a deal records it."""

    declarer: Side
    value: int
    trump: Trump
    level: Level
    bidder_seat: int  # the seat (0 = the lead player) of the player who won it


def _refuse(code: str, words: Words, **params: object) -> RuleError:
    return RuleError(code, words, field=FIELD, **params)


_BID = re.compile(r"^(\d{1,2})(NT|[CDHSNP♣♦♥♠])$")
# A word before the number: "Clubs 28", a reverse bid; no-trump, Noes or Pass there
# ("Pass 28") is not an approved bid (000 §3) and is refused.
_REVERSE = re.compile(r"^(NT|[CDHSNP♣♦♥♠])(\d{1,2})$")
_RAISE = re.compile(r"^R(\d{1,2})$")


def _call(token: str, number: int) -> Call:
    word = token.upper()
    if word == "P":
        return Call(CallKind.PASS)
    if word == "X":
        return Call(CallKind.DOUBLE)
    if word == "XX":
        return Call(CallKind.REDOUBLE)
    raised = _RAISE.match(word)
    if raised:
        return Call(CallKind.RAISE, value=int(raised.group(1)))
    bid = _BID.match(word)
    reverse = _REVERSE.match(word)
    if bid or reverse:
        value, letter = (
            (bid.group(1), bid.group(2))
            if bid
            else (reverse.group(2), reverse.group(1))  # type: ignore[union-attr]
        )
        if not LOWEST <= int(value) <= HIGHEST:
            raise _refuse(
                "bid_out_of_range",
                marked("call %(call)s (%(token)s): a bid is 28 to 56 (000 §1.1)."),
                call=number,
                token=token,
            )
        trump = LETTERS[letter]
        if not bid and trump is Trump.NO_TRUMP:
            raise _refuse(
                "bid_not_approved",
                marked(
                    "call %(call)s (%(token)s) is not an approved bid: only a suit "
                    "comes before the number (a reverse bid, as in S28); no-trump, "
                    "Noes and Pass come after it: write %(approved)s (000 §3: "
                    '"Pass 28" is not approved).'
                ),
                call=number,
                token=token,
                approved=f"{int(value)}N",
            )
        return Call(CallKind.BID, value=int(value), trump=trump)
    raise _refuse(
        "unknown_call",
        marked(
            "call %(call)s (%(token)s) is not a call: write a bid as 28S (value and C, "
            "D, H, S or N), P for no bid, X to double, XX to redouble, R40, R48 or R56 "
            "for the self-raise."
        ),
        call=number,
        token=token,
    )


def auction_parse(text: str) -> Auction:
    """The notation read into calls, or a RuleError naming what is unreadable."""
    if len(text) > TEXT_MAX:
        raise _refuse(
            "too_long",
            marked("an auction is at most %(most)s characters."),
            most=TEXT_MAX,
        )
    head, colon, rest = text.strip().partition(":")
    if not colon or head.strip().upper() not in ("A", "B"):
        raise _refuse(
            "no_lead",
            marked(
                "start with the lead player's team and a colon, as in "
                "'A: 28S P P P P P'."
            ),
        )
    tokens = rest.split()
    if not tokens:
        raise _refuse(
            "no_calls", marked("an auction has at least the lead player's call.")
        )
    return Auction(
        Side(head.strip().upper()),
        tuple(_call(t, n) for n, t in enumerate(tokens, start=1)),
    )


def auction_settle(
    auction: Auction, *, players: int = PLAYERS, lead_may_pass: bool = True
) -> Contract:
    """The contract the auction ends on, or a RuleError naming the first call that
    breaks 000 §3 (or the end that is missing). Where the lead player may not pass
    (`lead_may_pass` False: 001, the classic rule set), his first call is a bid."""
    others = players - 1  # the passes that end an auction
    teams = [auction.lead if s % 2 == 0 else auction.lead.other for s in range(players)]
    value: int | None = None
    trump: Trump | None = None
    bidder = 0  # the seat of the last bid
    level = Level.NONE
    raised = False
    passes = 0  # since the last bid, raise or double
    for number, call in enumerate(auction.calls, start=1):
        seat = (number - 1) % players
        team = teams[seat]
        over = level is Level.REDOUBLED or passes == others
        if number == 1:
            if call.kind is CallKind.PASS and not lead_may_pass:
                raise _refuse(
                    "lead_must_bid_classic",
                    marked(
                        "call 1 (%(token)s): under the classic rules the lead player "
                        "bids at least 28; he may not pass (001)."
                    ),
                    call=number,
                    token=str(call),
                )
            if call.kind is CallKind.PASS:
                call = Call(CallKind.BID, value=LOWEST, trump=Trump.NO_TRUMP)
            elif call.kind is not CallKind.BID:
                raise _refuse(
                    "lead_must_bid",
                    marked(
                        "call 1 (%(token)s): the lead player bids at least 28, or "
                        "passes, which is 28 no-trump (000 §3.1)."
                    ),
                    call=number,
                    token=str(call),
                )
        if call.kind is CallKind.RAISE:
            # The one self-raise: the turn is back with the bidder because every
            # other player passed his contract, which nobody doubled.
            if raised:
                raise _refuse(
                    "raise_twice",
                    marked(
                        "call %(call)s (%(token)s): the self-raise is allowed once "
                        "(000 §3.3)."
                    ),
                    call=number,
                    token=str(call),
                )
            if not (passes == others and level is Level.NONE and seat == bidder):
                raise _refuse(
                    "raise_out_of_turn",
                    marked(
                        "call %(call)s (%(token)s): only the bidder raises, when every "
                        "other player has passed his contract and nobody doubled it "
                        "(000 §3.3)."
                    ),
                    call=number,
                    token=str(call),
                )
            if value is None or call.value not in RAISES or call.value <= value:
                raise _refuse(
                    "raise_not_a_ceiling",
                    marked(
                        "call %(call)s (%(token)s): a self-raise goes up to 40, 48 or "
                        "56, above the contract's %(value)s (000 §3.3)."
                    ),
                    call=number,
                    token=str(call),
                    value=value,
                )
            value, raised, passes = call.value, True, 0
            continue
        if over:
            raise _refuse(
                "after_the_end",
                marked(
                    "call %(call)s (%(token)s) comes after the auction ended at the "
                    "redouble (000 §3.7)."
                )
                if level is Level.REDOUBLED
                else marked(
                    "call %(call)s (%(token)s) comes after the auction ended when "
                    "every other player had passed."
                ),
                call=number,
                token=str(call),
            )
        holder = teams[bidder] if value is not None else None
        if call.kind is CallKind.PASS:
            passes += 1
            continue
        if call.kind is CallKind.BID:
            if raised:
                raise _refuse(
                    "bid_after_raise",
                    marked(
                        "call %(call)s (%(token)s): after the self-raise only doubles "
                        "and passes are allowed (000 §3.3)."
                    ),
                    call=number,
                    token=str(call),
                )
            if value is not None and (call.value or 0) <= value:
                raise _refuse(
                    "bid_not_higher",
                    marked(
                        "call %(call)s (%(token)s) does not rank above %(value)s: a "
                        "bid raises the number (000 §3.1)."
                    ),
                    call=number,
                    token=str(call),
                    value=value,
                )
            value, trump, bidder, level = call.value, call.trump, seat, Level.NONE
        elif call.kind is CallKind.DOUBLE:
            if team == holder:
                raise _refuse(
                    "double_own",
                    marked(
                        "call %(call)s (X): a team does not double its own contract "
                        "(000 §3.7)."
                    ),
                    call=number,
                )
            if level is not Level.NONE:
                raise _refuse(
                    "double_again",
                    marked("call %(call)s (X): the contract is doubled already."),
                    call=number,
                )
            level = Level.DOUBLED
        else:  # a redouble
            if level is not Level.DOUBLED or team != holder:
                raise _refuse(
                    "redouble_not_doubled",
                    marked(
                        "call %(call)s (XX): only the doubled team redoubles, and only "
                        "a doubled contract (000 §3.7)."
                    ),
                    call=number,
                )
            level = Level.REDOUBLED
        passes = 0
    if not (level is Level.REDOUBLED or passes == others):
        raise _refuse(
            "unfinished",
            marked(
                "the auction is not over: it ends when the %(others)s other players "
                "have passed after the last bid, raise or double, or at a redouble."
            ),
            others=others,
        )
    assert value is not None and trump is not None  # noqa: S101 - the lead bid
    return Contract(teams[bidder], value, trump, level, bidder)


def _spelled(value: int, trump: Trump, declarer: Side, level: Level) -> str:
    """A contract as a refusal names it: 40 S by A, doubled."""
    said = f"{value} {LETTER_OF[trump]} by {declarer.value}"
    return said if level is Level.NONE else f"{said}, {level.value}"


def auction_check(
    text: str,
    *,
    declarer: Side,
    value: int,
    trump: Trump,
    level: Level,
    players: int = PLAYERS,
    lead_may_pass: bool = True,
) -> Contract:
    """The auction read and settled, and its contract held to the deal's: the
    declaring team, value, trump and level must be the ones the sheet records."""
    contract = auction_settle(
        auction_parse(text), players=players, lead_may_pass=lead_may_pass
    )
    wanted = (declarer, value, trump, level)
    got = (contract.declarer, contract.value, contract.trump, contract.level)
    if got != wanted:
        raise _refuse(
            "contract_differs",
            marked("the auction ends on %(ended)s, but the deal records %(recorded)s."),
            ended=_spelled(
                contract.value, contract.trump, contract.declarer, contract.level
            ),
            recorded=_spelled(value, trump, declarer, level),
        )
    return contract
