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
