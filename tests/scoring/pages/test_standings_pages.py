"""The standings page and the team page with every deal, as people read them."""

import re

import pytest
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from scoring.models import Deal, Match, StandingsLot
from scoring.sheets import services
from tests.factories import member
from tests.scoring.league import finish_hand_league, hand_league, sized_league
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def league(api):
    return hand_league(api)


def page(league, tail=""):
    return f"/t/{league['tournament'].slug}/standings/{tail}"


def table_rows(html: str) -> list[str]:
    """Each standings row's text, squeezed: "6= t9 tied across the line ..."."""
    body = html.split('<table class="list standings-table">', 1)[1].split("</table>")[0]
    rows = re.findall(
        r"<tr class=\"([^\"]*)\" data-team=\"\d+\">(.*?)</tr>", body, re.S
    )
    # As a desk shows it: the line a phone shows under the team's name instead of
    # the P W T L columns (its twin) is left out.
    desk = [
        (css, re.sub(r'<small class="[^"]*phone-only[^"]*">.*?</small>', " ", cells))
        for css, cells in rows
    ]
    return [
        f"{css} | " + " ".join(re.sub(r"<[^>]+>", " ", cells).split())
        for css, cells in desk
    ]


def test_the_public_page_shows_ranks_marks_and_the_qualifying_line(client, league):
    answer = client.get(page(league))
    assert answer.status_code == 200
    rows = table_rows(answer.content.decode())
    assert rows == [
        "in | 1 t11 Section 11 2 2 0 0 1 6 10 14 32",
        "in | 2 t7 Section 7 1 1 0 0 3 5 7 20",
        "in | 3 t5 Section 5 1 1 0 0 3 5 7 17",
        "in | 4 t3 * Section 3 1 1 0 0 3 5 6 14",
        "in | 5 t1 Section 1 1 1 0 0 3 4 4 12",
        "undecided | 6 = t9 tied across the line Section 9 1 0 1 0 1 0 0 15",
        "undecided line | 6 = t10 tied across the line Section 10 1 0 1 0 1 0 0 15",
        "out | 8 t8 Section 8 1 0 0 1 0 0 0 13",
        "out | 9 t6 Section 6 1 0 0 1 0 0 0 10",
        "out | 10 t12 Section 12 1 0 0 1 0 0 0 9",
        "out | 11 = t2 Section 2 1 0 0 1 0 0 0 8",
        "out | 11 = t4 * Section 4 1 0 0 1 0 0 0 8",
    ]
    html = answer.content.decode()
    # Team links are built once per page, not reversed per row: still the team page.
    team_page = reverse(
        "scoring:team", args=[league["tournament"].slug, league["t11"].pk]
    )
    assert f'<a href="{team_page}">t11</a>' in html
    assert "6 of 7 league matches decided, 5 confirmed, 1 in play" in html
    assert 'hx-trigger="every 20s"' in html  # the league is being played
    assert "Draw the lots" not in html  # not an organizer


def test_mid_league_the_tied_teams_are_tied_across_the_line_in_both_languages(
    client, api, league
):
    """rules.md §9: no "lot decides" while the league is in play, in English or in
    Malayalam; on the final standings, the lot is to be drawn."""
    english = client.get(page(league), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "tied across the line" in english and "lot decides" not in english
    assert "lot to draw" not in english
    malayalam = client.get(page(league), HTTP_ACCEPT_LANGUAGE="ml").content.decode()
    assert "വരയ്ക്ക് ഇരുവശവും തുല്യം" in malayalam
    assert "നറുക്കിടണം" not in malayalam and "നറുക്ക് തീരുമാനിക്കും" not in malayalam
    finish_hand_league(api, league)
    rows = table_rows(client.get(page(league)).content.decode())
    assert [r.split(" | ")[1].split()[3:6] for r in rows[5:7]] == [
        ["lot", "to", "draw"]
    ] * 2
    final = client.get(page(league), HTTP_ACCEPT_LANGUAGE="ml").content.decode()
    assert "നറുക്കിടണം" in final


def test_a_section_narrows_the_rows_and_keeps_overall_ranks(client, league):
    section = league["t10"].section_id
    answer = client.get(page(league), {"section": section})
    assert [r.split(" | ")[1] for r in table_rows(answer.content.decode())] == [
        "6 = t10 tied across the line Section 10 1 0 1 0 1 0 0 15"
    ]
    assert client.get(page(league), {"section": "nope"}).status_code == 400


def test_a_poll_gets_only_the_table_and_stops_when_the_league_is_final(
    client, api, league
):
    answer = client.get(page(league), **HTMX)
    html = answer.content.decode()
    assert html.lstrip().startswith('<div id="standings"')
    assert "<html" not in html
    assert 'hx-trigger="every 20s"' in html
    assert "HX-Request" in answer["Vary"]
    finish_hand_league(api, league)
    html = client.get(page(league), **HTMX).content.decode()
    assert "Final standings" in html
    assert "hx-trigger" not in html


def test_an_organizer_draws_the_lots_on_the_page(client, api, league):
    organizer = Client()
    organizer.force_login(league["organizer"])
    html = organizer.get(page(league)).content.decode()
    assert "Lots are drawn on the final standings" in html
    # Too early: refused with the reason, nothing recorded.
    answer = organizer.post(page(league), {"seed": ""}, follow=True)
    assert "not confirmed yet" in answer.content.decode()
    assert not StandingsLot.objects.exists()
    finish_hand_league(api, league)
    assert "Draw the lots" in organizer.get(page(league)).content.decode()
    answer = organizer.post(page(league), {"seed": "4242"}, follow=True)
    html = answer.content.decode()
    assert "The lots are drawn (seed 4242)" in html
    assert StandingsLot.objects.get().seed == 4242
    rows = table_rows(client.get(page(league)).content.decode())
    assert ["lot" in r.split(" | ")[1].split() for r in rows[5:7]] == [True, True]
    assert rows[5].startswith("in line |") or rows[5].startswith("in |")
    assert rows[6].startswith("out |")
    assert "lot decides" not in " ".join(rows)


def test_only_organizers_post_lots(client, league):
    answer = client.post(page(league), {"seed": "1"})
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    scorer = Client()
    scorer.force_login(member(league["tournament"], Role.SCORER, "scorer"))
    assert scorer.post(page(league), {"seed": "1"}).status_code == 403
    assert not StandingsLot.objects.exists()


def test_the_team_page_shows_its_standing_and_every_deal(client, league):
    team = league["t1"]
    answer = client.get(f"/t/{league['tournament'].slug}/teams/{team.pk}/")
    html = answer.content.decode()
    assert "<b>5</b> of the league" in html
    assert "R1–R4</dt><dd>3 · 4 · 4 · 12" in html
    # Two matches: the finished one (12-8 in 4 deals) and the one in play (1 deal).
    deals = Deal.objects.filter(
        match__in=[league["matches"]["t1"], league["matches"]["live"]]
    )
    assert html.count('<tr class="deal') == deals.count() == 5
    assert "v t2 · 12–8 won" in html
    assert "(in play)" in html
    assert 'hx-trigger="every 20s"' in html  # a match of its is not confirmed
    part = client.get(
        f"/t/{league['tournament'].slug}/teams/{team.pk}/", **HTMX
    ).content.decode()
    assert part.lstrip().startswith('<div id="team-live"')
    assert part.count('<tr class="deal') == 5


def test_the_team_pages_poll_is_304_until_a_deal_is_saved(client, league):
    """Issue 50: the team page's live part re-sent its whole 33 KB every 20 s. Its
    poll carries an ETag (the standings' fingerprint and the team's own sheets),
    answered 304 while nothing changed, and 200 once a deal of its match is in."""
    url = f"/t/{league['tournament'].slug}/teams/{league['t1'].pk}/"
    html = client.get(url).content.decode()
    etag = re.search(r'id="team-live" data-etag="([^"]+)"', html)[1].replace(
        "&quot;", '"'
    )
    first = client.get(url, **HTMX)
    assert first.status_code == 200 and first["ETag"] == etag
    same = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert same.status_code == 304 and same.content == b""
    # Another team's deal in play moves neither the standings nor t1's sheets.
    live = Match.objects.get(pk=league["matches"]["live"])
    assert client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304
    services.score_sheet_deal_record(
        match_id=live.pk,
        user=league["organizer"],
        version=live.version,
        number=2,
        declarer="B",
        value=40,
        trump="hearts",
        level="none",
        taken=44,
    )
    moved = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert moved.status_code == 200 and moved["ETag"] != etag
    assert moved.content.decode().count('<tr class="deal') == 6
    assert client.get(url, HTTP_IF_NONE_MATCH=moved["ETag"], **HTMX).status_code == 304


def test_a_team_with_every_sheet_confirmed_stops_polling(client, league):
    team = league["t11"]
    html = client.get(f"/t/{league['tournament'].slug}/teams/{team.pk}/").content
    assert b"hx-trigger" not in html
    assert b"Bye (counts as a win)" in html
    assert "R1–R4</dt><dd>6 · 10 · 14 · 32".encode() in html


@pytest.mark.parametrize(("sections", "per_section"), [(3, 2), (5, 5)])
def test_pages_cost_the_same_queries_at_any_size(
    client, django_assert_num_queries, sections, per_section
):
    _, _, matches = sized_league(sections, per_section)
    # The tournament, the visitor's roles, the sections of the filter, the standings'
    # fingerprint, then the standings themselves: rendered once, kept.
    with django_assert_num_queries(9):
        page = client.get("/t/sized-cup/standings/")
    assert page.status_code == 200
    # The poll of the same address: the tournament and the fingerprint; the render
    # is the one kept.
    with django_assert_num_queries(2):
        poll = client.get("/t/sized-cup/standings/", **HTMX)
    assert poll.status_code == 200 and poll["ETag"]
    with django_assert_num_queries(2):  # with its ETag: nothing changed, 304
        again = client.get(
            "/t/sized-cup/standings/", HTTP_IF_NONE_MATCH=poll["ETag"], **HTMX
        )
    assert again.status_code == 304
    team = matches[0].team_a_id
    # 15, its bidders' figures, its players' people, and its live part's ETag (the
    # standings' fingerprint, its own matches)
    with django_assert_num_queries(19):
        answer = client.get(f"/t/sized-cup/teams/{team}/")
    assert answer.status_code == 200
    # Its poll with that ETag, nothing changed: the tournament, the team with its
    # players, and the ETag's two queries.
    etag = re.search(r'id="team-live" data-etag="([^"]+)"', answer.content.decode())
    with django_assert_num_queries(5):
        again = client.get(
            f"/t/sized-cup/teams/{team}/",
            HTTP_IF_NONE_MATCH=etag[1].replace("&quot;", '"'),
            **HTMX,
        )
    assert again.status_code == 304
    # Every deal of the team's matches: 3 rounds, less its bye when it has one (which
    # team gets a bye depends on the ids the database gave, not on the test).
    played = Match.objects.filter(Q(team_a_id=team) | Q(team_b_id=team)).count()
    assert played >= 2
    assert answer.content.decode().count('<tr class="deal') == played * 18


def test_every_spectator_shares_one_render_and_a_decided_match_makes_a_new_one(
    api, client, league
):
    """The standings' table is rendered once per change and kept: an anonymous
    visitor and a signed-in one get the same bytes and the same ETag, which the
    table carries for its poll; the poll with it is 304 while nothing changed, and
    a new table (a new ETag, the new ranks) once a match is decided. The Malayalam
    page is a render of its own."""
    url = page(league)
    first = client.get(url, **HTMX)
    signed_in = Client()
    signed_in.force_login(league["organizer"])
    theirs = signed_in.get(url, **HTMX)
    assert first["ETag"] == theirs["ETag"]
    assert first.content == theirs.content
    tag = first["ETag"].replace('"', "&quot;")
    assert f'data-etag="{tag}"' in first.content.decode()
    assert f'data-etag="{tag}"' in client.get(url).content.decode()  # the page's
    malayalam = Client(HTTP_ACCEPT_LANGUAGE="ml")
    theirs_ml = malayalam.get(url, **HTMX)
    assert theirs_ml["ETag"] != first["ETag"]
    assert "ടീം" in theirs_ml.content.decode()
    unchanged = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert unchanged.status_code == 304 and unchanged["ETag"] == first["ETag"]

    finish_hand_league(api, league)  # t3 v t4 confirmed, the match in play decided
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]
    assert table_rows(changed.content.decode()) != table_rows(first.content.decode())


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_withdrawn_team_inside_the_places_moves_the_line_under_the_last_qualifier(
    api, client, language
):
    """Four qualifiers of six teams, the league's second withdrawn: the line is drawn
    once, under the fifth row (the fourth team that may qualify), as the API's
    `qualifies` says; none above the withdrawn team."""
    from tests.brackets.knockout import final_league
    from tests.conftest import as_user

    _tournament, organizer = final_league(2, 3, qualifiers=4, slug="line-cup")
    as_user(api, organizer)
    url = "/api/v1/tournaments/line-cup/standings/"
    second = api.get(url).json()["rows"][1]["team"]
    answer = api.post(
        f"/api/v1/tournaments/line-cup/teams/{second}/withdraw/",
        {"from_round": 3, "reason": "flight home"},
        "json",
    )
    assert answer.status_code == 200, answer.json()
    qualifies = [row["qualifies"] for row in api.get(url).json()["rows"]]
    assert qualifies == [True, False, True, True, True, False]
    client.cookies["django_language"] = language
    rows = table_rows(client.get("/t/line-cup/standings/").content.decode())
    marks = [row.split(" | ")[0] for row in rows]
    assert marks == ["in", "out", "in", "in", "in line", "out"]
    assert ("withdrawn" if language == "en" else "പിന്മാറി") in rows[1]
