"""The rule sets of rules.md §1 as data: what a tournament of each kind starts with.

It holds the numbers an organizer starts from (team size, deals per match, league
rounds, qualifiers) and how a rule set treats doubling and equal match totals. It does
not score a deal (that is scoring/domain/rules.py, which reads these records). Every
number is a default an organizer may change per tournament.

Vocabulary: a *deal* is one hand; a *match* is a fixed number of deals between two
teams; the *level* of a contract is none, doubled or redoubled.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RuleSetCode(StrEnum):
    INTERNATIONAL = "international"
    GCKA = "gcka"
    ONLINE = "online"
    CLASSIC = "classic"
    TABLES = "tables"


class LevelMode(StrEnum):
    """How doubling changes a deal's award: add points (000) or multiply (001-004)."""

    ADD = "add"
    MULTIPLY = "multiply"


class EqualTotals(StrEnum):
    """What equal match totals mean in the league."""

    TIE = "tie"
    MORE_DEALS_WON = "more_deals_won"  # 004: the team that won more deals wins
    TABLES = "tables"  # 003: the match runs until a team has no tables (rules.md §8)


@dataclass(frozen=True)
class RuleSet:
    code: RuleSetCode
    title: str
    source: str
    team_sizes: tuple[int, ...]
    league_deals: int | None  # None: until a team runs out of tables (rules.md §8)
    level_mode: LevelMode
    doubled: int
    redoubled: int
    equal_totals: EqualTotals
    league_rounds: int = 8
    qualifiers: int = 24
    # Penalties (rules.md §3): whether a team's first out-of-turn bid and its first
    # lead out of turn are warnings (000 §3.2, §4.2; 004 has none), and the most a
    # conduct penalty may be (004's "up to 2 points"; 000 sets no limit, 5 here).
    warnings: bool = True
    conduct_max: int = 5
    # 001: the lead player's first call is a bid; elsewhere his pass is 28 no-trump
    # (000 §3.1).
    lead_may_pass: bool = True

    @property
    def default_team_size(self) -> int:
        return 3 if 3 in self.team_sizes else self.team_sizes[0]

    def numbers(self) -> dict[str, int | None]:
        """The numbers a tournament of this rule set starts with, by setting."""
        return {
            "players_per_team": self.default_team_size,
            "league_rounds": self.league_rounds,
            "league_deals": self.league_deals,
            "qualifiers": self.qualifiers,
        }


RULESETS: dict[RuleSetCode, RuleSet] = {
    rs.code: rs
    for rs in (
        RuleSet(
            RuleSetCode.INTERNATIONAL,
            "56 International",
            "000",
            (3,),
            18,
            LevelMode.ADD,
            1,
            2,
            EqualTotals.TIE,
        ),
        RuleSet(
            RuleSetCode.GCKA,
            "Greater Carolina Kerala Association",
            "004",
            (3,),
            7,
            LevelMode.MULTIPLY,
            2,
            3,
            EqualTotals.MORE_DEALS_WON,
            warnings=False,
            conduct_max=2,
        ),
        RuleSet(
            RuleSetCode.ONLINE,
            "Online 56",
            "002",
            (2, 3, 4),
            12,
            LevelMode.MULTIPLY,
            2,
            3,
            EqualTotals.TIE,
        ),
        RuleSet(
            RuleSetCode.CLASSIC,
            "Classic 56",
            "001",
            (3, 4),
            18,
            LevelMode.MULTIPLY,
            2,
            4,
            EqualTotals.TIE,
            lead_may_pass=False,
        ),
        RuleSet(
            RuleSetCode.TABLES,
            "Tables",
            "003",
            (2, 3, 4),
            None,
            LevelMode.MULTIPLY,
            2,
            4,
            EqualTotals.TABLES,
        ),
    )
}


def ruleset_get(code: str) -> RuleSet:
    """The rule set named `code`; KeyError names the known ones."""
    try:
        return RULESETS[RuleSetCode(code)]
    except ValueError:
        known = ", ".join(c.value for c in RuleSetCode)
        raise KeyError(f"unknown rule set {code!r}; known: {known}") from None
