"""Statistics, checked by hand on a small tournament (docs/statistics.md): one match of
six deals played with bidders, a kallakali and a warning, one forfeited match left
out; through the API, the pages and the workbook."""

from __future__ import annotations

import pytest

from scoring.sheets import day, services
from tests.conftest import as_user
from tests.factories import TeamFactory
from tests.scoring.conftest import deal_body
from tests.scoring.excel import table, workbook
from tests.scoring.league import sized_league

pytestmark = pytest.mark.django_db

# (declarer, value, trump, level, taken, bidder: (team, player) or None)
DEALS = [
    ("A", 40, "clubs", "none", 40, (0, 0)),  # made: A 2
    ("A", 56, "spades", "none", 56, (0, 0)),  # made: A 4
    ("B", 30, "hearts", "doubled", 20, (1, 0)),  # defeated: A 2+1
    ("B", 28, "no_trump", "none", 30, None),  # given to B by A's kallakali: B 1+3
    ("A", 48, "diamonds", "redoubled", 50, (0, 1)),  # made: A 3+2
    ("A", 32, "clubs", "none", 10, (0, 0)),  # defeated: B 2
]


@pytest.fixture
def played(api, tournament, team, away_team, organizer, sections):
    """Edison Aces (A) 14 – 6 Chicago Jacks (B) over six deals; a forfeit besides."""
    match = services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=team.pk,
        team_b=away_team.pk,
        round=1,
        table=1,
        deals_scheduled=6,
    )
    players = [
        list(t.players.order_by("position").values_list("name", flat=True))
        for t in (team, away_team)
    ]
    for n, (declarer, value, trump, level, taken, bidder) in enumerate(DEALS, 1):
        services.score_sheet_deal_record(
            match_id=match.pk,
            user=organizer,
            version=None,
            bidder=players[bidder[0]][bidder[1]] if bidder else "",
            **deal_body(n, declarer, value, trump, level, taken),
        )
    for deal, offender, kind in ((4, "A", "kallakali"), (1, "B", "out_of_turn")):
        services.score_sheet_penalty_record(
            match_id=match.pk,
            user=organizer,
            version=None,
            deal=deal,
            offender=offender,
            kind=kind,
            points=None,
            note="",
            by_organizer=True,
        )
    match.refresh_from_db()
    assert (match.total_a, match.total_b, match.status) == (14, 6, "completed")
    # A forfeit counts nowhere in the statistics (rules.md §9).
    third = TeamFactory(section=sections["chicago"], name="Boston Kings")
    forfeit = services.match_create(
        tournament=tournament,
        user=organizer,
        team_a=team.pk,
        team_b=third.pk,
        round=2,
        table=1,
    )
    day.score_sheet_forfeit(
        match_id=forfeit.pk, user=organizer, absent="B", reason="no show", version=None
    )
    as_user(api, organizer)
    return match, players


def _figures(row):
    keys = ("declared", "made", "defeated", "made_percent", "average_value")
    return tuple(row[k] for k in keys)


def test_the_statistics_of_a_small_tournament_by_hand(api, played, tournament):
    match, players = played
    (aces_1, aces_2, _), (jacks_1, _, _) = players
    api.logout()  # public
    body = api.get(f"/api/v1/tournaments/{tournament.slug}/statistics/").json()
    assert (body["deals"], body["bidders_recorded"]) == (6, 5)

    by_player = {p["player"]: p for p in body["players"]}
    assert set(by_player) == {aces_1, aces_2, jacks_1}
    assert _figures(by_player[aces_1]) == (3, 2, 1, 66.7, 42.67)
    assert (by_player[aces_1]["bid_56"], by_player[aces_1]["made_56"]) == (1, 1)
    assert _figures(by_player[aces_2]) == (1, 1, 0, 100.0, 48.0)
    assert by_player[aces_2]["redoubled_made"] == 1
    assert _figures(by_player[jacks_1]) == (1, 0, 1, 0.0, 30.0)
    assert (by_player[jacks_1]["doubled"], by_player[jacks_1]["doubled_made"]) == (1, 0)
    assert by_player[aces_1]["team_name"] == "Edison Aces"

    teams = {t["team_name"]: t for t in body["teams"]}
    aces, jacks, kings = (
        teams["Edison Aces"],
        teams["Chicago Jacks"],
        teams["Boston Kings"],
    )
    assert _figures(aces) == (4, 3, 1, 75.0, 44.0)
    # Deal 4 was given to the Jacks by the Aces' kallakali: it counts as made.
    assert _figures(jacks) == (2, 1, 1, 50.0, 29.0)
    assert _figures(kings) == (0, 0, 0, None, None)
    # 40, 56, 48, 32 declared by the Aces: made but for the 32.
    assert [(b["declared"], b["made"]) for b in aces["by_value"]] == [
        (1, 0),
        (1, 1),
        (1, 1),
        (1, 1),
    ]
    assert sum(b["declared"] for b in body["overall"]["by_value"]) == 6
    assert (aces["kallakali_caught"], aces["kallakali_suffered"]) == (0, 1)
    assert (jacks["kallakali_caught"], jacks["kallakali_suffered"]) == (1, 0)
    assert (aces["penalties_against"], aces["penalties_against_by_kind"]) == (
        1,
        {"kallakali": 1},
    )
    assert (jacks["penalties_against"], jacks["penalties_against_by_kind"]) == (
        1,
        {"out_of_turn": 1},
    )
    assert aces["biggest_win"]["margin"] == 8 and aces["biggest_win"]["total"] == 14
    assert aces["biggest_win"]["match"] == match.pk  # not the forfeit
    assert jacks["biggest_win"] is None and jacks["highest_total"]["total"] == 6
    assert kings["highest_total"] is None
    # Aces made deals 1, 2 and 5 (3 and 4 were the Jacks'), then lost deal 6.
    run = aces["longest_run"]
    assert (run["length"], run["first"]["deal"], run["last"]["deal"]) == (3, 1, 5)
    assert jacks["longest_run"]["length"] == 1

    records = {r["kind"]: r for r in body["records"]}
    assert set(records) == {
        "highest_match_total",
        "biggest_margin",
        "most_56_made",
        "most_56_made_team",
        "longest_run",
    }
    assert records["highest_match_total"]["value"] == 14
    assert records["biggest_margin"]["value"] == 8
    assert [h["team_name"] for h in records["biggest_margin"]["holders"]] == [
        "Edison Aces"
    ]
    assert records["biggest_margin"]["holders"][0]["match"]["opponent_name"] == (
        "Chicago Jacks"
    )
    assert [h["player"] for h in records["most_56_made"]["holders"]] == [aces_1]
    assert records["longest_run"]["value"] == 3


@pytest.mark.parametrize(("sections", "per_section"), [(2, 3), (4, 6)])
def test_statistics_cost_the_same_queries_at_any_size(
    api, client, django_assert_num_queries, sections, per_section
):
    """The API, the page and a player's page: the sheets' fingerprint, the teams'
    names, the counted sheets' stored tallies (one row each) and one SUM over their
    bidders' rows (docs/statistics.md), whatever the size; then, with nothing
    changed, the fingerprint alone."""
    _, organizer, matches = sized_league(sections, per_section)
    match = matches[0]
    player = match.team_a.players.first().name
    services.score_sheet_deal_replace(
        match_id=match.pk, number=1, user=organizer, version=None,
        bidder=player, **{k: v for k, v in deal_body(1).items() if k != "number"},
    )  # fmt: skip
    url = "/api/v1/tournaments/sized-cup/statistics/"
    # The tournament, fingerprint, names, the teams' parts' keys, then the sheets
    # and their tallies for the parts not kept.
    with django_assert_num_queries(6):
        assert api.get(url).status_code == 200
    with django_assert_num_queries(2):  # kept under the fingerprint
        assert api.get(url).status_code == 200
    with django_assert_num_queries(4):  # every team's part kept: put together
        assert client.get("/t/sized-cup/statistics/").status_code == 200
    with django_assert_num_queries(2):
        assert client.get("/t/sized-cup/statistics/").status_code == 200
    # the tournament, team, tallies, roster, deals, and the player's person
    with django_assert_num_queries(6):
        page = client.get(f"/t/sized-cup/teams/{match.team_a_id}/players/{player}/")
    assert page.status_code == 200


def test_a_change_to_any_sheet_changes_the_statistics_at_once(api, played, tournament):
    """Kept under the sheets' fingerprint, never stale: a deal, a penalty or a
    release makes a new one; the ETag answers 304 while nothing changed."""
    match, players = played
    url = f"/api/v1/tournaments/{tournament.slug}/statistics/"
    first = api.get(url)
    etag = first["ETag"]
    assert api.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    version = api.get(f"/api/v1/matches/{match.pk}/").json()["version"]
    changed = api.put(
        f"/api/v1/matches/{match.pk}/deals/6/",
        {**deal_body(6, "A", 32, "clubs", "none", 40), "bidder": players[0][0],
         "version": version},
        "json",
    )  # fmt: skip
    assert changed.status_code == 200, changed.json()
    again = api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    aces_1 = next(p for p in again.json()["players"] if p["player"] == players[0][0])
    assert (aces_1["made"], aces_1["defeated"]) == (3, 0)  # deal 6 is made now


def test_the_statistics_page_sorts_without_javascript(client, played, tournament):
    _, players = played
    (aces_1, aces_2, _), (jacks_1, _, _) = players
    url = f"/t/{tournament.slug}/statistics/"
    page = client.get(url).content.decode()
    assert "Records" in page and "<svg" in page and "Contracts by value" in page
    # The default order: contracts declared, most first.
    assert page.index(aces_1) < page.index(aces_2)
    # By average value, highest first (a link in the column's header).
    assert "?players=-average_value#players" in page
    by_value = client.get(url, {"players": "-average_value"}).content.decode()
    table_part = by_value[by_value.index('id="players"') :]
    assert (
        table_part.index(aces_2) < table_part.index(aces_1) < table_part.index(jacks_1)
    )
    assert 'aria-sort="descending"' in table_part
    # And back: the same link sorts lowest first.
    ascending = client.get(url, {"players": "average_value"}).content.decode()
    table_part = ascending[ascending.index('id="players"') :]
    assert table_part.index(jacks_1) < table_part.index(aces_1)


def test_a_player_page_lists_his_contracts(client, played, tournament, team):
    _, players = played
    aces_1 = players[0][0]
    page = client.get(f"/t/{tournament.slug}/teams/{team.pk}/players/{aces_1}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count("<tr><td><a href=") == 3  # deals 1, 2 and 6
    assert "66.7" in text and "42.67" in text
    # Each contract's round by its one name, not "R1 · T1" (issue 52).
    assert "Round 1 · table 1</a>" in text and "R1 · T" not in text
    client.cookies["django_language"] = "ml"
    said = client.get(f"/t/{tournament.slug}/teams/{team.pk}/players/{aces_1}/")
    assert "റൗണ്ട് 1 · മേശ 1</a>" in said.content.decode()
    missing = client.get(f"/t/{tournament.slug}/teams/{team.pk}/players/Nobody/")
    assert missing.status_code == 404


def test_the_team_page_shows_its_players_figures(client, played, tournament, team):
    _, players = played
    text = client.get(f"/t/{tournament.slug}/teams/{team.pk}/").content.decode()
    assert "Bidders" in text
    assert players[0][0] in text and "66.7" in text


def test_the_workbook_has_a_statistics_sheet(api, played, tournament):
    _, players = played
    answer = api.get(f"/api/v1/tournaments/{tournament.slug}/export.xlsx")
    rows = table(workbook(answer.content), "Statistics")
    player = next(r for r in rows if r["Player"] == players[0][0])
    assert (player["Line"], player["Declared"], player["Made"]) == ("Player", 3, 2)
    assert player["Made %"] == 66.7
    aces = next(r for r in rows if r["Line"] == "Team" and r["Team"] == "Edison Aces")
    assert (aces["Declared"], aces["Kallakali suffered"]) == (4, 1)


def test_the_statistics_answer_while_the_cache_is_down(
    api, client, played, tournament, settings, caplog
):
    """The cache keeps nothing that is needed (tournament/db/cache.py): with Redis
    gone, the statistics are computed and answered, and the logs say so."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        }
    }
    answer = api.get(f"/api/v1/tournaments/{tournament.slug}/statistics/")
    assert answer.status_code == 200 and answer.json()["deals"] == 6
    assert client.get(f"/t/{tournament.slug}/statistics/").status_code == 200
    assert "cache unavailable" in caplog.text


@pytest.mark.parametrize(
    ("language", "doubled", "redoubled"),
    [
        ("en", "Doubled, made", "Redoubled, made"),
        ("ml", "ഡബിൾ, ജയിച്ചത്", "റീഡബിൾ, ജയിച്ചത്"),
    ],
)
def test_the_doubled_columns_say_doubled_not_times_two(
    client, played, tournament, team, language, doubled, redoubled
):
    """Under 56 International a double adds to the stakes, it does not double them:
    the columns say "Doubled, made", as the workbook does, not "×2 made" (issue 41)."""
    _, players = played
    pages = [
        f"/t/{tournament.slug}/statistics/",
        f"/t/{tournament.slug}/teams/{team.pk}/",
        f"/t/{tournament.slug}/teams/{team.pk}/players/{players[0][0]}/",
    ]
    for url in pages:
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert doubled in page and redoubled in page, url
        assert "×2" not in page and "×4" not in page, url


def test_after_each_sheet_write_the_kept_parts_and_the_new_agree_with_a_whole_reading(
    api, organizer
):
    """Each write changes two teams' parts; the statistics put together from the
    others' kept parts and those two computed again are exactly what a reading of
    the whole tournament, with nothing kept, finds: deal after deal, a penalty, a
    bidder changed, a deal deleted."""
    from django.core.cache import cache

    _, _, matches = sized_league(2, 3)
    url = "/api/v1/tournaments/sized-cup/statistics/"
    as_user(api, organizer)
    first, second = matches[0], matches[1]

    def bidder(match, declarer: str) -> str:
        team = match.team_a if declarer == "A" else match.team_b
        return team.players.order_by("position").first().name

    def whole() -> dict:
        cache.clear()
        return api.get(url).json()

    def check() -> None:
        kept = api.get(url).json()
        assert kept == whole()
        api.get(url)  # every part kept again for the next write

    def deal(match, number: int, declarer: str, value: int, taken: int, **extra):
        body = deal_body(number, declarer, value, taken=taken)
        del body["number"]
        services.score_sheet_deal_replace(
            match_id=match.pk, number=number, user=organizer, version=None,
            **{"bidder": bidder(match, declarer), **body, **extra},
        )  # fmt: skip

    check()
    start = api.get(url).json()["deals"]
    for number in range(1, 4):
        for match in (first, second):
            declarer = "A" if number % 2 else "B"
            deal(match, number, declarer, 28 + 8 * number, 40 - number)
            check()
    services.score_sheet_penalty_record(
        match_id=first.pk, user=organizer, version=None, deal=2, offender="A",
        kind="kallakali", by_organizer=True,
    )  # fmt: skip
    check()
    deal(second, 2, "B", 56, 56, bidder="")
    check()
    services.score_sheet_deal_delete(
        match_id=second.pk, number=3, user=organizer, version=None
    )
    check()
    body = api.get(url).json()
    assert body["deals"] == start - 1
    assert any(r["kind"] == "most_56_made_team" for r in body["records"])


def test_the_json_joined_from_each_teams_rows_is_the_document_rendered_whole(
    api, organizer
):
    """The API joins each team's rows as rendered for its part: byte for byte what
    DRF renders of the whole document, names with quotes, Malayalam and a line
    separator included."""
    from rest_framework.renderers import JSONRenderer

    from scoring.statistics.apis import statistics_data, statistics_json
    from scoring.statistics.selectors import statistics_parts
    from tournament.models import Team, Tournament

    _, _, matches = sized_league(2, 3)
    Team.objects.filter(pk=matches[0].team_a_id).update(name='Aces "one"\u2028ആസ്')
    tournament = Tournament.objects.get(slug="sized-cup")
    found, names, keys = statistics_parts(tournament=tournament)
    whole = JSONRenderer().render(statistics_data(found, names))
    assert statistics_json(found, names, keys) == whole
    assert b"\\u2028" in whole
    assert statistics_json(found, names, keys) == whole  # from the rows kept


@pytest.mark.parametrize(
    ("part", "whole", "said"),
    [
        (6, 1911, "<1"),
        (0, 1911, "0"),
        (0, 0, "0"),
        (1905, 1911, ">99"),
        (1911, 1911, "100"),
        (20, 1911, "1"),
        (955, 1911, "50"),
        (1, 3, "33"),
    ],
)
def test_a_share_never_rounds_a_few_to_none(part, whole, said):
    """Issue 52: "6 of 1,911 deals with their bidder (0%)"."""
    from scoring.statistics.views import share

    assert share(part, whole) == said
