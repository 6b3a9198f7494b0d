"""The size of a knockout bracket and where each seed starts (rules.md §6).

What it computes: for Q qualifiers the bracket size P (the power of two >= Q), the
standard seeding order of P places (seeds 1 and 2 can meet only in the final, seeds
1-4 only from the semi-finals on, and so on), the first round's pairs with the byes of
the top P - Q seeds, and the names and stage keys of the rounds.

What it does not: rank teams (scoring/domain/standings.py gives the seeds) or follow
results through the bracket (progression.py).

Vocabulary: a *seed* is a qualifier's place in the final league ranking, 1 the best;
a *bye* is a place in the first round without an opponent: its seed goes straight on;
*places* of a round are the teams it starts with (32 in the first round of 24
qualifiers: 16 play, 8 have a bye, 8 places stay empty).
"""

from __future__ import annotations

from scoring.domain import rounds
from tournament.domain.errors import RuleError, Words, marked

QUALIFIERS_MIN = 2
QUALIFIERS_MAX = 256


def bracket_size(qualifiers: int) -> int:
    """P: the smallest power of two that holds `qualifiers` teams."""
    if not QUALIFIERS_MIN <= qualifiers <= QUALIFIERS_MAX:
        raise RuleError(
            "qualifiers_out_of_range",
            marked(
                "a knockout has %(least)s to %(most)s qualifiers, not %(qualifiers)s."
            ),
            field="qualifiers",
            qualifiers=qualifiers,
            least=QUALIFIERS_MIN,
            most=QUALIFIERS_MAX,
        )
    return rounds.bracket_places(qualifiers)  # the round names count places the same


def qualifiers_offered(setting: int, playing: int | None) -> int:
    """How many qualifiers the seeding form offers: the tournament's setting, or
    fewer when fewer teams can play on (withdrawn teams and teams absent from the
    draw cannot qualify); `playing` None when not known (the knockout is seeded)."""
    return setting if playing is None else min(setting, playing)


def seed_order(size: int) -> list[int]:
    """The seeds of a full bracket of `size` places, top to bottom; neighbours meet
    in the first round. Each doubling puts seed s beside size + 1 - s, so the top two
    seeds sit in opposite halves, the top four in different quarters, and so on."""
    if size < 2 or size & (size - 1):
        raise AssertionError(f"a bracket has a power of two places, not {size}")
    order = [1, 2]
    while len(order) < size:
        n = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, n - seed)]
    return order


def first_round(qualifiers: int) -> list[tuple[int, int | None]]:
    """The first round's pairs, top to bottom: (seed, opponent), the opponent None for
    a bye. The better seed comes first."""
    order = seed_order(bracket_size(qualifiers))
    pairs = []
    for high, low in zip(order[::2], order[1::2], strict=True):
        high, low = min(high, low), max(high, low)
        pairs.append((high, low if low <= qualifiers else None))
    return pairs


def byes(qualifiers: int) -> list[int]:
    """The seeds with a bye in the first round: the top P - Q (rules.md §6)."""
    return list(range(1, bracket_size(qualifiers) - qualifiers + 1))


def round_name(places: int, *, first: bool, with_byes: bool) -> Words:
    """What players call a round that starts with `places` places: the one set of
    names every page uses (scoring/domain/rounds.py)."""
    return rounds.knockout_name(places, first=first, with_byes=with_byes)


def stage_key(places: int) -> str:
    """The key of a round's deals per match in a bracket's settings."""
    return {2: "final", 4: "semi_final", 8: "quarter_final"}.get(
        places, f"round_of_{places}"
    )


SECOND_RUNNER_UP = "second_runner_up"
# rules.md §6: first knockout round, round of 16 and quarter-finals 18 deals;
# semi-finals 24; each game of the final 18; the second runner-up match 24.
DEALS_DEFAULT = 18
STAGE_DEALS_MAX = 96  # with the 3 deals a tie-break may add: a sheet's 99
DEALS_DEFAULTS = {"semi_final": 24, "final": 18, SECOND_RUNNER_UP: 24}


def stage_keys(qualifiers: int) -> list[str]:
    """Every stage key a bracket of `qualifiers` has, first round first."""
    keys = []
    places = bracket_size(qualifiers)
    while places >= 2:
        keys.append(stage_key(places))
        places //= 2
    if qualifiers >= 4:
        keys.insert(-1, SECOND_RUNNER_UP)
    return keys


def stage_deals(qualifiers: int, given: dict[str, int] | None = None) -> dict[str, int]:
    """Deals per match of every stage: the defaults of rules.md §6, with `given`
    changes. An unknown stage or a count outside 1..99 is refused, naming it."""
    keys = stage_keys(qualifiers)
    deals = {k: DEALS_DEFAULTS.get(k, DEALS_DEFAULT) for k in keys}
    for key, count in (given or {}).items():
        if key not in deals:
            raise RuleError(
                "unknown_stage",
                marked(
                    "a bracket of %(qualifiers)s qualifiers has no stage '%(stage)s'; "
                    "its stages are %(stages)s."
                ),
                field="deals",
                stage=key,
                qualifiers=qualifiers,
                stages=", ".join(keys),
            )
        if (
            isinstance(count, bool)
            or not isinstance(count, int)
            or not 1 <= count <= 96
        ):
            raise RuleError(
                "stage_deals_out_of_range",
                marked(
                    "a %(stage)s match has 1 to %(most)s deals (a tie-break may "
                    "add 3), not %(deals)r."
                ),
                field="deals",
                stage=key,
                most=STAGE_DEALS_MAX,
                deals=count,
            )
        deals[key] = count
    return deals
