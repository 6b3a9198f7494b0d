"""Fixtures of score sheets: a league match between two teams of different sections."""

import pytest

from scoring.sheets import services
from tests.factories import TeamFactory


@pytest.fixture
def away_team(sections):
    return TeamFactory(section=sections["chicago"], name="Chicago Jacks")


@pytest.fixture
def match(tournament, team, away_team, organizer):
    """Round 1, table 1: Edison Aces (A) v Chicago Jacks (B), 18 deals."""
    return services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=team.pk,
        team_b=away_team.pk,
        round=1,
        table=1,
    )


@pytest.fixture
def away_captain(tournament, away_team):
    from tests.factories import member
    from tournament.domain.types import Role

    return member(tournament, Role.CAPTAIN, "cap-b", team=away_team)


def deal_body(number, declarer="A", value=40, trump="clubs", level="none", taken=40):
    return {
        "number": number,
        "declarer": declarer,
        "value": value,
        "trump": trump,
        "level": level,
        "taken": taken,
    }


def post_deal(api, match, body):
    """POST a deal at the sheet's version as read now."""
    version = api.get(f"/api/v1/matches/{match.pk}/").json()["version"]
    return api.post(
        f"/api/v1/matches/{match.pk}/deals/", {**body, "version": version}, "json"
    )


def page_deal_body(match, number: int = 1, **extra) -> dict[str, str]:
    """The score page's deal form as a browser posts it: 40 clubs by A, made."""
    return {
        "action": "deal",
        **{k: str(v) for k, v in deal_body(number).items()},
        "version": str(match.version),
        **extra,
    }
