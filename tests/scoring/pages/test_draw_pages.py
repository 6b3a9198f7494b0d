"""The organizer's draw page, the rounds on the matches page, and a team's page."""

import re

import pytest

from scoring.models import LeagueDraw, LeagueRound, Match
from tests.factories import member
from tests.scoring.apis.test_draw import make_field
from tournament.domain.types import Role
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def url(tournament, page="draw"):
    return f"/t/{tournament.slug}/{page}/"


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


def test_the_draw_page_shows_sizes_and_the_check_before_the_button(
    client, tournament, organizer
):
    make_field(tournament, (8, 3, 1))
    client.force_login(organizer)
    page = text(client.get(url(tournament)))
    assert '<td>S0</td><td class="num">8</td>' in page
    assert "section S0 has 8 of the 12 teams; at most 6 can be drawn" in page
    assert "Draw the league</button>" not in page  # nothing to press
    assert "registration desk" in page


def test_an_organizer_draws_checks_and_releases_on_the_page(
    client, tournament, organizer
):
    teams = make_field(tournament, (4, 4, 3, 2))  # 13: byes
    client.force_login(organizer)
    page = text(client.get(url(tournament)))
    assert "Yes: 4 sections, a valid draw of 8 rounds exists." in page
    assert "Draw the league</button>" in page

    answer = client.post(url(tournament), {"action": "draw", "seed": "2026"})
    assert answer.status_code == 302
    page = text(client.get(url(tournament)))
    assert "The league is drawn (draw 1, seed 2026)" in page
    assert "<code>2026</code>" in page and "56-draw/1" in page
    assert "every rule holds" in page
    assert page.count("has the bye") == 8
    assert page.count("badge draft") == 8
    assert "Draw again (replaces draw 1)" in page

    client.post(url(tournament), {"action": "release", "round": "1"})
    assert LeagueRound.objects.get(number=1).released
    assert not LeagueRound.objects.get(number=2).released
    client.post(url(tournament), {"action": "release-all"})
    assert LeagueRound.objects.filter(released_at__isnull=True).count() == 0

    # A redraw with a random seed replaces it and shows the earlier seed.
    client.post(url(tournament), {"action": "draw", "seed": ""})
    page = text(client.get(url(tournament)))
    assert "Earlier draws: 1 (seed 2026)." in page
    assert LeagueDraw.objects.get(current=True).number == 2
    assert Match.objects.count() == 8 * 6
    assert {t.pk for t in teams} == set(
        Match.objects.values_list("team_a_id", flat=True)
    ) | set(Match.objects.values_list("team_b_id", flat=True))


def test_a_bad_seed_and_a_locked_draw_are_told(client, tournament, organizer):
    make_field(tournament, (4, 4, 4))
    client.force_login(organizer)
    page = client.post(url(tournament), {"action": "draw", "seed": "-5"})
    assert page.status_code == 200 and not Match.objects.exists()
    assert "Ensure this value is greater than or equal to 0." in text(page)
    client.post(url(tournament), {"action": "draw", "seed": "1"})
    match = Match.objects.first()
    client.post(
        f"/matches/{match.pk}/score/",
        {
            "action": "deal",
            "version": match.version,
            "number": 1,
            "declarer": "A",
            "value": 40,
            "trump": "clubs",
            "level": "none",
            "taken": 41,
        },
    )
    page = text(client.get(url(tournament)))
    assert "The draw is locked: the league has results" in page
    answer = client.post(url(tournament), {"action": "draw", "seed": "2"}, follow=True)
    assert "Cannot draw again: the league has results" in text(answer)


@pytest.mark.parametrize("who", ["scorer", "captain"])
def test_only_organizers_see_the_draw_page(client, tournament, who):
    teams = make_field(tournament, (4, 4))
    user = member(
        tournament, Role(who), who, team=teams[0] if who == "captain" else None
    )
    client.force_login(user)
    assert client.get(url(tournament)).status_code == 403
    assert client.post(url(tournament), {"action": "draw"}).status_code == 403
    client.logout()
    assert client.get(url(tournament)).status_code == 302  # to the login


def test_the_public_sees_released_rounds_only(client, tournament, organizer):
    make_field(tournament, (4, 4, 4))
    client.force_login(organizer)
    client.post(url(tournament), {"action": "draw", "seed": "3"})
    client.post(url(tournament), {"action": "release", "round": "1"})
    page = text(client.get(url(tournament, "matches") + "?round=all"))
    assert page.count("<h2>Round ") == 8
    assert page.count("draft: not released") == 7
    # It opens at the current round, with the others a tap away.
    page = text(client.get(url(tournament, "matches")))
    assert page.count("<h2>Round ") == 1 and "<h2>Round 1" in page
    assert 'href="?round=league-8"' in page
    client.logout()
    page = text(client.get(url(tournament, "matches") + "?round=all"))
    assert page.count("<h2>Round ") == 1 and "draft" not in page
    assert 'href="?round=league-2"' not in text(client.get(url(tournament, "matches")))


def test_a_teams_page_lists_its_opponents_and_byes(client, tournament, organizer):
    teams = make_field(tournament, (4, 4, 3, 2))
    client.force_login(organizer)
    client.post(url(tournament), {"action": "draw", "seed": "11"})
    client.post(url(tournament), {"action": "release-all"})
    client.logout()
    for team in teams:
        page = text(client.get(f"/t/{tournament.slug}/teams/{team.pk}/"))
        opponents = (
            Match.objects.filter(team_a=team).count()
            + Match.objects.filter(team_b=team).count()
        )
        byes = page.count("Bye (counts as a win)")
        assert opponents + byes == 8
        assert byes <= 1
        assert page.count("<tr>") - 1 == opponents  # rows of matches, header aside
    assert client.get(f"/t/{tournament.slug}/teams/999999/").status_code == 404


@pytest.mark.parametrize("sizes", [(4, 4, 3), (12, 12, 11)])
def test_the_pages_take_the_same_queries_at_any_size(
    client, tournament, organizer, sizes, django_assert_num_queries
):
    teams = make_field(tournament, sizes)
    client.force_login(organizer)
    client.post(url(tournament), {"action": "draw", "seed": "1"})
    assert Match.objects.count() == 8 * (len(teams) // 2)
    with django_assert_num_queries(14):
        assert client.get(url(tournament)).status_code == 200
    # + every round's counts (2), to open at the current round
    with django_assert_num_queries(10):
        assert client.get(url(tournament, "matches")).status_code == 200
    with django_assert_num_queries(10):
        assert client.get(url(tournament, "matches") + "?round=all").status_code == 200
    # the team page: its rounds (9), every deal and penalty (2), its standing (6:
    # the matches' stored results are one query), its substitutions (1), its
    # bidders' figures (1), its players' people (1), the ETag its live part polls
    # with (2: the standings' fingerprint and its own matches' rows)
    with django_assert_num_queries(22):
        assert (
            client.get(f"/t/{tournament.slug}/teams/{teams[0].pk}/").status_code == 200
        )


@pytest.mark.parametrize(
    ("language", "settings_word", "desk_word"),
    [
        ("en", "Settings", "registration desk"),
        ("ml", "ക്രമീകരണങ്ങൾ", "രജിസ്ട്രേഷൻ ഡെസ്കിൽ"),
    ],
)
def test_the_page_names_where_a_problem_is_fixed(
    client, tournament, organizer, language, settings_word, desk_word
):
    """Issue 41 (words 3): "draw at most 6 rounds" was to be "fixed on the
    registration desk", but the rounds are a setting."""
    make_field(tournament, (4, 3))  # section S0 meets only 3 teams and a bye in 8
    client.force_login(organizer)
    page = text(client.get(url(tournament), HTTP_ACCEPT_LANGUAGE=language))
    settings_link = f'<a href="/t/{tournament.slug}/settings/">{settings_word}</a>'
    desk_link = f'<a href="/t/{tournament.slug}/registration/">{desk_word}</a>'
    assert settings_link in page and desk_link in page  # fewer rounds, or move teams


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_section_too_large_is_fixed_on_the_registration_desk_only(
    client, tournament, organizer, language
):
    Tournament.objects.filter(pk=tournament.pk).update(league_rounds=3)
    make_field(tournament, (8, 3, 1))  # S0 too large; 3 rounds are not too many
    client.force_login(organizer)
    page = text(client.get(url(tournament), HTTP_ACCEPT_LANGUAGE=language))
    assert f'href="/t/{tournament.slug}/registration/"' in page
    assert f'<a href="/t/{tournament.slug}/settings/">' not in page.split("problems")[1]


@pytest.mark.parametrize("language", ["en", "ml"])
def test_the_bye_sentence_ends_without_a_stray_space(
    client, tournament, organizer, language
):
    make_field(tournament, (4, 4, 3, 2))
    client.force_login(organizer)
    page = text(client.get(url(tournament), HTTP_ACCEPT_LANGUAGE=language))
    intro = re.search(r"<p>[^<]*</p>", page.split("</nav>", 1)[1]).group(0)
    assert " .</p>" not in intro and intro.endswith(".</p>")


@pytest.mark.parametrize(
    ("language", "draw_first", "draw_again", "release", "method"),
    [
        (
            "en",
            "Draw the league now? Teams and sections are fixed from then on.",
            "Draw the league again? Draw 1 and its pairings are replaced.",
            "Release round 2? Its pairings become public",
            "s draw, version 1<",
        ),
        (
            "ml",
            "ഇപ്പോൾ ലീഗിന്റെ ഡ്രോ എടുക്കണോ?",
            "ലീഗിന്റെ ഡ്രോ വീണ്ടും എടുക്കണോ? ഡ്രോ 1-ഉം",
            "റൗണ്ട് 2 പ്രഖ്യാപിക്കണോ?",
            "സൈറ്റിന്റെ ഡ്രോ, പതിപ്പ് 1<",
        ),
    ],
)
def test_the_draw_and_a_release_ask_first_in_the_pages_language(
    client, tournament, organizer, language, draw_first, draw_again, release, method
):
    """Issue 52: the draw and a round's release, which this page cannot take back,
    carry their question (static/js/confirm.js asks it); the draw's facts are in the
    page's words, and the server's command is for the site's administrator only."""
    make_field(tournament, (4, 4, 3, 2))
    client.force_login(organizer)
    client.cookies["django_language"] = language
    page = text(client.get(url(tournament)))
    assert f'data-confirm="{draw_first}' in page
    client.post(url(tournament), {"action": "draw", "seed": "7"})
    page = text(client.get(url(tournament)))
    assert f'data-confirm="{draw_again}' in page
    assert release in page and method in page
    assert "manage.py" not in page and "Algorithm" not in page
    assert 'title="56-draw/1"' in page  # the code, for whoever looks
