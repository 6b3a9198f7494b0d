"""The tie-break of a knockout match (rules.md §6, 000 §5.7), as a state machine.

What it computes: from a knockout sheet (rules.score_sheet) and the toss, if one was
taken, where the match stands: the stipulated deals being played (`regulation`), the
two extra deals after equal totals (`extra_deals`), waiting for the toss (`toss`), the
one sudden-death deal after it (`sudden_death`), or `decided`; which deal numbers the
sheet accepts now, which are still missing, and the winner with what decided it.

    regulation --equal after deal N--> extra_deals --equal after N+2--> toss
        |                                  |                              |
        +--totals differ--> decided <------+--totals differ        toss taken
                               ^                                          |
                               +---- deal N+3 won: its winner wins <-- sudden_death

What it does not: score deals (rules.py does) or store anything. It lives with the
sheet rather than with the bracket because the score sheet is what refuses a deal
the state does not allow, and apps depend one way (brackets -> scoring).

Vocabulary: N is the match's stipulated deals (`deals_scheduled`); the *toss* is the
captains pulling a card each (J > 9 > A > 10 > K > Q); its winner chooses who deals
first, `first_dealer`. The sudden-death deal's winner is the team the deal is awarded
to (a kallakali or other awarding penalty in it gives it to the other team).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from tournament.domain.errors import filled, marked

from .rules import Sheet, SheetRow, Side

EXTRA_DEALS = 2  # 000 §5.7: "the game will be continuing for 2 more deals"
SUDDEN_DEATH_DEALS = 1  # "just one more game played after tossing"
TIEBREAK_DEALS = EXTRA_DEALS + SUDDEN_DEATH_DEALS
# The rank of the cards for the toss (000 §5.7: "higher value card based on the 56
# Rules"); shown to the scorer, not computed: the captains pull the cards.
TOSS_CARD_ORDER = ("J", "9", "A", "10", "K", "Q")
TOSS_CARDS = " > ".join(TOSS_CARD_ORDER)


def deciding_deal(deals_scheduled: int) -> int:
    """The number of the one deal played after the toss."""
    return deals_scheduled + TIEBREAK_DEALS


class Phase(StrEnum):
    REGULATION = "regulation"
    EXTRA_DEALS = "extra_deals"
    TOSS = "toss"
    SUDDEN_DEATH = "sudden_death"
    DECIDED = "decided"


class DecidedBy(StrEnum):
    TOTAL = "total"  # the totals after the stipulated deals
    EXTRA_DEALS = "extra_deals"  # the totals after the two extra deals
    SUDDEN_DEATH = "sudden_death"  # the winner of the deal after the toss


@dataclass(frozen=True)
class Toss:
    winner: Side
    first_dealer: Side  # the toss winner's choice: deal first, or receive


@dataclass(frozen=True)
class Tiebreak:
    phase: Phase
    deals_allowed: int  # the highest deal number the sheet accepts now
    missing: tuple[int, ...]  # deal numbers the phase still needs
    winner: Side | None
    decided_by: DecidedBy | None
    toss: Toss | None
    equal_at: int | None  # the last deal after which the totals were equal, if any
    deciding_deal: int  # the deal after the toss, if it comes to that
    reason: str  # why no deal beyond `deals_allowed` is accepted now

    @property
    def decided(self) -> bool:
        return self.phase is Phase.DECIDED


def _totals_after(rows: dict[int, SheetRow], n: int) -> tuple[int, int]:
    row = rows[n]
    return row.total_a, row.total_b


def settle(sheet: Sheet, *, deals_scheduled: int, toss: Toss | None) -> Tiebreak:
    """Where a knockout sheet of `deals_scheduled` stipulated deals stands."""
    n = deals_scheduled
    rows = {row.number: row for row in sheet.rows}

    def state(
        phase: Phase,
        allowed: int,
        *,
        missing: tuple[int, ...] = (),
        winner: Side | None = None,
        decided_by: DecidedBy | None = None,
        equal_at: int | None = None,
        reason: str,
    ) -> Tiebreak:
        return Tiebreak(
            phase=phase,
            deals_allowed=allowed,
            missing=missing,
            winner=winner,
            decided_by=decided_by,
            toss=toss,
            equal_at=equal_at,
            deciding_deal=deciding_deal(n),
            reason=reason,
        )

    regulation = tuple(k for k in range(1, n + 1) if k not in rows)
    if regulation:
        return state(
            Phase.REGULATION,
            n,
            missing=regulation,
            reason=filled(
                marked(
                    "the match has %(n)s deals; tie-break deals follow only if the "
                    "totals are equal after deal %(n)s"
                ),
                n=n,
            ),
        )
    a, b = _totals_after(rows, n)
    if a != b:
        return state(
            Phase.DECIDED,
            n,
            winner=Side.A if a > b else Side.B,
            decided_by=DecidedBy.TOTAL,
            reason=filled(
                marked(
                    "the match was decided after deal %(n)s, %(a)s-%(b)s; no "
                    "tie-break deal is played"
                ),
                n=n,
                a=a,
                b=b,
            ),
        )
    last_extra = n + EXTRA_DEALS
    extra = tuple(k for k in range(n + 1, last_extra + 1) if k not in rows)
    if extra:
        return state(
            Phase.EXTRA_DEALS,
            last_extra,
            missing=extra,
            equal_at=n,
            reason=filled(
                marked(
                    "the totals were equal after deal %(n)s (%(a)s-%(b)s), so deals "
                    "%(first)s and %(last)s are played; a deal after them only if the "
                    "totals are still equal, and after the toss"
                ),
                n=n,
                a=a,
                b=b,
                first=n + 1,
                last=last_extra,
            ),
        )
    a, b = _totals_after(rows, last_extra)
    if a != b:
        return state(
            Phase.DECIDED,
            last_extra,
            winner=Side.A if a > b else Side.B,
            decided_by=DecidedBy.EXTRA_DEALS,
            equal_at=n,
            reason=filled(
                marked(
                    "the extra deals decided the match, %(a)s-%(b)s after deal "
                    "%(last)s; no further deal is played"
                ),
                a=a,
                b=b,
                last=last_extra,
            ),
        )
    sudden = deciding_deal(n)
    if toss is None:
        return state(
            Phase.TOSS,
            last_extra,
            equal_at=last_extra,
            reason=filled(
                marked(
                    "the totals are still equal after deal %(last)s (%(a)s-%(b)s): "
                    "record the toss first; its winner chooses who deals deal "
                    "%(sudden)s"
                ),
                last=last_extra,
                a=a,
                b=b,
                sudden=sudden,
            ),
        )
    if sudden not in rows:
        return state(
            Phase.SUDDEN_DEATH,
            sudden,
            missing=(sudden,),
            equal_at=last_extra,
            reason=filled(
                marked(
                    "deal %(sudden)s after the toss is the last; its winner wins the "
                    "match"
                ),
                sudden=sudden,
            ),
        )
    return state(
        Phase.DECIDED,
        sudden,
        winner=rows[sudden].result.award_to,
        decided_by=DecidedBy.SUDDEN_DEATH,
        equal_at=last_extra,
        reason=filled(
            marked(
                "deal %(sudden)s after the toss decided the match; no further deal is "
                "played"
            ),
            sudden=sudden,
        ),
    )


def problems(
    sheet: Sheet, tiebreak: Tiebreak, *, deals_scheduled: int
) -> list[tuple[str, str]]:
    """What makes a sheet impossible in its state, as (code, message): a deal beyond
    what the state allows, or a toss taken without equal totals after the extra
    deals. A write that would leave one is refused."""
    found: list[tuple[str, str]] = []
    beyond = [row.number for row in sheet.rows if row.number > tiebreak.deals_allowed]
    if beyond:
        shown = ", ".join(str(k) for k in beyond)
        found.append(
            (
                "tiebreak_deal_not_open",
                filled(
                    marked("deal %(deals)s cannot be on this sheet: %(reason)s."),
                    deals=shown,
                    reason=tiebreak.reason,
                ),
            )
        )
    reached = tiebreak.phase in (Phase.TOSS, Phase.SUDDEN_DEATH) or (
        tiebreak.decided_by is DecidedBy.SUDDEN_DEATH
    )
    if tiebreak.toss is not None and not reached:
        last_extra = deals_scheduled + EXTRA_DEALS
        found.append(
            (
                "toss_without_tie",
                filled(
                    marked(
                        "a toss is recorded, but the totals would no longer be equal "
                        "after deal %(last)s; delete the toss first if this change is "
                        "right"
                    ),
                    last=last_extra,
                ),
            )
        )
    return found


def decided_by_deals(deals_played: int, deals_scheduled: int) -> DecidedBy:
    """What decided a decided knockout sheet, from the number of deals it holds."""
    return {
        deals_scheduled: DecidedBy.TOTAL,
        deals_scheduled + EXTRA_DEALS: DecidedBy.EXTRA_DEALS,
        deciding_deal(deals_scheduled): DecidedBy.SUDDEN_DEATH,
    }[deals_played]


def apply(sheet: Sheet, tiebreak: Tiebreak) -> Sheet:
    """The sheet as a knockout reads it: complete only when decided, missing what the
    phase needs, and the tie-break's winner."""
    return replace(
        sheet,
        complete=tiebreak.decided,
        missing=tiebreak.missing,
        winner=tiebreak.winner,
        decided_by=(
            tiebreak.decided_by.value
            if tiebreak.decided_by
            else ("" if tiebreak.phase is Phase.REGULATION else "tie")
        ),
    )


def toss_due(tiebreak: Tiebreak) -> str | None:
    """None when a toss may be recorded now; otherwise why not."""
    if tiebreak.phase is Phase.TOSS:
        return None
    if tiebreak.toss is not None:
        return marked("the toss of this match is already recorded")
    return filled(marked("no toss is due: %(reason)s"), reason=tiebreak.reason)
