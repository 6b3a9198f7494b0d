"""At the table and for the team (issue 38), without a browser: both captains confirm
by their team links' pages in either language; the team page shows each side's
confirmation, the disputes and their rulings, and says when a dispute withdrew a
confirmation; the match page, the team link page and the table link's waiting page
poll with an ETag and get 304 while nothing changed; a table link keeps its
knockout match while a later round is played; a due toss is all the score page asks
for; a deal's answer is beside its button."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from brackets.models import Game
from scoring.links.services import links_ensure
from scoring.models import Match, SheetChange
from scoring.sheets import day, services
from tests.brackets.knockout import final_league
from tests.conftest import as_user
from tests.scoring.league import (
    deals_for,
    enter,
    link_key,
    play_quickly,
    tables_in_play,
)
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db

POLL = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def cup():
    """Round 1 at 2 tables; table 1's sheet played to its end (4 deals)."""
    tournament, organizer, teams, matches = tables_in_play(
        "team-cup", tables=2, deals=4
    )
    play_quickly(matches[0].pk, organizer, 9, 6, deals=4)
    matches[0].refresh_from_db()
    return tournament, organizer, teams, matches


def _team_client(language: str) -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE=language)


def _confirm_on_page(client: Client, key: str, match: Match):
    match.refresh_from_db()
    return client.post(
        f"/l/{key}/",
        {"action": "confirm", "match": str(match.pk), "version": str(match.version)},
        follow=True,
    )


@pytest.mark.parametrize("languages", [("en", "en"), ("ml", "en"), ("en", "ml")])
@pytest.mark.parametrize("order", ["ab", "ba"])
def test_both_captains_confirm_by_their_team_links_pages(cup, languages, order):
    tournament, _, _teams, (match, *_) = cup
    keys = {
        "a": link_key(tournament, team=match.team_a),
        "b": link_key(tournament, team=match.team_b),
    }
    first, second = order
    done = _confirm_on_page(_team_client(languages[0]), keys[first], match)
    assert done.status_code == 200
    other = _team_client("en")
    page = other.get(f"/l/{keys[second]}/").content.decode()
    first_team = match.team_a if first == "a" else match.team_b
    # The other captain sees that the first has confirmed.
    assert f"{first_team.name} confirmed this sheet." in page
    assert "You have not confirmed this sheet yet." in page
    done = _confirm_on_page(_team_client(languages[1]), keys[second], match)
    assert done.status_code == 200, done.content.decode()[:300]
    match.refresh_from_db()
    assert match.status == "confirmed"
    if languages[1] == "en":
        assert "the sheet is confirmed and locked" in done.content.decode()
    names = list(
        SheetChange.objects.filter(match=match, action__in=["confirm", "lock"])
        .order_by("pk")
        .values_list("actor_name", flat=True)
    )
    a_name, b_name = (f"{t.name} team link" for t in (match.team_a, match.team_b))
    assert names == (
        [a_name, b_name, b_name] if order == "ab" else [b_name, a_name, a_name]
    )
    # The match page says who locked it, and the team pages that both confirmed.
    shown = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "Confirmed by both captains and locked" in shown
    page = Client().get(f"/l/{keys['a']}/").content.decode()
    assert "You confirmed this sheet." in page
    assert f"{match.team_b.name} confirmed this sheet." in page


def test_a_dispute_says_it_withdrew_the_confirmation_and_the_ruling_shows(cup):
    tournament, organizer, _, (match, *_) = cup
    key = link_key(tournament, team=match.team_a)
    client = Client()
    _confirm_on_page(client, key, match)
    page = client.get(f"/l/{key}/").content.decode()
    # The form offers the sheet played now first, chosen.
    first = re.search(
        r'<select id="dispute-match" name="match"><option value="(\d+)"', page
    )
    assert first and int(first.group(1)) == match.pk
    assert re.search(rf'<option value="{match.pk}" selected>', page)
    raised = client.post(
        f"/l/{key}/",
        {"action": "dispute", "match": str(match.pk), "deal": "3", "text": "deal 3"},
        follow=True,
    ).content.decode()
    assert "It withdrew your confirmation of that sheet" in raised
    assert "Dispute on deal 3" in raised and "Open: an organizer rules on it" in raised
    dispute = match.disputes.get()
    day.score_sheet_dispute_rule(
        match_id=match.pk,
        dispute_id=dispute.pk,
        user=organizer,
        ruling="Deal 3 stands.",
    )
    page = client.get(f"/l/{key}/").content.decode()
    assert "<strong>Ruling</strong> by org" in page and "Deal 3 stands." in page
    # Not a bare "not confirmed": the captain is told why, and to confirm again.
    assert f"Your confirmation was withdrawn by dispute {dispute.pk}" in page
    assert "confirm the sheet again" in page
    assert 'aria-label="Confirm the sheet of table 1, round 1"' in page
    # A dispute raised before any confirmation withdraws nothing and says nothing.
    other = (
        Client()
        .post(
            f"/l/{link_key(tournament, team=match.team_b)}/",
            {"action": "dispute", "match": str(match.pk), "text": "the whole match"},
            follow=True,
        )
        .content.decode()
    )
    assert "is recorded" in other
    assert "It withdrew your confirmation" not in other
    # What the first dispute did to the other team's confirmation is said, though.
    assert (
        f"Dispute {dispute.pk} withdrew the confirmation of {match.team_a.name}"
        in other
    )


def _lock(match: Match, organizer) -> None:
    """The organizer confirms the sheet as it is now: it locks."""
    services.score_sheet_confirm(
        match_id=match.pk,
        user=organizer,
        version=Match.objects.get(pk=match.pk).version,
        roles=frozenset({Role.ORGANIZER}),
        sides=frozenset(),
    )


def _poll(client: Client, url: str, etag: str | None = None):
    extra = dict(POLL)
    if etag:
        extra["HTTP_IF_NONE_MATCH"] = etag
    return client.get(url, **extra)


def test_the_match_page_polls_with_its_etag_while_the_sheet_is_open(cup):
    _tournament, organizer, _, (_, match) = cup
    client = Client()
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="match-live"' in page and 'hx-trigger="every' in page
    etag = re.search(r'id="match-live" data-etag="([^"]+)"', page).group(1)
    etag = etag.replace("&quot;", '"')
    same = _poll(client, f"/matches/{match.pk}/", etag)
    assert same.status_code == 304 and same["ETag"] == etag
    assert same.content == b""
    enter(as_user(APIClient(), organizer), match.pk, deals_for(7, 0)[:1])
    moved = _poll(client, f"/matches/{match.pk}/", etag)
    assert moved.status_code == 200 and moved["ETag"] != etag
    fragment = moved.content.decode()
    assert 'id="match-live"' in fragment and "1 of 4 deals" in fragment
    assert "<html" not in fragment
    # Another language is another answer: the ETag names it.
    other = Client(HTTP_ACCEPT_LANGUAGE="ml")
    assert _poll(other, f"/matches/{match.pk}/", moved["ETag"]).status_code == 200


def test_a_confirmed_match_page_stops_polling(cup):
    _tournament, organizer, _, (match, *_) = cup
    _lock(match, organizer)
    page = Client().get(f"/matches/{match.pk}/").content.decode()
    assert (
        'id="match-live"' in page
        and "hx-trigger" not in page.split('id="match-live"')[1].split(">")[0]
    )


def test_the_team_link_page_polls_with_its_etag(cup):
    tournament, _organizer, _, (match, *_) = cup
    key = link_key(tournament, team=match.team_b)
    client = Client()
    first = _poll(client, f"/l/{key}/")
    assert first.status_code == 200 and 'id="team-sheets"' in first.content.decode()
    assert "<html" not in first.content.decode()
    assert _poll(client, f"/l/{key}/", first["ETag"]).status_code == 304
    _confirm_on_page(Client(), link_key(tournament, team=match.team_a), match)
    after = _poll(client, f"/l/{key}/", first["ETag"])
    assert after.status_code == 200
    assert f"{match.team_a.name} confirmed this sheet." in after.content.decode()


def test_the_table_links_waiting_page_polls_with_its_etag(cup):
    tournament, organizer, _, (match, *_) = cup
    _lock(match, organizer)
    key = link_key(tournament, table=1)
    client = Client()
    page = client.get(f"/l/{key}/")
    assert 'id="table-home" data-etag=' in page.content.decode()
    assert _poll(client, f"/l/{key}/", page["ETag"]).status_code == 304


def test_a_table_link_keeps_its_quarter_final_while_a_semi_final_is_played(api):
    """Table 3's quarter-final goes on after tables 1 and 2's quarter-finals opened
    a semi-final: its link opens the quarter-final, not "no match here"."""
    tournament, organizer = final_league(2, 6, qualifiers=8, slug="reach-cup")
    as_user(api, organizer)
    seeded = api.post(
        "/api/v1/tournaments/reach-cup/knockout/",
        {"deals": {"quarter_final": 4, "semi_final": 4}},
        "json",
    )
    assert seeded.status_code == 201, seeded.json()
    links_ensure(tournament=tournament, tables=6)
    quarters = {
        g.sheet.table: g.sheet
        for g in Game.objects.filter(
            knockout_match__bracket__tournament=tournament, knockout_match__round=1
        ).select_related("sheet")
    }
    for table in (1, 2):
        enter(api, quarters[table].pk, deals_for(9, 3, 4))
        _lock(quarters[table], organizer)
    semi = Match.objects.get(tournament=tournament, stage="knockout", round=2)
    assert semi.table == 1
    enter(api, quarters[3].pk, deals_for(9, 3, 4)[:2])
    page = Client().get(f"/l/{link_key(tournament, table=3)}/").content.decode()
    assert 'id="deal-form"' in page
    assert (
        f'action="/l/{link_key(tournament, table=3)}/sheets/{quarters[3].pk}/"' in page
    )
    assert "No match is played at table 3" not in page
    assert "Earlier sheets of table 3" not in page  # the open sheet is not listed


def test_a_due_toss_is_all_the_score_page_asks_for(api):
    _tournament, organizer = final_league(2, 6, qualifiers=8, slug="toss-cup")
    as_user(api, organizer)
    data = api.post(
        "/api/v1/tournaments/toss-cup/knockout/",
        {"deals": {"quarter_final": 4}},
        "json",
    ).json()
    quarter = data["rounds"][0]["matches"][0]["match"]
    enter(api, quarter, deals_for(2, 2, 4))
    enter(api, quarter, deals_for(1, 1), first=5)
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/matches/{quarter}/score/").content.decode()
    assert 'id="toss-form"' in page and 'id="deal-form"' not in page
    assert "Record the toss first; then deal 7, the deciding deal" in page
    assert "4 of 4 deals and 2 tie-break deals" in page
    # Editing a deal is still possible: its form comes back with the deal.
    edit = client.get(f"/matches/{quarter}/score/?edit=2").content.decode()
    assert 'id="deal-form"' in edit


def test_a_deals_answer_is_beside_its_button(cup):
    tournament, _, _, (_, match) = cup
    key = link_key(tournament, table=2)
    client = Client()
    page = client.get(f"/l/{key}/").content.decode()
    assert 'hx-disabled-elt="find button.save"' in page
    assert '<span class="saving">Saving…</span>' in page
    body = deals_for(7, 0)[0]
    answer = client.post(
        f"/l/{key}/sheets/{match.pk}/",
        {
            "action": "deal",
            "number": "1",
            **{k: str(body[k]) for k in ("declarer", "value", "trump", "level")},
            "taken": str(body["taken"]),
            "version": str(match.version),
        },
        **POLL,
    ).content.decode()
    state = answer.split('id="save-state"')[1].split("</p>")[0]
    assert "Deal 1 saved" in state
    assert 'class="flash' not in answer.split('id="deal-form"')[0]
    refused = client.post(
        f"/l/{key}/sheets/{match.pk}/",
        {"action": "deal", "number": "2", "version": "2", "value": "99"},
        **POLL,
    ).content.decode()
    state = refused.split('id="save-state"')[1].split("</p>")[0]
    assert "Not saved: correct what is marked above." in state


def test_the_team_link_page_reads_no_sheet_of_its_own(
    cup, django_assert_num_queries, django_assert_max_num_queries
):
    """Its confirmations come from the matches' rows: the queries do not grow with
    the team's sheets played and locked."""
    tournament, organizer, _, (match, other) = cup
    key = link_key(tournament, team=match.team_a)
    with django_assert_max_num_queries(12) as one:
        Client().get(f"/l/{key}/")
    later = services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=match.team_a_id,
        team_b=other.team_b_id,
        round=2,
        table=1,
    )
    play_quickly(later.pk, organizer, 9, 6, deals=4)
    _lock(match, organizer)
    with django_assert_num_queries(len(one)):
        page = Client().get(f"/l/{key}/").content.decode()
    assert page.count("You have not confirmed this sheet yet.") == 1
    assert "Locked without your confirmation" in page
