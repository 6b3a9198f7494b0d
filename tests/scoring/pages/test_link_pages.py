"""Table and team links on the pages, without a browser (docs/links.md): what a link
opens, its plain forms (no JavaScript), the organizer's Links tab and cards, and
queries that do not grow with the sheet or the tournament."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring.models import Deal, Dispute, Match
from scoring.sheets import services
from tests.scoring.league import deals_for, link_key, play_quickly, tables_in_play
from tournament.domain.types import Role
from tournament.models import Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    return tables_in_play("cards", tables=3, deals=4, check_in_required=True)


def _key(tournament, table=None, team=None) -> str:
    return link_key(tournament, table=table, team=team)


def _deal_form(number: int, body: dict, version: int) -> dict:
    return {
        "action": "deal",
        "number": str(number),
        "declarer": body["declarer"],
        "value": str(body["value"]),
        "trump": body["trump"],
        "level": body["level"],
        "taken": str(body["taken"]),
        "version": str(version),
    }


def test_a_table_link_page_scores_by_plain_forms(cup, client):
    tournament, _, _, (match, *_) = cup
    key = _key(tournament, table=1)
    page = client.get(f"/l/{key}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="deal-form"' in html and f'action="/l/{key}/sheets/{match.pk}/"' in html
    assert f'href="/l/{key}/manifest.webmanifest"' in html
    assert 'src="/static/js/score/page.js"' in html
    assert page["Cache-Control"] == "private, no-cache"
    body = deals_for(7, 0)[0]
    done = client.post(
        f"/l/{key}/sheets/{match.pk}/",
        _deal_form(1, body, match.version),
        HTTP_IDEMPOTENCY_KEY="entry-1",
    )
    assert done.status_code == 302 and done["Location"] == f"/l/{key}/"
    # The same entry again (a queue's retry): on the sheet once.
    again = client.post(
        f"/l/{key}/sheets/{match.pk}/",
        _deal_form(1, body, match.version),
        HTTP_IDEMPOTENCY_KEY="entry-1",
    )
    assert again.status_code == 302
    assert Deal.objects.filter(match=match).count() == 1
    change = match.changes.get(action="deal_add")
    assert (change.actor_name, change.actor_id) == ("table 1 link", None)
    # The history on the match page names the link, too.
    assert "table 1 link" in client.get(f"/matches/{match.pk}/").content.decode()


def test_a_penalty_sent_twice_is_saved_once(cup, client):
    tournament, organizer, _, (match, *_) = cup
    play_quickly(match.pk, organizer, 3, 0, deals=1)
    match.refresh_from_db()
    key = _key(tournament, table=1)
    form = {
        "action": "penalty",
        "penalty-deal": "1",
        "penalty-offender": "B",
        "penalty-kind": "kallakali",
        "penalty-version": str(match.version),
    }
    for _ in range(2):
        sent = client.post(
            f"/l/{key}/sheets/{match.pk}/", form, HTTP_IDEMPOTENCY_KEY="penalty-1"
        )
        assert sent.status_code == 302
    assert match.deals.get().penalties.count() == 1


def test_a_table_waits_for_its_next_sheet(cup, client):
    tournament, organizer, teams, matches = cup
    for match in matches:
        play_quickly(match.pk, organizer, 9, 6, deals=4)
        services.score_sheet_confirm(
            match_id=match.pk,
            user=organizer,
            version=Match.objects.get(pk=match.pk).version,
            roles=frozenset({Role.ORGANIZER}),
            sides=frozenset(),
        )
    key = _key(tournament, table=2)
    page = client.get(f"/l/{key}/").content.decode()
    assert "confirmed and locked" in page
    assert 'id="deal-form"' not in page
    poll = client.get(f"/l/{key}/", HTTP_HX_REQUEST="true")
    assert poll.status_code == 200 and "HX-Refresh" not in poll
    services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=teams[0].pk,
        team_b=teams[3].pk,
        round=2,
        table=2,
    )
    poll = client.get(f"/l/{key}/", HTTP_HX_REQUEST="true")
    assert poll.status_code == 204 and poll["HX-Refresh"] == "true"
    # Table 3 plays nothing in round 2.
    idle = client.get(f"/l/{_key(tournament, table=3)}/").content.decode()
    assert "No match is played at table 3" in idle


def test_the_wrong_sheet_and_a_wrong_key_are_refused(cup, client):
    tournament, _, _, (first, second, _) = cup
    key = _key(tournament, table=1)
    refused = client.get(f"/l/{key}/sheets/{second.pk}/")
    assert refused.status_code == 403
    assert "table 1" in refused.content.decode()
    posted = client.post(
        f"/l/{key}/sheets/{second.pk}/", _deal_form(1, deals_for(7, 0)[0], 1)
    )
    assert posted.status_code == 403
    assert client.get(f"/l/{key}/sheets/{second.pk}/preview/").status_code == 403
    assert Deal.objects.filter(match=second).count() == 0
    assert client.get("/l/not-a-key/").status_code == 404
    assert client.get(f"/l/{key}x/").status_code == 404
    team_key = _key(tournament, team=first.team_a)
    assert client.get(f"/l/{team_key}/sheets/{first.pk}/").status_code == 404


def test_a_team_link_page_checks_in_confirms_and_disputes(cup, client):
    tournament, organizer, teams, (match, *_) = cup
    key = _key(tournament, team=teams[1])  # team B of table 1
    page = client.get(f"/l/{key}/").content.decode()
    assert "Check Team 1 in" in page
    assert client.post(f"/l/{key}/", {"action": "check_in"}).status_code == 302
    assert Team.objects.get(pk=teams[1].pk).checked_in_at is not None
    play_quickly(match.pk, organizer, 9, 6, deals=4)
    match.refresh_from_db()
    assert (
        'aria-label="Confirm the sheet of table 1, round 1"'
        in client.get(f"/l/{key}/").content.decode()
    )
    done = client.post(
        f"/l/{key}/",
        {"action": "confirm", "match": str(match.pk), "version": str(match.version)},
        follow=True,
    )
    assert "your confirmation is recorded" in done.content.decode()
    match.refresh_from_db()
    assert (
        match.confirmed_b_version == match.version and match.confirmed_a_version is None
    )
    empty = client.post(
        f"/l/{key}/",
        {"action": "dispute", "match": str(match.pk), "text": ""},
        follow=True,
    )
    assert "Say what is disputed." in empty.content.decode()
    raised = client.post(
        f"/l/{key}/",
        {"action": "dispute", "match": str(match.pk), "deal": "2", "text": "ours"},
        follow=True,
    )
    assert "Your dispute on table 1 is recorded" in raised.content.decode()
    dispute = Dispute.objects.get(match=match)
    assert dispute.raised_by_name == "Team 1 team link"
    # Another table's sheet is not the team's.
    other = Match.objects.get(tournament=tournament, table=2)
    refused = client.post(
        f"/l/{key}/",
        {"action": "confirm", "match": str(other.pk), "version": "1"},
        follow=True,
    )
    assert "A team link only checks Team 1 in" in refused.content.decode()


def test_the_links_tab_renews_and_prints_cards(cup):
    tournament, organizer, teams, _ = cup
    client = Client()
    client.force_login(organizer)
    tab = client.get("/t/cards/links/").content.decode()
    old = _key(tournament, table=2)
    assert f"/l/{old}/" in tab
    assert tab.count('name="link" value="table-') == 3
    assert tab.count('name="link" value="team-') == 6
    renewed = client.post("/t/cards/links/", {"link": "table-2"}, follow=True)
    assert "The link of table 2 is renewed" in renewed.content.decode()
    assert _key(tournament, table=2) != old
    assert client.get(f"/l/{old}/").status_code == 404
    bad = client.post("/t/cards/links/", {"link": "table-x"}, follow=True)
    assert "Choose the link to renew." in bad.content.decode()
    cards = client.get("/t/cards/links/cards/").content.decode()
    assert cards.count('<article class="card">') == 3
    assert len(re.findall(r"<svg [^>]*class=\"segno\"", cards)) == 3
    assert "Table 2" in cards and _key(tournament, table=2) in cards
    team_cards = client.get("/t/cards/links/cards/?kind=team").content.decode()
    assert team_cards.count('<article class="card">') == 6
    assert all(t.name in team_cards for t in teams)


def test_link_pages_read_a_fixed_number_of_queries(
    cup, client, django_assert_max_num_queries
):
    tournament, organizer, teams, (match, *_) = cup
    key = _key(tournament, table=1)
    counts = []
    for deals in (0, 4):
        if deals:
            play_quickly(match.pk, organizer, 9, 6, deals=deals)
        with django_assert_max_num_queries(9) as captured:
            assert client.get(f"/l/{key}/").status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]
    team_key = _key(tournament, team=teams[0])
    services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=teams[0].pk,
        team_b=teams[3].pk,
        round=2,
        table=1,
    )
    with django_assert_max_num_queries(8):
        assert client.get(f"/l/{team_key}/").status_code == 200
    staff = Client()
    staff.force_login(organizer)
    with django_assert_max_num_queries(12):
        assert staff.get("/t/cards/links/").status_code == 200
    with django_assert_max_num_queries(12):
        assert staff.get("/t/cards/links/cards/").status_code == 200


def test_a_malayalam_page_names_links_and_captains_in_malayalam(cup, client):
    """The history and the disputes keep who did it in English, as the API shows it;
    a Malayalam page says "table 1 link", "<team> team link" and "captain of B" in
    Malayalam, an English page as they are."""
    tournament, organizer, teams, (match, *_) = cup
    table = _key(tournament, table=1)
    body = deals_for(7, 0)[0]
    client.post(f"/l/{table}/sheets/{match.pk}/", _deal_form(1, body, match.version))
    team = _key(tournament, team=teams[1])  # team B of table 1
    client.post(
        f"/l/{team}/",
        {"action": "dispute", "match": str(match.pk), "deal": "1", "text": "ours"},
    )
    seen = Client()
    seen.force_login(organizer)
    english = seen.get(f"/matches/{match.pk}/").content.decode()
    assert "table 1 link" in english
    assert "raised by Team 1 team link (captain of B)" in english
    seen.cookies["django_language"] = "ml"
    page = seen.get(f"/matches/{match.pk}/").content.decode()
    assert "table 1 link" not in page and "team link" not in page
    assert "captain of" not in page
    assert "മേശ 1-ന്റെ ലിങ്ക്" in page
    assert "Team 1-ന്റെ ടീം ലിങ്ക് (B ന്റെ ക്യാപ്റ്റൻ)" in page
    link_page = Client()
    link_page.cookies["django_language"] = "ml"
    said = link_page.get(f"/l/{team}/").content.decode()
    assert "Team 1-ന്റെ ടീം ലിങ്ക്" in said and "team link" not in said


@pytest.mark.parametrize(
    ("language", "name", "short"),
    [("en", "Cards cup · table 2", "Table 2"), ("ml", "Cards cup · മേശ 2", "മേശ 2")],
)
def test_a_tables_web_app_is_named_in_the_pages_language(
    cup, client, language, name, short
):
    tournament, *_ = cup
    tournament.name = "Cards cup"
    tournament.save(update_fields=["name"])
    client.cookies["django_language"] = language
    key = _key(tournament, table=2)
    manifest = client.get(f"/l/{key}/manifest.webmanifest").json()
    assert (manifest["name"], manifest["short_name"]) == (name, short)
    assert manifest["lang"] == language


@pytest.mark.parametrize(
    ("language", "tables", "table_qr", "team_qr"),
    [
        ("en", "Tables (4)", "QR code of table 3's link", "QR code of the link of "),
        ("ml", "(4)", "മേശ 3-ന്റെ ലിങ്കിന്റെ QR കോഡ്", "-ന്റെ ലിങ്കിന്റെ QR കോഡ്"),
    ],
)
def test_the_links_tab_counts_the_tables_a_round_has_and_shows_its_qr_codes(
    language, tables, table_qr, team_qr
):
    """Nine teams play at four tables (one has a bye each round): the tab lists the
    four tables the draw uses, not a fifth made earlier for the odd team; each link
    shows its QR code as an image named for the table or team it opens."""
    from scoring.links.services import links_ensure
    from tests.factories import TournamentFactory, member
    from tests.scoring.league import drawn_league

    tournament = TournamentFactory(slug="nine", league_rounds=3, published=True)
    organizer = member(tournament, Role.ORGANIZER, "nine-org")
    client = Client()
    client.force_login(organizer)
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    links_ensure(tournament=tournament, tables=5)  # a fifth table, made before
    matches = drawn_league(tournament, organizer, sections=3, per_section=3)
    assert max(m.table for m in matches) == 4
    tab = client.get("/t/nine/links/").content.decode()
    assert tables in tab
    assert tab.count('name="link" value="table-') == 4
    assert 'value="table-5"' not in tab
    assert tab.count('name="link" value="team-') == 9
    images = re.findall(
        r'<a href="(/l/[^"]+/qr\.svg)" class="qr"><img src="\1"[^>]*>', tab
    )
    assert len(images) == 13
    assert f'alt="{table_qr}"' in tab
    team = Team.objects.filter(tournament=tournament).order_by("name").first()
    assert f'alt="{team.name}{team_qr}"' in tab or f'alt="{team_qr}{team.name}"' in tab
    svg = client.get(images[0])
    assert svg["Content-Type"] == "image/svg+xml"
    cards = client.get("/t/nine/links/cards/").content.decode()
    assert cards.count('<article class="card">') == 4
    api = client.get("/api/v1/tournaments/nine/links/").json()
    assert [t["table"] for t in api["tables"]] == [1, 2, 3, 4]


def test_before_the_draw_an_odd_team_needs_no_table_of_its_own():
    from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member

    tournament = TournamentFactory(slug="five", published=True)
    organizer = member(tournament, Role.ORGANIZER, "five-org")
    section = SectionFactory(tournament=tournament, name="North")
    for n in range(5):
        TeamFactory(section=section, name=f"Five {n}")
    client = Client()
    client.force_login(organizer)
    tab = client.get("/t/five/links/").content.decode()
    assert "Tables (2)" in tab
    assert tab.count('name="link" value="table-') == 2


@pytest.mark.parametrize(
    ("language", "undo", "undone"),
    [
        ("en", "Undo the check-in", "Team 1 is no longer checked in."),
        ("ml", "ചെക്ക്-ഇൻ പിൻവലിക്കുക", "Team 1-ന്റെ ചെക്ക്-ഇൻ പിൻവലിച്ചു."),
    ],
)
def test_a_team_link_undoes_its_check_in_before_the_draw_only(
    cup, client, language, undo, undone
):
    """docs/links.md: a team link may undo a check-in before the draw, as its
    captain may (issue 52); after the draw the button is gone and a post of it is
    refused, changing nothing."""
    tournament, _, teams, _ = cup
    tournament.status = "registration"
    tournament.save(update_fields=["status"])
    client.cookies["django_language"] = language
    key = _key(tournament, team=teams[1])
    client.post(f"/l/{key}/", {"action": "check_in"})
    page = client.get(f"/l/{key}/").content.decode()
    assert 'value="check_in_undo"' in page and undo in page
    said = client.post(f"/l/{key}/", {"action": "check_in_undo"}, follow=True)
    assert undone in said.content.decode()
    assert Team.objects.get(pk=teams[1].pk).checked_in_at is None

    client.post(f"/l/{key}/", {"action": "check_in"})
    tournament.status = "league"
    tournament.save(update_fields=["status"])
    page = client.get(f"/l/{key}/").content.decode()
    assert 'value="check_in_undo"' not in page
    client.post(f"/l/{key}/", {"action": "check_in_undo"})
    assert Team.objects.get(pk=teams[1].pk).checked_in_at is not None


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "This sheet is forfeited (a team did not come) and locked"),
        ("ml", "ഒരു ടീം വരാത്തതിനാൽ ഈ ഷീറ്റ് തോൽവിയായി പൂട്ടിയിരിക്കുന്നു"),
    ],
)
def test_a_forfeited_sheet_is_said_forfeited_not_confirmed(cup, client, language, said):
    """Issue 52: a forfeited sheet's score page, by login or by the table's link,
    said "confirmed and locked"; nobody confirmed it."""
    from scoring.sheets.day import score_sheet_forfeit

    tournament, organizer, _, (match, *_) = cup
    score_sheet_forfeit(
        match_id=match.pk, user=organizer, absent="B", reason="late", version=None
    )
    client.cookies["django_language"] = language
    key = _key(tournament, table=1)
    for url in (f"/l/{key}/sheets/{match.pk}/", f"/matches/{match.pk}/score/"):
        if url.startswith("/matches"):
            client.force_login(organizer)
        page = client.get(url, follow=True).content.decode()
        assert said in page, url
        assert "confirmed and locked" not in page


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Check-in is not required here"),
        ("ml", "ഇവിടെ ചെക്ക്-ഇൻ നിർബന്ധമല്ല"),
    ],
)
def test_a_team_link_checks_in_where_check_in_is_not_required(language, said):
    """Issue 52's walk: the desk ticks arrivals where check-in is not required, the
    team's link offered nothing; now both record the arrival."""
    tournament, _, teams, _ = tables_in_play("free", tables=1, deals=4)
    assert not tournament.check_in_required
    client = Client()
    client.cookies["django_language"] = language
    key = _key(tournament, team=teams[0])
    page = client.get(f"/l/{key}/").content.decode()
    assert said in page and 'value="check_in"' in page
    client.post(f"/l/{key}/", {"action": "check_in"})
    assert Team.objects.get(pk=teams[0].pk).checked_in_at is not None
