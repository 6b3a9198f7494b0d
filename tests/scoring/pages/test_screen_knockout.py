"""The venue screen's end of the day (issue 52): once the knockout is seeded it turns
through the bracket as it fills; the final's sheets are "Final, game 1/2/3"; results
not confirmed are marked provisional; once the final is decided the champion and the
podium come first and the league's standings go; at the end of the day the screen
rests on the champion. In English and in Malayalam, through the page and its poll."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.brackets.knockout import bracket, final_league, matches_of, play_sheet
from tests.conftest import as_user
from tests.scoring.league import confirm

pytestmark = pytest.mark.django_db

SHORT = {"semi_final": 4, "second_runner_up": 4, "final": 4}
PROVISIONAL = {"en": "provisional", "ml": "താൽക്കാലികം"}


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def views(client: Client, slug: str, language: str = "en") -> list[tuple[str, str]]:
    """Every view of the screen's turn, as it turns (each by the address the one
    before asks next: the first by the page, the others by its poll): (kind, text)."""
    seen, view = [], 0
    for _ in range(20):
        answer = client.get(
            f"/t/{slug}/screen/?view={view}",
            HTTP_ACCEPT_LANGUAGE=language,
            **({"HTTP_HX_REQUEST": "true"} if view else {}),
        )
        assert answer.status_code == 200
        page = text(answer)
        kind = re.search(r'<main id="screen" data-view="(\w+)"', page).group(1)
        seen.append((kind, page))
        view = int(re.search(r'hx-get="[^"]*\?view=(\d+)"', page).group(1))
        if view == 0:
            return seen
    raise AssertionError("the screen never turns round")


def kinds(client: Client, slug: str) -> list[str]:
    return [kind for kind, _ in views(client, slug)]


def view_of(client: Client, slug: str, kind: str, language: str = "en") -> str:
    return next(page for k, page in views(client, slug, language) if k == kind)


def seed(api, organizer, slug: str) -> dict:
    as_user(api, organizer)
    answer = api.post(f"/api/v1/tournaments/{slug}/knockout/", {"deals": SHORT}, "json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


@pytest.fixture
def four(api):
    """A final league of 8 teams with 4 qualifiers, published, its knockout seeded
    (two semi-finals, then the final, best of three, and the second runner-up
    match)."""
    tournament, organizer = final_league(2, 4, qualifiers=4, slug="screen-ko")
    tournament.published = True
    tournament.save()
    seed(api, organizer, "screen-ko")
    return tournament, organizer


def test_the_knockout_day_on_the_screen_to_its_champion(api, four):
    tournament, _organizer = four
    slug = tournament.slug
    screen = Client()

    # Seeded: the semi-finals' tables, the bracket, and still the league's standings.
    assert kinds(screen, slug) == ["pairings", "bracket", "standings"]
    for language, names in (
        ("en", ("Semi-finals", "Second runner-up match", "Final")),
        ("ml", ("സെമി ഫൈനൽ", "രണ്ടാം റണ്ണർ-അപ്പ് മത്സരം", "ഫൈനൽ")),
    ):
        shown = view_of(screen, slug, "bracket", language)
        columns = re.findall(
            r'<section class="ko-col" role="listitem"><h2>([^<]+)', shown
        )
        assert columns == list(names), (language, columns)
        assert shown.count('class="tbd"') == 4  # the final's round waits for its teams

    # A semi-final played, not confirmed: its result is provisional on the tables and
    # on the bracket; confirmed, it no longer is, and its winner is marked.
    data = bracket(api, slug)
    semis = [m for m in matches_of(data).values() if m["kind"] == "main"]
    play_sheet(api, semis[0]["match"], 4, 2, 4)
    for language, word in PROVISIONAL.items():
        tables = view_of(screen, slug, "pairings", language)
        mark = f'<span class="provisional-mark">{word}</span>'
        assert f'<span class="score provisional">4–2 {mark}' in tables
        assert tables.count(f">{word}</span>") == 1
        shown = view_of(screen, slug, "bracket", language)
        assert 'class="ko-m provisional"' in shown and word in shown
        assert "ko-side won" not in shown  # not moved on until confirmed
    confirm(api, semis[0]["match"])
    tables = view_of(screen, slug, "pairings")
    assert '<span class="score">4–2</span>' in tables and "provisional" not in tables
    shown = view_of(screen, slug, "bracket")
    assert "provisional" not in shown
    winner = semis[0]["team_a_name"]
    seed_a = semis[0]["seed_a"]
    assert (
        f'<div class="ko-side won"><span class="seed">{seed_a}</span>'
        f'<span class="name">{winner}</span><span class="ko-score">4</span>'
    ) in shown
    play_sheet(api, semis[1]["match"], 4, 2, 4)
    confirm(api, semis[1]["match"])

    # The final's round: each table by its own match, game by game.
    def final_sheet():
        return next(
            m for m in matches_of(bracket(api, slug)).values() if m["kind"] == "final"
        )

    said = {
        "en": ("Final, game {}", "Second runner-up match"),
        "ml": ("ഫൈനൽ, ഗെയിം {}", "രണ്ടാം റണ്ണർ-അപ്പ് മത്സരം"),
    }
    for number, (a, b) in enumerate(((4, 2), (2, 4), (4, 2)), start=1):
        final = final_sheet()
        for language, (game, runner_up) in said.items():
            tables = view_of(screen, slug, "pairings", language)
            owns = re.findall(r'<span class="own">([^<]+)</span>', tables)
            assert owns == [runner_up] + [
                game.format(n) for n in range(1, number + 1)
            ] or (
                owns == [game.format(n) for n in range(1, number + 1)] + [runner_up]
            ), owns
        play_sheet(api, final["match"], a, b, 4)
        confirm(api, final["match"])
    final = final_sheet()
    assert final["winner"] == "A"

    # The final decided, the second runner-up match still to play: the champion first,
    # the final's round, the bracket (the series 2–1); no standings any more.
    assert kinds(screen, slug) == ["champion", "pairings", "bracket"]
    for language, (label, runner) in (
        ("en", ("Champion", "Runner-up")),
        ("ml", ("ചാമ്പ്യൻ", "റണ്ണർ-അപ്പ്")),
    ):
        champion = view_of(screen, slug, "champion", language)
        champion_name = final["team_a_name"]
        assert (
            f'<h2>{label}</h2> <p class="winner"><span class="name">{champion_name}'
        ) in champion
        assert (
            f'{runner}</span> <span class="name">{final["team_b_name"]}</span>'
            in champion
        )
    shown = view_of(screen, slug, "bracket")
    assert re.search(
        r'<div class="ko-side won">.{0,200}<span class="ko-score">2</span></div>'
        r'<div class="ko-side">.{0,200}<span class="ko-score">1</span></div>'
        r'<p class="ko-note">best of 3</p>',
        shown,
    ), shown

    # The end of the day: the screen rests on the champion, with the whole podium.
    third = next(
        m
        for m in matches_of(bracket(api, slug)).values()
        if m["kind"] == "second_runner_up"
    )
    play_sheet(api, third["match"], 4, 2, 4)
    confirm(api, third["match"])
    for language, places in (
        ("en", ("Runner-up", "Second runner-up", "Third runner-up")),
        ("ml", ("റണ്ണർ-അപ്പ്", "രണ്ടാം റണ്ണർ-അപ്പ്", "മൂന്നാം റണ്ണർ-അപ്പ്")),
    ):
        turn = views(screen, slug, language)
        assert [k for k, _ in turn] == ["champion"]
        page = turn[0][1]
        assert f'hx-get="/t/{slug}/screen/?view=0"' in page
        for place, team in zip(
            places,
            (final["team_b_name"], third["team_a_name"], third["team_b_name"]),
            strict=True,
        ):
            assert (
                f'<span class="place">{place}</span> <span class="name">{team}</span>'
                in page
            )
        # A poll of any view is the champion's too.
        poll = text(
            screen.get(
                f"/t/{slug}/screen/?view=7",
                HTTP_HX_REQUEST="true",
                HTTP_ACCEPT_LANGUAGE=language,
            )
        )
        assert poll.startswith('<main id="screen" data-view="champion"')


def test_a_round_of_twelve_tables_stands_in_two_columns(api):
    """Issue 52: 12 tables filled the left half of the screen, the right one empty.
    From 7 tables a view has two columns; 6 or fewer one across the screen."""
    from scoring.league import services as league_services
    from scoring.models import Match
    from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member
    from tournament.domain.types import Role

    tournament = TournamentFactory(slug="twelve", league_rounds=3, published=True)
    organizer = member(tournament, Role.ORGANIZER, "twelve-org")
    for s in range(3):
        section = SectionFactory(tournament=tournament, name=f"Region {s + 1}")
        for t in range(8):
            TeamFactory(section=section, name=f"R{s + 1} T{t + 1}")
    league_services.league_draw_generate(tournament=tournament, user=organizer, seed=1)
    league_services.league_round_release(
        tournament=tournament, user=organizer, number=1
    )
    assert Match.objects.filter(tournament=tournament, round=1).count() == 12
    page = text(Client().get("/t/twelve/screen/"))
    assert '<ol class="pairings cols-2 rows-6">' in page
    assert page.count('<span class="table">') == 12


def test_the_knockout_screen_reads_the_same_queries_at_any_size(api):
    """Each view's render reads a fixed number of queries, whatever the bracket's
    size (4 or 16 qualifiers), and a second screen on the same view reads its kept
    render in three."""
    counts = []
    for sections, per_section, qualifiers in ((2, 4, 4), (2, 8, 16)):
        slug = f"count-{qualifiers}"
        tournament, organizer = final_league(
            sections, per_section, qualifiers=qualifiers, slug=slug
        )
        tournament.published = True
        tournament.save()
        seed(api, organizer, slug)
        screen = Client()
        assert kinds(screen, slug)[:3] == ["pairings", "bracket", "standings"]
        cache.clear()
        sizes = []
        for view in range(3):
            with CaptureQueriesContext(connection) as first:
                assert screen.get(f"/t/{slug}/screen/?view={view}").status_code == 200
            with CaptureQueriesContext(connection) as again:
                assert screen.get(f"/t/{slug}/screen/?view={view}").status_code == 200
            sizes.append((len(first), len(again)))
        counts.append(sizes)
    assert counts[0] == counts[1]
    # tournament, the screen's fingerprint, announcements; then what the view shows:
    # round counts (2), the bracket (4: bracket, seeds, matches, games), the league's
    # teams counted, then its tables (1), nothing more (the bracket) or the
    # standings (6), and announcements.
    assert [first for first, _ in counts[0]] == [12, 11, 17]
    assert [again for _, again in counts[0]] == [3, 3, 3]
