"""Rosters and substitutions (rules.md §9: chosen here; no rule book covers them).

What it computes: who plays for a team in a round (its registered players, with
every substitution from that round or earlier applied in order), and whether a new
substitution may be approved: within the tournament's `substitutions_allowed`, from
a round that exists, not before the team's last substitution, the player leaving on
the roster and the one coming in not.

What it does not: store anything, or decide which rounds have been played (the
service refuses a round whose sheet is final, so that a kept roster never changes).

Vocabulary: a *swap* is one approved substitution; a round is named by its stage
and number, league rounds first (`round_order`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import ConflictError, RuleError, RuleErrors, marked
from .types import RoundStage

NAME_MAX = 80
KNOCKOUT_ROUNDS_MAX = 10  # a bracket of 1024 places


@dataclass(frozen=True)
class Swap:
    number: int  # 1 for the team's first
    out: str
    into: str
    stage: RoundStage
    from_round: int


def round_order(stage: RoundStage, number: int) -> tuple[int, int]:
    """Rounds in the order they are played: the league's, then the knockout's."""
    return (list(RoundStage).index(stage), number)


def roster_at(
    players: Sequence[str], swaps: Sequence[Swap], stage: RoundStage, number: int
) -> list[str]:
    """Who plays for the team in that round: the registered players, each swap from
    that round or earlier replacing its player in place, in the order approved."""
    roster = list(players)
    here = round_order(stage, number)
    for swap in sorted(swaps, key=lambda s: s.number):
        if round_order(swap.stage, swap.from_round) > here:
            continue
        folded = [p.casefold() for p in roster]
        if swap.out.casefold() not in folded:
            raise AssertionError(f"swap {swap.number}: {swap.out} is not on the roster")
        roster[folded.index(swap.out.casefold())] = swap.into
    return roster


def roster_now(
    players: Sequence[str], swaps: Sequence[Swap]
) -> list[tuple[str, Swap | None]]:
    """The team's players as they are now, in the registration's order: every
    approved swap applied in the order approved, whatever its round, a name matched
    as `roster_at` matches it (without regard to case). Each place gives who holds
    it and the last swap that put him there (None for a registered player)."""
    roster: list[tuple[str, Swap | None]] = [(p, None) for p in players]
    for swap in sorted(swaps, key=lambda s: s.number):
        folded = [name.casefold() for name, _ in roster]
        if swap.out.casefold() not in folded:
            raise AssertionError(f"swap {swap.number}: {swap.out} is not on the roster")
        roster[folded.index(swap.out.casefold())] = (swap.into, swap)
    return roster


def roster_played(roster: Sequence[str], side: str, absent: str) -> list[str]:
    """Who played for side `side` ("A" or "B") of a match whose absent side is
    `absent` ("A", "B", "both"; "" when no forfeit): rules.md §9, "Who played a
    forfeited match": only the team that came played, so the absent team's roster
    of that match is empty."""
    return [] if absent in (side, "both") else list(roster)


def substitution_check(
    players: Sequence[str],
    swaps: Sequence[Swap],
    *,
    out: str,
    into: str,
    stage: RoundStage,
    from_round: int,
    allowed: int,
    league_rounds: int,
) -> tuple[str, str]:
    """The two names, cleaned, or the rules the substitution breaks: all of the input
    errors at once (400), or one conflict with the team's state (409)."""
    if len(swaps) >= allowed:
        raise ConflictError(
            "substitutions_used",
            marked(
                "the team has made %(count)s of the substitutions this tournament "
                "allows (%(allowed)s: substitutions_allowed)."
            ),
            allowed=allowed,
            count=len(swaps),
        )
    errors = []
    last = max(swaps, key=lambda s: s.number, default=None)
    highest = league_rounds if stage is RoundStage.LEAGUE else KNOCKOUT_ROUNDS_MAX
    if not 1 <= from_round <= highest:
        errors.append(
            RuleError(
                "round_out_of_range",
                marked("a %(stage)s round is 1 to %(highest)s"),
                field="from_round",
                stage=stage.value,
                highest=highest,
            )
        )
    elif last is not None and round_order(stage, from_round) < round_order(
        last.stage, last.from_round
    ):
        errors.append(
            RuleError(
                "substitution_order",
                marked(
                    "the team's substitution %(number)s is from %(stage)s round "
                    "%(from_round)s; a later one cannot start earlier"
                ),
                field="from_round",
                number=last.number,
                stage=last.stage.value,
                from_round=last.from_round,
            )
        )
    out, into = " ".join(out.split()), " ".join(into.split())
    roster = roster_at(players, swaps, stage, max(from_round, 1))
    folded = [p.casefold() for p in roster]
    if not out:
        errors.append(
            RuleError("required", marked("name the player who leaves"), field="out")
        )
    elif out.casefold() not in folded:
        errors.append(
            RuleError(
                "not_on_roster",
                marked(
                    "%(out)s does not play for the team then; its roster is %(roster)s"
                ),
                field="out",
                out=out,
                roster=", ".join(roster),
            )
        )
    if not into:
        errors.append(
            RuleError("required", marked("name the player who comes in"), field="in")
        )
    elif len(into) > NAME_MAX:
        errors.append(
            RuleError(
                "too_long",
                marked("a name is at most %(NAME_MAX)s characters"),
                field="in",
                NAME_MAX=NAME_MAX,
            )
        )
    elif into.casefold() in folded:
        errors.append(
            RuleError(
                "on_roster",
                marked("%(into)s already plays for the team"),
                field="in",
                into=into,
            )
        )
    if errors:
        raise errors[0] if len(errors) == 1 else RuleErrors(errors)
    # The player who leaves as the roster spells him, however he was typed.
    return roster[folded.index(out.casefold())], into
