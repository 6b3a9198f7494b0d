"""The pages of people, ratings and seasons (docs/ratings.md) as visitors, organizers
and site administrators use them, in English and Malayalam."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member
from tests.scoring.excel import table, workbook
from tests.scoring.ratings.test_people_and_ratings import _admin, rated_league
from tournament.domain.types import Role
from tournament.models import Person, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated():
    return rated_league()


def _text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def test_a_player_is_found_from_home_team_and_statistics_pages(rated):
    tournament, _, matches = rated
    client = Client()
    home = _text(client.get("/"))
    assert 'href="/people/"' in home and 'href="/ratings/"' in home
    team = matches[0].team_a
    seat = Seat.objects.filter(team=team).order_by("pk").first()
    person_url = f"/people/{seat.person_id}/"
    assert person_url in _text(client.get(f"/t/{tournament.slug}/teams/{team.pk}/"))
    player = client.get(f"/t/{tournament.slug}/teams/{team.pk}/players/{seat.name}/")
    assert person_url in _text(player)
    where = client.get(f"/t/{tournament.slug}/where/", {"q": team.name})
    assert person_url in _text(where)
    found = _text(client.get("/people/", {"q": seat.name}))
    assert person_url in found


def test_a_persons_page_shows_the_rating_chart_teams_and_matches(rated):
    tournament, _, matches = rated
    team = matches[0].team_a
    person = Seat.objects.filter(team=team).first().person
    page = _text(Client().get(f"/people/{person.pk}/"))
    assert "<polyline" in page and "Rating after each match" in page
    assert "provisional" in page  # three rated matches
    assert f'href="/t/{tournament.slug}/teams/{team.pk}/"' in page
    assert page.count('href="/matches/') == 3
    malayalam = _text(Client().get(f"/people/{person.pk}/", HTTP_ACCEPT_LANGUAGE="ml"))
    assert "ഓരോ മത്സരത്തിനു ശേഷവുമുള്ള റേറ്റിംഗ്" in malayalam
    assert "താൽക്കാലികം" in malayalam


@pytest.mark.parametrize(
    ("language", "settles"),
    [
        (
            "en",
            'provisional</span> <small class="muted">settled after 7 more rated '
            "matches",
        ),
        ("ml", 'താൽക്കാലികം</span> <small class="muted">ഇനി 7 റേറ്റ് ചെയ്ത മത്സരങ്ങൾ കൂടി'),
    ],
)
def test_a_rating_reads_as_a_player_understands_it(rated, language, settles):
    """Issue 50: "955 ± 919" meant nothing to a player. The pages show the rating,
    and while it is provisional how many more rated matches settle it; no ±."""
    _, _, matches = rated
    person = Seat.objects.filter(team=matches[0].team_a).first().person
    client = Client()
    client.cookies["django_language"] = language
    for url in (f"/people/{person.pk}/", "/ratings/", "/people/"):
        page = _text(client.get(url))
        assert "±" not in page, url
        assert settles in page, url
    shown = re.search(r'<span class="rating">(\d+)</span>', page)
    assert shown is not None


def test_the_persons_page_reads_the_same_queries_however_many_matches(
    rated,
):
    _, _, matches = rated
    person = Seat.objects.filter(team=matches[0].team_a).first().person
    client = Client()
    client.get(f"/people/{person.pk}/")  # sessions, the language: once
    with CaptureQueriesContext(connection) as three:
        client.get(f"/people/{person.pk}/")
    newcomer = TeamFactory(
        section=SectionFactory(tournament=matches[0].tournament, name="Late"),
        captain_name="New Comer",
    )
    other = Seat.objects.get(team=newcomer, name="New Comer").person
    with CaptureQueriesContext(connection) as none:
        client.get(f"/people/{other.pk}/")
    assert len(three) <= len(none) + 1


def test_an_organizer_hides_a_player_on_the_page_and_shows_them_again(rated):
    _, organizer, matches = rated
    person = Seat.objects.filter(team=matches[0].team_a).first().person
    client = Client()
    client.force_login(organizer)
    done = client.post(f"/people/{person.pk}/", {"action": "hide"}, follow=True)
    assert "is hidden from the public lists" in _text(done)
    assert Person.objects.get(pk=person.pk).hidden
    public = _text(Client().get("/ratings/"))
    assert f'href="/people/{person.pk}/"' not in public
    assert Client().get(f"/people/{person.pk}/").status_code == 404
    client.post(f"/people/{person.pk}/", {"action": "show"})
    assert not Person.objects.get(pk=person.pk).hidden
    outsider = Client()
    outsider.force_login(member(TournamentFactory(slug="x"), Role.ORGANIZER))
    assert outsider.post(f"/people/{person.pk}/", {"action": "hide"}).status_code == 403


def test_an_administrator_merges_on_the_page_and_a_wrong_number_says_why(rated):
    _, _, matches = rated
    elsewhere = TeamFactory(
        section=SectionFactory(tournament=TournamentFactory(slug="later")),
        captain_name="Some One",
    )
    other = Seat.objects.get(team=elsewhere, name="Some One").person
    person = Seat.objects.filter(team=matches[0].team_a).first().person
    client = Client()
    client.force_login(_admin())
    done = client.post(
        f"/people/{person.pk}/", {"action": "merge", "other": other.pk}, follow=True
    )
    assert "one person now" in _text(done)
    assert Seat.objects.get(team=elsewhere, name="Some One").person_id == person.pk
    refused = client.post(
        f"/people/{person.pk}/", {"action": "merge", "other": person.pk}, follow=True
    )
    assert "cannot be merged with themselves" in _text(refused)
    blank = client.post(f"/people/{person.pk}/", {"action": "merge", "other": "x"})
    assert blank.status_code == 400


def test_ratings_sort_and_filter_and_a_season_page_adds_points(rated):
    tournament, _, _ = rated
    client = Client()
    client.force_login(_admin())
    made = client.post(
        "/seasons/",
        {
            "name": "Season One",
            "tournaments": [tournament.slug],
            "points": "1: 10, 2: 5",
        },
        follow=True,
    )
    assert "The season Season One is made." in _text(made)
    season = _text(Client().get("/seasons/season-one/"))
    assert season.count("<tr>") == 1 + 8 + 1 + 24  # two heads, 8 teams, 24 players
    by_name = _text(Client().get("/ratings/", {"season": "season-one", "sort": "name"}))
    names = re.findall(r'<th scope="row"><a href="/people/\d+/">([^<]+)</a>', by_name)
    assert names == sorted(names, key=str.casefold) and len(names) == 24
    for unknown in (
        Client().get("/ratings/", {"season": "nope"}),
        Client().get("/seasons/nope/"),
    ):
        assert unknown.status_code == 404
        assert "There is no season “nope”" in _text(unknown)
        assert "may not be published" not in _text(unknown)
        assert '<a href="/ratings/">Ratings</a>' in _text(unknown)
    book = workbook(Client().get("/api/v1/seasons/season-one/standings.xlsx").content)
    teams, players = table(book, "Teams"), table(book, "Players")
    assert len(teams) == 8 and len(players) == 24
    assert [r["Total"] for r in teams] == sorted(
        (r["Total"] for r in teams), reverse=True
    )
    assert teams[0]["Total"] == 10 and teams[0][tournament.name] == 10
    changed = client.post(
        "/seasons/season-one/",
        {"name": "Season One", "tournaments": [tournament.slug], "points": "1: 30"},
        follow=True,
    )
    assert "The season Season One is changed." in _text(changed)
    again = table(
        workbook(Client().get("/api/v1/seasons/season-one/standings.xlsx").content),
        "Teams",
    )
    assert {r["Total"] for r in again} == {30}  # one step: every place scores 30
    bad = client.post("/seasons/", {"name": "Two", "points": "first: 10"})
    assert bad.status_code == 400
    assert "Write each pair as place: points" in _text(bad)


def test_the_workbook_gives_each_players_rating_before_and_after(rated):
    tournament, organizer, _ = rated
    api = APIClient()
    api.force_authenticate(organizer)
    answer = api.get(f"/api/v1/tournaments/{tournament.slug}/export.xlsx")
    rows = table(workbook(answer.content), "Statistics")
    rated_rows = [r for r in rows if r["Line"] == "Rating"]
    assert len(rated_rows) == 24
    assert all(
        r["Rating before"] == 1000 and r["Rated matches"] == 3 for r in rated_rows
    )
    best = rated_rows[0]
    person = Seat.objects.get(team__tournament=tournament, name=best["Player"]).person
    assert best["Rating after"] == person.rating.display
    assert [r["Rating after"] for r in rated_rows] == sorted(
        (r["Rating after"] for r in rated_rows), reverse=True
    )


def test_a_season_page_is_titled_by_its_name_for_an_administrator_too(rated):
    tournament, _, _ = rated
    client = Client()
    client.force_login(_admin())
    client.post("/seasons/", {"name": "Season One", "tournaments": [tournament.slug]})
    page = client.get("/seasons/season-one/").content.decode()
    title = page.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "<form" not in title and "Season One" in title
    assert page.count('id="change-season-heading"') == 1


def test_the_ratings_come_a_page_at_a_time_keeping_the_order_and_the_ranks(
    rated, monkeypatch
):
    monkeypatch.setattr("brackets.seasons.views.PAGE_SIZE", 10)
    client = Client()
    by_rating = _text(client.get("/ratings/"))
    ranks = [int(r) for r in re.findall(r'<tr><td class="num">(\d+)</td>', by_rating)]
    assert len(ranks) == 10 and "page 1 of 3" in by_rating
    later = re.search(r'<a href="\?([^"]+)">Later</a>', by_rating)
    assert later and later.group(1) == "page=2"
    third = _text(client.get("/ratings/", {"page": 3}))
    assert "page 3 of 3" in third and ">Later<" not in third
    last = [int(r) for r in re.findall(r'<tr><td class="num">(\d+)</td>', third)]
    assert len(last) == 4 and min(last) >= max(ranks)  # the whole list's ranks

    # The order chosen goes with the page links, in Malayalam too.
    by_name = _text(
        client.get("/ratings/", {"sort": "name"}, HTTP_ACCEPT_LANGUAGE="ml")
    )
    assert "3-ൽ 1-ാം പേജ്" in by_name
    assert 'href="?sort=name&amp;page=2">അടുത്തത്</a>' in by_name
    second = _text(client.get("/ratings/", {"sort": "name", "page": 2}))
    names = [
        *re.findall(r'<th scope="row"><a href="/people/\d+/">([^<]+)</a>', by_name),
        *re.findall(r'<th scope="row"><a href="/people/\d+/">([^<]+)</a>', second),
    ]
    assert len(names) == 20 and names == sorted(names, key=str.casefold)


def test_the_people_list_keeps_its_search_across_pages(rated, monkeypatch):
    monkeypatch.setattr("scoring.ratings.views.PAGE_SIZE", 5)
    found = Person.objects.filter(name__icontains="a").count()
    assert found > 5
    page = _text(Client().get("/people/", {"q": "a"}))
    assert 'href="?q=a&amp;page=2">Later</a>' in page


@pytest.mark.parametrize(
    ("language", "badge"), [("en", "provisional"), ("ml", "താൽക്കാലികം")]
)
def test_a_season_marks_the_points_of_a_tournament_still_running(
    rated, language, badge
):
    tournament, _, _ = rated
    client = Client()
    client.force_login(_admin())
    client.post(
        "/seasons/",
        {"name": "Running", "tournaments": [tournament.slug], "points": "1: 10"},
    )
    data = APIClient().get("/api/v1/seasons/running/standings/").json()
    assert data["tournaments"] == [
        {"slug": tournament.slug, "name": tournament.name, "provisional": True}
    ]
    viewer = Client()
    viewer.cookies["django_language"] = language
    head = _text(viewer.get("/seasons/running/")).split("</thead>")[0]
    assert f'{tournament.name}</a> <span class="badge draft"' in head
    assert badge in head
    tournament.status = "finished"
    tournament.save(update_fields=["status"])
    data = APIClient().get("/api/v1/seasons/running/standings/").json()
    assert data["tournaments"][0]["provisional"] is False
    head = _text(viewer.get("/seasons/running/")).split("</thead>")[0]
    assert 'class="badge draft"' not in head
