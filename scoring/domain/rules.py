"""Scoring one deal, the penalties of a match, and a whole score sheet (rules.md §2-4).

What it computes: who receives points for a deal and how many (the chart of 000 §1.3
with the rule set's level), what each penalty gives and to whom (warnings included),
a match's running totals, the deals after which the scorer announces them (every sixth
deal and each of the last six, 000 §5.3), its winner and the score difference; and for
the `tables` format (rules.md §8) the tables each team holds.

What it does not: store anything, know who entered a row, or rank teams (that is
standings.py). It reads the rule sets of tournament/domain/rulesets.py.

Vocabulary: a *deal* is one hand; the *declarer* is the team that won the bidding; the
*contract* is its bid: a *value* 28..56 in a *trump* at a *level*; *taken* is the points
the declarer took in tricks (the defenders took 56 - taken). The *award* is what one
team receives for the deal. A team inside a match is side "A" or "B".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import TypeVar

from tournament.domain.errors import RuleError, RuleErrors, marked
from tournament.domain.rulesets import EqualTotals, LevelMode, RuleSet

VALUE_MIN = 28
VALUE_MAX = 56
POINTS_IN_DEAL = 56  # J=3, 9=2, A=1, 10=1 in each of four suits
DEAL_NUMBER_MAX = 99
CHECKPOINT_EVERY = 6  # 000 §5.3: the score is announced "after every six deals"
CHECKPOINT_LAST = 6  # "and also, at the end of each of the last six deals"
START_TABLES = 12  # 003: each team starts with 12 tables
AWARD_PENALTY = 3  # 000 §3.10, §5.5: the deal and three additional points
CONDUCT_MOST = 5  # the most any rule set allows for conduct (RuleSet.conduct_max)

E = TypeVar("E", bound=StrEnum)


class Side(StrEnum):
    """A team inside a match: the match's team_a or team_b."""

    A = "A"
    B = "B"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


class Trump(StrEnum):
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"
    NO_TRUMP = "no_trump"  # "Noes" and "Pass" bids play as no-trump


class Level(StrEnum):
    NONE = "none"
    DOUBLED = "doubled"
    REDOUBLED = "redoubled"


class PenaltyKind(StrEnum):
    # The order is stored: a sheet's tally counts penalties in it (statistics.py), so
    # a new kind goes last.
    OUT_OF_TURN = "out_of_turn"  # a bid, double, redouble or discard (000 §3.2)
    CARDINAL_RULE = "cardinal_rule"
    KALLAKALI = "kallakali"
    CONSTRAINING_HAND = "constraining_hand"
    CONDUCT = "conduct"
    LEAD_OUT_OF_TURN = "lead_out_of_turn"  # 000 §4.2, a warning of its own
    REVIEW = "review"  # not all eight cards on the table at the review (000 §3.10)


# 000 §3.10: these give the deal to the team that did not offend, and 3 points more.
AWARDING_KINDS = frozenset(
    {PenaltyKind.CARDINAL_RULE, PenaltyKind.KALLAKALI, PenaltyKind.CONSTRAINING_HAND}
)
# A team's first of each of these in a match is a warning where the rule set has
# warnings (000 §3.2 and §4.2, two clauses, a warning each); every later one 1 point.
WARNED_KINDS = frozenset({PenaltyKind.OUT_OF_TURN, PenaltyKind.LEAD_OUT_OF_TURN})
# 1 point at once: the incomplete review of the eight tricks (000 §3.10).
ONE_POINT = 1


class Edition(IntEnum):
    """The edition of these rules a sheet is scored by, kept with the sheet, so that an
    upgrade never changes a result already on one (docs/rules.md, "Editions").

    FIRST: the sites before release 0.4, where a team's first out_of_turn was a warning
    under every rule set (gcka included). CURRENT: rules.md §3 as amended, the penalty
    rules of the tournament's own rule set. Nothing else differs between them."""

    FIRST = 1
    CURRENT = 2


# 000 §1.3, chart: (lowest value, highest value, made, defeated).
CHART: tuple[tuple[int, int, int, int], ...] = (
    (28, 39, 1, 2),
    (40, 47, 2, 3),
    (48, 55, 3, 4),
    (56, 56, 4, 5),
)

TRUMP_SYMBOLS = {
    Trump.CLUBS: "♣",
    Trump.DIAMONDS: "♦",
    Trump.HEARTS: "♥",
    Trump.SPADES: "♠",
    Trump.NO_TRUMP: "NT",
}


def chart_points(value: int, *, made: bool) -> int:
    """The chart's points for a contract of `value`, before the level (000 §1.3)."""
    for low, high, if_made, if_defeated in CHART:
        if low <= value <= high:
            return if_made if made else if_defeated
    raise AssertionError(f"value {value} is outside the chart; check_deal first")


def apply_level(points: int, level: Level, rules: RuleSet) -> int:
    """The chart's points at the contract's level: +1/+2 (000) or ×2/×3, ×2/×4."""
    if level is Level.NONE:
        return points
    step = rules.doubled if level is Level.DOUBLED else rules.redoubled
    return points + step if rules.level_mode is LevelMode.ADD else points * step


@dataclass(frozen=True)
class Deal:
    number: int
    declarer: Side
    value: int
    trump: Trump
    level: Level
    taken: int


@dataclass(frozen=True)
class DealResult:
    made: bool
    award_to: Side
    award: int
    awarded_by: PenaltyKind | None = None  # set when a penalty gave the deal away


def _as_enum(enum: type[E], raw: object, field: str, what: str) -> E:
    try:
        if not isinstance(raw, str):
            raise ValueError(raw)
        return enum(raw)
    except ValueError:
        known = ", ".join(m.value for m in enum)
        raise RuleError(
            f"unknown_{field}",
            marked('"%(raw)s" is not a %(what)s; use one of %(known)s.'),
            field=field,
            raw=raw,
            what=what,
            known=known,
        ) from None


def deal_from_values(
    *,
    number: object,
    declarer: object,
    value: object,
    trump: object,
    level: object,
    taken: object,
    deals_allowed: int | None,
) -> Deal:
    """A checked `Deal` from raw values, or `RuleErrors` naming every wrong field.

    `deals_allowed` is the highest deal number the match allows (None: no limit but
    DEAL_NUMBER_MAX, as in the tables format).
    """
    errors: list[RuleError] = []
    checked: dict[str, object] = {}

    def collect(field: str, make) -> None:  # type: ignore[no-untyped-def]
        try:
            checked[field] = make()
        except RuleError as error:
            errors.append(error)

    def integer(field: str, raw: object) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise RuleError(
                "not_a_number",
                marked("%(field)s must be a whole number."),
                field=field,
            )
        return raw

    limit = deals_allowed if deals_allowed is not None else DEAL_NUMBER_MAX

    def number_check() -> int:
        n = integer("number", number)
        if not 1 <= n <= limit:
            raise RuleError(
                "deal_number_out_of_range",
                marked(
                    "deal number %(number)s is outside this match: it has deals 1 to "
                    "%(limit)s."
                ),
                field="number",
                number=n,
                limit=limit,
            )
        return n

    def value_check() -> int:
        v = integer("value", value)
        if not VALUE_MIN <= v <= VALUE_MAX:
            raise RuleError(
                "value_out_of_range",
                marked("a contract is %(least)s to %(most)s; %(value)s cannot be bid."),
                field="value",
                value=v,
                least=VALUE_MIN,
                most=VALUE_MAX,
            )
        return v

    def taken_check() -> int:
        t = integer("taken", taken)
        if not 0 <= t <= POINTS_IN_DEAL:
            raise RuleError(
                "taken_out_of_range",
                marked(
                    "the tricks of a deal hold %(most)s points; taken must be 0 to "
                    "%(most)s, not %(taken)s."
                ),
                field="taken",
                taken=t,
                most=POINTS_IN_DEAL,
            )
        return t

    collect("number", number_check)
    collect("declarer", lambda: _as_enum(Side, declarer, "declarer", "team"))
    collect("value", value_check)
    collect("trump", lambda: _as_enum(Trump, trump, "trump", "trump"))
    collect("level", lambda: _as_enum(Level, level, "level", "level"))
    collect("taken", taken_check)
    if errors:
        raise errors[0] if len(errors) == 1 else RuleErrors(errors)
    return Deal(**checked)  # type: ignore[arg-type]


def score_deal(deal: Deal, rules: RuleSet) -> DealResult:
    """Who receives points for one deal, and how many (rules.md §2)."""
    made = deal.taken >= deal.value
    points = chart_points(deal.value, made=made)
    side = deal.declarer if made else deal.declarer.other
    return DealResult(
        made=made, award_to=side, award=apply_level(points, deal.level, rules)
    )


def award_deal(
    deal: Deal, rules: RuleSet, *, offender: Side, kind: PenaltyKind
) -> DealResult:
    """The deal given to the team that did not offend (000 §3.10).

    If the declarer offended, the contract counts as defeated; if the defenders did, as
    made, whatever was taken. The level still applies. The 3 points more are the
    penalty's own row (score_penalties), so that the sheet shows both.
    """
    made = offender is not deal.declarer
    points = chart_points(deal.value, made=made)
    return DealResult(
        made=made,
        award_to=offender.other,
        award=apply_level(points, deal.level, rules),
        awarded_by=kind,
    )


@dataclass(frozen=True)
class Penalty:
    key: int  # the row's identity; entry order breaks ties within a deal
    deal: int  # the deal number it happened in
    offender: Side
    kind: PenaltyKind
    points: int | None = None  # only for conduct: set by the organizer


@dataclass(frozen=True)
class PenaltyResult:
    key: int
    award_to: Side
    points: int
    warning: bool  # the team's first of a warned kind (WARNED_KINDS): 0 points


def check_penalty_points(kind: PenaltyKind, points: int | None, rules: RuleSet) -> None:
    """Only a conduct penalty takes points from the caller, 0 to the rule set's most
    (004: up to 2; 000 sets no limit, so 5 under the others)."""
    most = rules.conduct_max
    if kind is PenaltyKind.CONDUCT:
        if points is None or isinstance(points, bool) or not isinstance(points, int):
            raise RuleError(
                "conduct_points_missing",
                marked(
                    "a conduct penalty needs its points, 0 to %(most)s under "
                    "%(rule_set)s, as the organizer sets them."
                ),
                field="points",
                most=most,
                rule_set=rules.title,
            )
        if not 0 <= points <= most:
            raise RuleError(
                "conduct_points_out_of_range",
                marked(
                    "a conduct penalty is 0 to %(most)s points under %(rule_set)s "
                    "(rules.md §3), not %(points)s."
                ),
                field="points",
                points=points,
                most=most,
                rule_set=rules.title,
            )
    elif points is not None:
        raise RuleError(
            "points_fixed",
            marked(
                "the points of a %(kind)s penalty are set by the rules; "
                "leave points out."
            ),
            field="points",
            kind=kind.value,
        )


def score_penalties(
    penalties: Iterable[Penalty],
    rules: RuleSet,
    *,
    last_deal: int | None,
    edition: Edition = Edition.CURRENT,
) -> list[PenaltyResult]:
    """What each penalty gives and to whom, in deal order (rules.md §3).

    out_of_turn and lead_out_of_turn: where the rule set has warnings (not gcka, 004),
    a team's first of each kind in the match is a warning (0 points), every later one
    1 point; from the match's `last_deal` on there is no warning (000 §4.9). review:
    1 point. The awarding kinds give 3 points besides the deal itself (see
    award_deal). conduct: the organizer's points. A sheet of the FIRST edition warns
    under every rule set (Edition).
    """
    warns = rules.warnings or edition is Edition.FIRST
    warned: set[tuple[Side, PenaltyKind]] = set()
    results: list[PenaltyResult] = []
    for p in sorted(penalties, key=lambda p: (p.deal, p.key)):
        warning = False
        if p.kind in WARNED_KINDS:
            in_last_deal = last_deal is not None and p.deal >= last_deal
            track = (p.offender, p.kind)
            warning = warns and track not in warned and not in_last_deal
            warned.add(track)
            points = 0 if warning else ONE_POINT
        elif p.kind is PenaltyKind.REVIEW:
            points = ONE_POINT
        elif p.kind in AWARDING_KINDS:
            points = AWARD_PENALTY
        else:
            check_penalty_points(p.kind, p.points, rules)
            points = p.points or 0
        results.append(PenaltyResult(p.key, p.offender.other, points, warning))
    return results


def deal_givers(penalties: Iterable[Penalty]) -> dict[int, Penalty]:
    """Each deal's awarding penalty that gives it away: the first entered (the lowest
    key) where two were found in one deal (rules.md §3; each still gives its 3)."""
    givers: dict[int, Penalty] = {}
    for p in sorted(penalties, key=lambda p: p.key):
        if p.kind in AWARDING_KINDS:
            givers.setdefault(p.deal, p)
    return givers


def announced_after(number: int, deals_scheduled: int | None) -> bool:
    """Whether the scorer announces both totals after deal `number` (rules.md §4,
    000 §5.3: "after every six deals and also, at the end of each of the last six
    deals").

    After every sixth deal, and after each of the last six of the match's
    `deals_scheduled` (every deal of a match of six or fewer). A knockout's tie-break
    deals, numbered past the scheduled ones (rules.md §6), are announced each: they
    extend the end of the match, and any of them may decide it. The tables format
    (`deals_scheduled` None) has no last deals known in advance: every sixth only.
    So an 18-deal match announces after 6, 12, 13-18 (and 19-21 in a tie-break), a
    24-deal one after 6, 12, 18, 19-24, a 7-deal one after 2-7, a 12-deal one after
    6-12.
    """
    if number < 1:
        raise AssertionError(f"a deal is numbered from 1, not {number}")
    if number % CHECKPOINT_EVERY == 0:
        return True
    return deals_scheduled is not None and number > deals_scheduled - CHECKPOINT_LAST


def announced_deals(deals_scheduled: int, extra: int = 0) -> tuple[int, ...]:
    """The deal numbers, 1 to `deals_scheduled` + `extra` (a knockout's tie-break
    deals), after which the totals are announced (announced_after)."""
    return tuple(
        n
        for n in range(1, deals_scheduled + extra + 1)
        if announced_after(n, deals_scheduled)
    )


@dataclass(frozen=True)
class SheetRow:
    """One deal on the sheet with what each side received in it (penalties
    included) and the running totals after it."""

    number: int
    result: DealResult
    received_a: int
    received_b: int
    total_a: int
    total_b: int
    checkpoint: bool  # the totals are announced after it (announced_after, 000 §5.3)


@dataclass(frozen=True)
class Sheet:
    rows: tuple[SheetRow, ...]
    penalties: tuple[PenaltyResult, ...]
    total_a: int
    total_b: int
    deals_won_a: int
    deals_won_b: int
    complete: bool  # every scheduled deal is on the sheet (tables: a team is out)
    winner: Side | None  # None while incomplete, or a tie
    decided_by: str  # "", "total", "deals_won", "tables", "tie"
    missing: tuple[int, ...]  # scheduled deal numbers not on the sheet yet

    @property
    def difference(self) -> int:
        """The winner's total minus the loser's (0 for a tie or an open sheet)."""
        return abs(self.total_a - self.total_b) if self.winner else 0

    def total(self, side: Side) -> int:
        return self.total_a if side is Side.A else self.total_b


def _pick(side: Side, points: int) -> tuple[int, int]:
    return (points, 0) if side is Side.A else (0, points)


def score_sheet(
    rules: RuleSet,
    deals: Sequence[Deal],
    penalties: Sequence[Penalty] = (),
    *,
    deals_scheduled: int | None,
    knockout: bool = False,
    edition: Edition = Edition.CURRENT,
) -> Sheet:
    """A match's sheet: every deal scored, penalties applied, totals and winner.

    `edition` is the edition of the penalty rules the sheet is scored by (Edition).

    `deals_scheduled` None means the tables format (rules.md §8): totals are the tables
    each side holds, starting from 12, and the match ends when a side has none. In a
    knockout, equal totals decide nothing here (tie-break deals, rules.md §6).
    """
    numbers = [d.number for d in deals]
    if len(set(numbers)) != len(numbers):
        raise AssertionError(f"a deal number twice on one sheet: {sorted(numbers)}")
    by_number = {d.number: d for d in deals}
    for p in penalties:
        if p.deal not in by_number:
            raise AssertionError(
                f"penalty {p.key} names deal {p.deal}, not on the sheet"
            )
    awarding = deal_givers(penalties)
    penalty_results = score_penalties(
        penalties, rules, last_deal=deals_scheduled, edition=edition
    )
    penalty_deal = {p.key: p.deal for p in penalties}
    received_in: dict[int, list[int]] = {}
    for pr in penalty_results:
        a, b = _pick(pr.award_to, pr.points)
        got = received_in.setdefault(penalty_deal[pr.key], [0, 0])
        got[0] += a
        got[1] += b

    total_a = total_b = START_TABLES if deals_scheduled is None else 0
    won = {Side.A: 0, Side.B: 0}
    rows: list[SheetRow] = []
    for deal in sorted(deals, key=lambda d: d.number):
        given = awarding.get(deal.number)
        result = (
            award_deal(deal, rules, offender=given.offender, kind=given.kind)
            if given
            else score_deal(deal, rules)
        )
        won[result.award_to] += 1
        a, b = _pick(result.award_to, result.award)
        pa, pb = received_in.get(deal.number, (0, 0))
        a, b = a + pa, b + pb
        if deals_scheduled is None:
            # 003: what one side receives, the other pays.
            total_a, total_b = total_a + a - b, total_b + b - a
        else:
            total_a, total_b = total_a + a, total_b + b
        rows.append(
            SheetRow(
                number=deal.number,
                result=result,
                received_a=a,
                received_b=b,
                total_a=total_a,
                total_b=total_b,
                checkpoint=announced_after(deal.number, deals_scheduled),
            )
        )

    winner: Side | None = None
    decided_by = ""
    if deals_scheduled is None:
        missing: tuple[int, ...] = ()
        complete = total_a <= 0 or total_b <= 0
        if complete:
            winner, decided_by = (Side.A if total_a > 0 else Side.B), "tables"
    else:
        missing = tuple(n for n in range(1, deals_scheduled + 1) if n not in by_number)
        complete = not missing
        if complete:
            winner, decided_by = decide(
                rules, total_a, total_b, won[Side.A], won[Side.B], knockout=knockout
            )
    return Sheet(
        rows=tuple(rows),
        penalties=tuple(penalty_results),
        total_a=total_a,
        total_b=total_b,
        deals_won_a=won[Side.A],
        deals_won_b=won[Side.B],
        complete=complete,
        winner=winner,
        decided_by=decided_by,
        missing=missing,
    )


def decide(
    rules: RuleSet,
    total_a: int,
    total_b: int,
    won_a: int,
    won_b: int,
    *,
    knockout: bool = False,
) -> tuple[Side | None, str]:
    """The winner of a finished match and what decided it (rules.md §1, §4).

    The higher total wins. Equal totals: under gcka the side that won more deals wins
    (004); otherwise, and in a knockout, nothing is decided here ("tie").
    """
    if total_a != total_b:
        return (Side.A if total_a > total_b else Side.B), "total"
    if (
        not knockout
        and rules.equal_totals is EqualTotals.MORE_DEALS_WON
        and won_a != won_b
    ):
        return (Side.A if won_a > won_b else Side.B), "deals_won"
    return None, "tie"


def sheet_over(sheet: Sheet, *, deals_scheduled: int | None) -> bool:
    """True when no deal may be added: a tables match where a side has no tables."""
    return deals_scheduled is None and sheet.complete


class Stage(StrEnum):
    LEAGUE = "league"
    KNOCKOUT = "knockout"


class MatchStatus(StrEnum):
    SCHEDULED = "scheduled"  # no deal on the sheet yet
    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"  # every deal is in and the result is decided
    CONFIRMED = "confirmed"  # both captains or an organizer confirmed: locked
    VOID = "void"  # set aside by an organizer (a knockout reset): kept, counts nowhere
    FORFEITED = "forfeited"  # a team did not come (rules.md §9): locked, final


# Sheets that are final: locked, and counted as confirmed by every step that waits for
# confirmed sheets (rules.md §9: a forfeited sheet is final like a confirmed one).
FINAL_STATUSES = frozenset({MatchStatus.CONFIRMED, MatchStatus.FORFEITED})


def sheet_status(sheet: Sheet, *, knockout: bool = False) -> MatchStatus:
    """Where an unlocked sheet stands. A knockout tie is not complete: tie-break deals
    follow (rules.md §6)."""
    if not sheet.rows:
        return MatchStatus.SCHEDULED
    if sheet.complete and (sheet.winner is not None or not knockout):
        return MatchStatus.COMPLETED
    return MatchStatus.IN_PROGRESS
