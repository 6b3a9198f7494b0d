"""The tournament day at a glance: the desk, the venue screen and "where do I play?",
as organizers, scorers and players use them."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db.models import Q
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from scoring.demo import confirm_as_organizer
from scoring.desk.selectors import desk_get
from scoring.league import services as league_services
from scoring.models import Announcement, LeagueRound, Match
from scoring.sheets import day
from tests.factories import SectionFactory, TeamFactory, member
from tests.scoring.league import confirm, play_quickly
from tournament.domain.types import Role
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def _forfeit(match, organizer) -> None:
    """Team B of `match` did not come: the organizer scores the forfeit."""
    day.score_sheet_forfeit(
        match_id=match.pk,
        user=organizer,
        absent="B",
        reason="did not come",
        version=Match.objects.get(pk=match.pk).version,
    )


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def day_one(tournament, organizer):
    """Twelve teams in three sections, drawn; round 1 released, the rest drafts."""
    for s in range(3):
        section = SectionFactory(tournament=tournament, name=f"Region {s + 1}")
        for t in range(4):
            TeamFactory(section=section, name=f"Region {s + 1} team {t + 1}")
    league_services.league_draw_generate(tournament=tournament, user=organizer, seed=4)
    league_services.league_round_release(
        tournament=tournament, user=organizer, number=1
    )
    tournament.refresh_from_db()
    return list(Match.objects.filter(tournament=tournament, round=1).order_by("table"))


def desk_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_desk_shows_every_state_and_the_late_table(day_one, tournament, organizer):
    first, second, third, fourth, fifth, sixth = day_one
    play_quickly(first.pk, organizer, 20, 12)  # completed, awaiting confirmation
    play_quickly(second.pk, organizer, 20, 12)
    api = APIClient()
    api.force_authenticate(organizer)
    confirm(api, second.pk)
    play_quickly(third.pk, organizer, 5, 0, deals=1)  # in progress, 1 of 18
    play_quickly(fourth.pk, organizer, 5, 0, deals=1)
    _forfeit(fifth, organizer)
    day.score_sheet_dispute_raise(
        match_id=first.pk,
        user=organizer,
        text="deal 4 was B's",
        roles=frozenset({Role.ORGANIZER}),
        sides=frozenset(),
    )
    page = text(desk_client(organizer).get(f"/t/{tournament.slug}/desk/"))
    assert "Round 1" in page
    for count, state in [
        (1, "not started"),
        (2, "in progress"),
        (1, "disputed"),
        (0, "awaiting confirmation"),
        (1, "confirmed"),
        (1, "forfeited"),
    ]:
        assert f"<strong>{count}</strong> {state}" in page, state
    rows = re.findall(r'<tr class="state-([a-z_]+)( late)?">', page)
    assert rows == [
        ("disputed", ""),
        ("confirmed", ""),
        ("in_progress", ""),
        ("in_progress", ""),
        ("forfeited", ""),
        ("not_started", ""),
    ]
    assert "1 of 18" in page and "0 min ago" in page
    # Forty minutes on, with nothing entered, the tables still playing are late.
    later = desk_get(tournament=tournament, now=timezone.now() + timedelta(minutes=40))
    late = {t.match.table: t.late for t in later.tables}
    assert late == {
        first.table: False,  # disputed: the organizer's, not the table's
        second.table: False,
        third.table: True,
        fourth.table: True,
        fifth.table: False,
        sixth.table: True,  # never started since its release
    }
    assert [round(t.idle) for t in later.tables if t.match == third] == [40]
    assert f'href="/matches/{third.pk}/score/"' in page
    assert "Release round 2" in page


def test_a_table_not_started_long_after_the_release_is_late(
    day_one, tournament, organizer
):
    LeagueRound.objects.filter(tournament=tournament, number=1).update(
        released_at=timezone.now() - timedelta(minutes=20)
    )
    page = text(desk_client(organizer).get(f"/t/{tournament.slug}/desk/"))
    assert page.count(" late") >= len(day_one)
    assert "released 20 min ago" in page


def test_the_organizer_releases_the_next_round_and_announces(
    day_one, tournament, organizer
):
    client = desk_client(organizer)
    url = f"/t/{tournament.slug}/desk/"
    page = text(client.post(url, {"action": "release", "row": 2}, follow=True))
    assert "Round 2 is released" in page
    assert LeagueRound.objects.get(tournament=tournament, number=2).released
    page = text(
        client.post(
            url,
            {"action": "announce", "text": "Lunch at one, in the hall"},
            follow=True,
        )
    )
    assert "Lunch at one, in the hall" in page
    said = Announcement.objects.get()
    screen = text(Client().get(f"/t/{tournament.slug}/screen/"))
    assert "Lunch at one, in the hall" in screen
    client.post(url, {"action": "end", "row": said.pk})
    assert "Lunch at one" not in text(Client().get(f"/t/{tournament.slug}/screen/"))
    too_long = client.post(url, {"action": "announce", "text": "x" * 201})
    assert too_long.status_code == 400
    assert Announcement.objects.count() == 1


def test_scorers_see_the_desk_but_do_not_release(day_one, tournament, scorer):
    client = desk_client(scorer)
    url = f"/t/{tournament.slug}/desk/"
    page = text(client.get(url))
    assert "Round 1" in page and "Release round" not in page
    assert client.post(url, {"action": "release", "row": 2}).status_code == 403
    assert not LeagueRound.objects.get(tournament=tournament, number=2).released


def test_the_desk_refreshes_only_its_board(day_one, tournament, organizer):
    answer = desk_client(organizer).get(
        f"/t/{tournament.slug}/desk/", HTTP_HX_REQUEST="true"
    )
    page = text(answer)
    assert page.startswith('<div id="board"') and "<html" not in page


def test_the_venue_screen_splits_a_long_round_and_turns_to_the_standings(
    tournament, organizer
):
    tournament.published = True
    tournament.save()
    for s in range(8):
        section = SectionFactory(tournament=tournament, name=f"Region {s + 1}")
        for t in range(8):
            TeamFactory(section=section, name=f"R{s + 1} T{t + 1}")
    league_services.league_draw_generate(tournament=tournament, user=organizer, seed=2)
    league_services.league_rounds_release_all(tournament=tournament, user=organizer)
    round_one = Match.objects.filter(tournament=tournament, round=1)
    assert round_one.count() == 32  # 64 teams: two views of 16
    play_quickly(round_one.first().pk, organizer, 20, 12)
    screen = Client()
    url = f"/t/{tournament.slug}/screen/"
    first = text(screen.get(url))
    assert "Round 1 · 1 of 2" in first
    assert first.count('<span class="table">') == 16
    assert f'hx-get="/t/{tournament.slug}/screen/?view=1"' in first
    second = text(screen.get(url + "?view=1", HTTP_HX_REQUEST="true"))
    assert "1 of 2" not in second and "2 of 2" in second
    assert second.count('<span class="table">') == 16
    assert "<html" not in second
    standings = text(screen.get(url + "?view=2"))
    assert "Standings" in standings and "Match points" in standings
    assert "<th>R1</th>" not in standings  # columns in words (issue 41)
    assert '<header class="site"' not in standings  # nothing but the screen
    # Every team of the standings, view after view (64 teams: 6 views of 10 or 11),
    # and round again to the pairings.
    names, view = [], 2
    while True:
        page = screen.get(url + f"?view={view}").content.decode()
        names += re.findall(r'<td><span class="name">([^<]+)</span>', page)
        view = int(re.search(r'hx-get="[^"]*\?view=(\d+)"', page).group(1))
        if view == 0:
            break
        assert view <= 8
    assert sorted(names) == sorted(
        f"R{s + 1} T{t + 1}" for s in range(8) for t in range(8)
    )
    assert "1 of 6 · places 1–11" in text(screen.get(url + "?view=2"))


def test_the_venue_screen_of_an_unpublished_tournament_is_hidden(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(published=False)
    assert Client().get(f"/t/{tournament.slug}/screen/").status_code == 404


def test_where_do_i_play_by_team_or_player_name(day_one, tournament, organizer):
    tournament.published = True
    tournament.save()
    match = day_one[0]
    team = match.team_a
    player = team.players.first()
    client = Client()
    page = text(client.get(f"/t/{tournament.slug}/where/?q={team.name}"))
    assert f"table {match.table}</strong> against {match.team_b.name}" in page
    assert "The next round is not released yet." in page
    league_services.league_round_release(
        tournament=tournament, user=organizer, number=2
    )
    later = Match.objects.get(
        Q(team_a=team) | Q(team_b=team), tournament=tournament, round=2
    )
    by_player = text(
        client.get(
            f"/t/{tournament.slug}/where/?q={player.name[-12:]}",
            HTTP_HX_REQUEST="true",
        )
    )
    assert by_player.startswith('<div id="where"')
    assert f"Next, Round 2: <strong>table {later.table}</strong>" in by_player
    nobody = text(client.get(f"/t/{tournament.slug}/where/?q=zzzz"))
    assert "No team of Spring Open is called “zzzz”" in nobody
    assert "letters at least" not in nobody
    # The tournament page carries the search once the league is drawn.
    assert 'id="where-q"' in text(client.get(f"/t/{tournament.slug}/"))


def test_where_finds_a_substitute_from_the_round_he_comes_in(
    day_one, tournament, organizer
):
    """Issue 41: an approved substitute was not found, and five letters were answered
    "Two letters at least." He is found from the round he comes in (once that round
    is current or released next), and the player he replaced no longer is; in
    English and in Malayalam."""
    tournament.published = True
    tournament.save()
    team = day_one[0].team_a
    replaced = team.players.first().name
    league_services.substitution_approve(
        team=team,
        user=organizer,
        out=replaced,
        into="Zubair Kunnath",
        from_round=3,
        reason="injured",
    )
    client = Client()

    def where(q, language="en"):
        url = f"/t/{tournament.slug}/where/?q={q}"
        return text(client.get(url, HTTP_ACCEPT_LANGUAGE=language))

    # Round 1 is current, round 2 not released: he has not come in yet.
    assert team.name not in where("Zubair")
    assert team.name in where(replaced)
    mine = where("Zubai")  # five letters: answered, not "two letters at least"
    assert "No team of Spring Open is called “Zubai”" in mine
    assert "letters at least" not in mine
    for number in (2, 3):
        league_services.league_round_release(
            tournament=tournament, user=organizer, number=number
        )
    for m in Match.objects.filter(tournament=tournament, round__in=(1, 2)):
        play_quickly(m.pk, organizer, 20, 12)
        confirm_as_organizer(m, organizer)
    found = where("zubai")
    assert f">{team.name}</a>" in found and "Round 3:" in found
    assert f">{team.name}</a>" not in where(replaced)
    assert f">{team.name}</a>" in where("Zubair", "ml")
    assert "Type 2 letters at least" in where("Z")
    assert "letters at least" not in where("Zu")
    short = where("Z", "ml")
    assert "2" in short and "letters" not in short


@pytest.mark.parametrize("size", [2, 5])
def test_the_desk_screen_and_where_take_the_same_queries_at_any_size(
    tournament, organizer, size, django_assert_max_num_queries
):
    tournament.published = True
    tournament.save()
    for s in range(3):
        section = SectionFactory(tournament=tournament, name=f"Region {s + 1}")
        for t in range(size * 2):
            TeamFactory(section=section, name=f"R{s + 1} T{t + 1}")
    league_services.league_draw_generate(tournament=tournament, user=organizer, seed=2)
    league_services.league_rounds_release_all(tournament=tournament, user=organizer)
    member(tournament, Role.SCORER, "desk-scorer")
    client = desk_client(organizer)
    # session, user, tournament, roles, round counts (2), the round's release, its
    # tables (with deals and last entries), announcements
    with django_assert_max_num_queries(9):
        client.get(f"/t/{tournament.slug}/desk/")
    anonymous = Client()
    # tournament, the screen's fingerprint, announcements; then what the view shows:
    # round counts (2), tables, byes, announcements
    with django_assert_max_num_queries(8):
        anonymous.get(f"/t/{tournament.slug}/screen/")
    # Another screen on the same view: its render is the one kept.
    with django_assert_max_num_queries(3):
        assert anonymous.get(f"/t/{tournament.slug}/screen/").status_code == 200
    # tournament, teams found, round counts (2), their rosters (players and
    # substitutions), their matches, their byes
    with django_assert_max_num_queries(8):
        anonymous.get(f"/t/{tournament.slug}/where/?q=R1")


def advice(client, tournament, language="en") -> str:
    """The desk's advice, as its line reads: 'release_first | The league is ...'."""
    page = client.get(f"/t/{tournament.slug}/desk/", HTTP_ACCEPT_LANGUAGE=language)
    found = re.search(
        r'<p class="advice" role="status" data-advice="(\w+)">(.*?)</p>',
        page.content.decode(),
        re.S,
    )
    assert found, "the desk gives no advice"
    said = " ".join(re.sub(r"<[^>]+>", " ", found.group(2)).split())
    return f"{found.group(1)} | {said}"


def test_the_desk_advises_what_to_do_in_every_state_of_the_day(
    tournament, organizer, scorer
):
    """Issue 41: with the league drawn and every round a draft, the desk said "Draw
    the league on the Draw tab". Each state of the day, as the organizer and a scorer
    read it, in English and in Malayalam."""
    org, score = desk_client(organizer), desk_client(scorer)
    api = APIClient()
    api.force_authenticate(organizer)
    assert advice(org, tournament) == (
        "draw | Nothing is drawn yet. Draw the league on the Draw tab ."
    )
    assert "ഡ്രോ" in advice(org, tournament, "ml")
    Tournament.objects.filter(pk=tournament.pk).update(league_rounds=3)
    tournament.refresh_from_db()
    for t in range(4):
        section = SectionFactory(tournament=tournament, name=f"Region {t + 1}")
        TeamFactory(section=section, name=f"Team {t + 1}")
    league_services.league_draw_generate(tournament=tournament, user=organizer, seed=4)
    said = advice(org, tournament)
    assert said == (
        "release_first | The league is drawn; no round is released yet. Release "
        "round 1 below when the hall is ready: its pairings become public."
    )
    assert "Draw the league" not in said
    assert advice(score, tournament) == (
        "release_first | The league is drawn; no round is released yet. Round 1 "
        "starts when an organizer releases it."
    )
    malayalam = advice(org, tournament, "ml")
    assert "release_first" in malayalam and "റൗണ്ട് 1" in malayalam
    assert "Release round" not in malayalam
    # Nothing shown yet: the round list says so, not "Round 1 (draft)" above "No
    # round to show yet." (issue 41, words 3).
    for language, none, hint in (
        ("en", "None released yet", "choose a draft round above"),
        ("ml", "ഇതുവരെ ഒന്നും പുറത്തുവിട്ടിട്ടില്ല", "കരട് റൗണ്ട്"),
    ):
        page = org.get(
            f"/t/{tournament.slug}/desk/", HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        picked = re.findall(r"<option ([^>]*)>([^<]*)</option>", page)
        assert [label for attrs, label in picked if "selected" in attrs] == [none]
        assert hint in page and "No round to show yet." not in page
    drafted = org.get(f"/t/{tournament.slug}/desk/?round=league-1").content.decode()
    assert re.search(r'<option value="league-1" selected>Round 1 \(draft\)', drafted)
    assert "None released yet" not in drafted
    for number in (1, 2, 3):
        league_services.league_round_release(
            tournament=tournament, user=organizer, number=number
        )
        first, second = Match.objects.filter(
            tournament=tournament, round=number
        ).order_by("table")
        assert advice(org, tournament) == (
            f"playing | Being played: Round {number} — 0 of 2 tables have a result."
        )
        assert advice(org, tournament, "ml").startswith(
            f"playing | നടക്കുന്നു: റൗണ്ട് {number} — "
        )
        play_quickly(first.pk, organizer, 20, 12)
        play_quickly(second.pk, organizer, 20, 12)
        assert advice(org, tournament) == (
            f"confirming | Every table of Round {number} has a result; 0 of 2 sheets "
            "are confirmed. The others wait for both captains (or an organizer) to "
            "confirm."
        )
        confirm(api, first.pk)
        confirm(api, second.pk)
        if number < 3:
            assert advice(org, tournament) == (
                f"release_next | Over: Round {number} — every sheet is final. "
                f"Release round {number + 1} below when the hall is ready."
            )
            assert advice(score, tournament).endswith(
                f"Round {number + 1} starts when an organizer releases it."
            )
    assert advice(org, tournament) == (
        "seed | The league is final: every sheet is confirmed. Seed the knockout on "
        "the Knockout tab ."
    )
    assert advice(score, tournament).endswith("The organizers seed the knockout next.")
    assert advice(org, tournament, "ml").startswith("seed | ")
    from brackets.services import knockout_seed

    knockout_seed(tournament=tournament, user=organizer, qualifiers=2)
    assert advice(org, tournament) == (
        "playing | Being played: Final — 0 of 1 tables have a result."
    )
    for _game in (1, 2):  # both at the first game's table (RULES.md §6)
        sheet = Match.objects.get(
            tournament=tournament, stage="knockout", table=1, status="scheduled"
        )
        play_quickly(sheet.pk, organizer, 20, 12)
        confirm(api, sheet.pk)
    assert advice(org, tournament) == (
        "finished | Every knockout match is decided: the podium is on the Knockout "
        "tab ."
    )


@pytest.mark.parametrize(
    ("language", "forfeit", "wins", "absent", "of_18"),
    [
        ("en", "forfeit", "wins", "absent", "0 of 18"),
        ("ml", "വാക്കോവർ", "ജയിച്ചു", "ഹാജരായില്ല", "18-ൽ 0"),
    ],
)
def test_a_forfeit_reads_as_one_on_the_desk_and_the_venue_screen(
    day_one, tournament, organizer, language, forfeit, wins, absent, of_18
):
    """Issue 41's walk: the desk said "0 of 18" deals for a forfeited table and the
    venue screen showed its pairing blank, as if still to play."""
    fifth = day_one[4]
    _forfeit(fifth, organizer)
    tournament.published = True
    tournament.save(update_fields=["published"])
    client = desk_client(organizer)
    client.cookies["django_language"] = language
    page = text(client.get(f"/t/{tournament.slug}/desk/"))
    row = page[page.index('<tr class="state-forfeited">') :]
    row = row[: row.index("</tr>")]
    # Under the state on a phone, in the deals' column on a desk.
    assert f'<small class="phone-only">{forfeit} · ' in row
    assert f'<td class="num wide-only">{forfeit}</td>' in row
    assert of_18 not in row and "deals" not in row
    viewer = Client()
    viewer.cookies["django_language"] = language
    screen = text(viewer.get(f"/t/{tournament.slug}/screen/"))
    line = screen[screen.index(f'<span class="table">{fifth.table}</span>') :]
    line = line[: line.index("</li>")]
    assert f'{fifth.team_a.name}</span> <span class="mark">({wins})</span>' in line
    assert f'{fifth.team_b.name}</span> <span class="mark">({absent})</span>' in line
    assert f'<span class="score forfeit">{forfeit}</span>' in line
