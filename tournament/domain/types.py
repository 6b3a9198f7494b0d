"""Small value types shared by the tournament's pure modules."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    """A person's role in one tournament."""

    ORGANIZER = "organizer"  # all of a tournament
    SCORER = "scorer"  # enters score sheets
    CAPTAIN = "captain"  # confirms the own team's sheets


class TournamentStatus(StrEnum):
    REGISTRATION = "registration"  # teams register; sections can change
    LEAGUE = "league"  # the draw is made; the league is played
    KNOCKOUT = "knockout"
    FINISHED = "finished"


class TeamStatus(StrEnum):
    """Where a team stands on the day (rules.md §9)."""

    ACTIVE = "active"  # in the league (or waiting for it)
    ABSENT = "absent"  # not checked in when a check-in draw was made: not drawn
    WITHDRAWN = "withdrawn"  # left (or was disqualified) from a round on


class RoundStage(StrEnum):
    """The part of a tournament a round belongs to, in the order they are played."""

    LEAGUE = "league"
    KNOCKOUT = "knockout"
