"""A team's page, as an organizer uses its two forms (rules.md §9): a substitution
and a withdrawal, each with its own prefix so that its "From round" and "Why" are
its own fields (ids and names: substitute-reason, withdraw-reason)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import TournamentFactory, member
from tests.scoring.league import drawn_league
from tournament.domain.types import Role
from tournament.models import Substitution

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "substituted", "listed", "withdrawn", "from_round"),
    [
        # The round by its one name, "Round 2", not "League round 2" (issue 41).
        (
            "en",
            "instead of {out} from Round 2.",
            "from Round 2: a flight",
            "is withdrawn from round 3",
            "from Round 2)",
        ),
        (
            "ml",
            "റൗണ്ട് 2 മുതൽ Region",
            "റൗണ്ട് 2 മുതൽ: a flight",
            "റൗണ്ട് 3 മുതൽ പിന്മാറി",
            "റൗണ്ട് 2 മുതൽ)",
        ),
    ],
)
def test_an_organizer_substitutes_and_withdraws_from_a_teams_page(
    language, substituted, listed, withdrawn, from_round
):
    tournament = TournamentFactory(slug="forms", league_rounds=3, league_deals=6)
    organizer = member(tournament, Role.ORGANIZER, "forms-org")
    match = drawn_league(tournament, organizer, sections=3, per_section=2)[0]
    team = match.team_a
    url = f"/t/forms/teams/{team.pk}/"
    client = Client()
    client.force_login(organizer)
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    page = client.get(url).content.decode()
    for form in ("substitute", "withdraw"):
        for field in ("from_round", "reason"):
            assert f'<label for="id_{form}-{field}">' in page
            assert f'id="id_{form}-{field}"' in page
    assert 'id="id_reason"' not in page and 'id="id_from_round"' not in page

    leaving = team.players.order_by("position").last().name
    answer = client.post(
        url,
        {
            "action": "substitute",
            "substitute-out": leaving,
            "substitute-into": "Ravi Menon",
            "substitute-from_round": "2",
            "substitute-stage": "league",
            "substitute-reason": "a flight",
        },
        follow=True,
    )
    said = answer.content.decode()
    assert substituted.format(out=leaving) in said, said
    assert listed in said
    assert "League round" not in said and "league round" not in said
    # The header lists the team as it plays now: who came in, whom he replaced and
    # from which round; not the player who left (issue 41's walk).
    header = said.split('<p class="meta">', 1)[1].split("</p>")[0]
    assert "Ravi Menon</a> <small>(" in header and leaving in header
    assert header.count(leaving) == 1 and from_round in header
    made = Substitution.objects.get(team=team)
    assert (made.player_in, made.from_round, made.reason) == (
        "Ravi Menon",
        2,
        "a flight",
    )

    answer = client.post(
        url,
        {
            "action": "withdraw",
            "withdraw-from_round": "3",
            "withdraw-reason": "the captain is ill",
        },
        follow=True,
    )
    assert withdrawn in answer.content.decode()
    team.refresh_from_db()
    assert (team.status, team.withdrawn_from_round, team.withdrawn_reason) == (
        "withdrawn",
        3,
        "the captain is ill",
    )


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_substitution_typed_in_another_case_replaces_the_captain_on_the_page(
    language,
):
    """Issue 52: "anil kumar" typed for the captain "Anil Kumar" is the roster rule's
    match (casefold), so the page lists who came in, not the captain who left."""
    tournament = TournamentFactory(slug="case", league_rounds=3, league_deals=6)
    organizer = member(tournament, Role.ORGANIZER, "case-org")
    team = drawn_league(tournament, organizer, sections=3, per_section=2)[0].team_a
    captain = team.players.get(position=1)
    captain.name = "Anil Kumar"
    captain.save(update_fields=["name"])
    client = Client()
    client.force_login(organizer)
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    url = f"/t/case/teams/{team.pk}/"
    answer = client.post(
        url,
        {
            "action": "substitute",
            "substitute-out": "anil kumar",
            "substitute-into": "Biju Paul",
            "substitute-from_round": "2",
            "substitute-stage": "league",
            "substitute-reason": "a flight",
        },
        follow=True,
    )
    # Stored as the roster spells him, however he was typed.
    assert Substitution.objects.get(team=team).player_out == "Anil Kumar"
    header = answer.content.decode().split('<p class="meta">', 1)[1].split("</p>")[0]
    assert header.startswith("Biju Paul") or ">Biju Paul</a>" in header, header
    assert "(c)" not in header  # the captain left; nobody else is marked captain
    # Anil Kumar is named once: as the player Biju Paul replaced, never as playing.
    assert header.count("Anil Kumar") == 1, header


@pytest.mark.parametrize(
    ("language", "withdraw", "forfeit"),
    [
        (
            "en",
            "Withdraw {team}? Its matches from that round on become forfeits, and "
            "this cannot be taken back.",
            "Record the forfeit? The present team wins this match",
        ),
        (
            "ml",
            "{team} നെ പിൻവലിക്കണോ? ആ റൗണ്ട് മുതലുള്ള",
            "തോൽവി രേഖപ്പെടുത്തണോ?",
        ),
    ],
)
def test_a_withdrawal_and_a_forfeit_ask_first(language, withdraw, forfeit):
    """Issue 52: neither can be taken back from its page, so each form carries its
    question for static/js/confirm.js, in the page's language."""
    tournament = TournamentFactory(slug="ask", league_rounds=3, league_deals=6)
    organizer = member(tournament, Role.ORGANIZER, "ask-org")
    match = drawn_league(tournament, organizer, sections=3, per_section=2)[0]
    client = Client()
    client.force_login(organizer)
    client.cookies["django_language"] = language
    page = client.get(f"/t/ask/teams/{match.team_a.pk}/").content.decode()
    assert 'data-confirm="' + withdraw.format(team=match.team_a.name) in page
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'data-confirm="{forfeit}' in page
