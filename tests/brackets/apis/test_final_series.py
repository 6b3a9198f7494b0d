"""The final's series at one table (RULES.md §6): its games follow each other at
the first game's table, and that table's link (page and API) reaches each game in
turn; no other table is given to it."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from brackets.models import Game, KnockoutMatch
from scoring.models import Match
from tests.brackets.knockout import bracket, final_league, matches_of, play_sheet
from tests.conftest import as_user
from tests.scoring.league import confirm, link_key

pytestmark = pytest.mark.django_db

SLUG = "series-cup"


def _by_link(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Link {key}")
    return client


def _final(api) -> dict:
    return next(
        m for m in matches_of(bracket(api, SLUG)).values() if m["kind"] == "final"
    )


def test_the_finals_games_are_played_at_the_first_games_table_and_its_link_follows(
    api,
):
    tournament, organizer = final_league(2, 3, qualifiers=4, slug=SLUG)
    as_user(api, organizer)
    assert (
        api.post(f"/api/v1/tournaments/{SLUG}/knockout/", {}, "json").status_code == 201
    )
    assert api.get(f"/api/v1/tournaments/{SLUG}/links/").status_code == 200
    for m in matches_of(bracket(api, SLUG)).values():  # the semi-finals
        if m["status"] == "scheduled":
            play_sheet(api, m["match"], 14, 10, 24)
            confirm(api, m["match"])
    final = _final(api)
    first = Match.objects.get(pk=final["match"])
    table = first.table
    key = link_key(tournament, table=table)
    by_link, page = _by_link(key), Client()

    # Game 1 won by A; game 2 opens at the same table, and the link reaches it.
    play_sheet(api, first.pk, 10, 8, 18)
    confirm(api, first.pk)
    final = _final(api)
    second = Match.objects.get(pk=final["match"])
    assert [g["number"] for g in final["games"]] == [1, 2]
    assert (second.round, second.table) == (first.round, table)
    shown = page.get(f"/l/{key}/").content.decode()
    assert "Final, game 2" in shown and 'id="deal-form"' in shown
    assert "opens here when the organizer releases it" not in shown
    # The link scores it (the API), and once every deal is in (not confirmed yet)
    # its page still opens game 2, not game 1.
    sheet = play_sheet(by_link, second.pk, 8, 10, 18)
    assert (sheet["status"], sheet["winner"]) == ("completed", "B")
    shown = page.get(f"/l/{key}/").content.decode()
    assert "Final, game 2" in shown and "Final, game 1" not in shown
    confirm(api, second.pk)

    # Game 3 at the same table too.
    final = _final(api)
    third = Match.objects.get(pk=final["match"])
    assert [g["number"] for g in final["games"]] == [1, 2, 3]
    assert third.table == table
    play_sheet(by_link, third.pk, 12, 9, 18)
    confirm(api, third.pk)
    games = Game.objects.filter(knockout_match__kind="final").select_related("sheet")
    assert {g.sheet.table for g in games} == {table}
    assert KnockoutMatch.objects.get(kind="final").winner
    # The other knockout tables never held the final.
    others = Match.objects.filter(tournament=tournament, stage="knockout").exclude(
        table=table
    )
    assert not others.filter(pk__in=[g.sheet_id for g in games]).exists()


@pytest.mark.parametrize(
    ("language", "final", "third"),
    [
        ("en", "Final, game {}: ", "Second runner-up match: "),
        ("ml", "ഫൈനൽ, ഗെയിം {}: ", "രണ്ടാം റണ്ണർ-അപ്പ് മത്സരം: "),
    ],
)
def test_the_links_tab_names_the_match_each_table_plays(api, language, final, third):
    """Issue 52's walk: both tables of the final's round read "Final and second
    runner-up match"; each names its own match, the final's game by its number."""
    _, organizer = final_league(2, 3, qualifiers=4, slug=SLUG)
    as_user(api, organizer)
    api.post(f"/api/v1/tournaments/{SLUG}/knockout/", {}, "json")
    for m in matches_of(bracket(api, SLUG)).values():  # the semi-finals
        if m["status"] == "scheduled":
            play_sheet(api, m["match"], 14, 10, 24)
            confirm(api, m["match"])
    first = Match.objects.get(pk=_final(api)["match"])
    client = Client()
    client.force_login(organizer)
    client.cookies["django_language"] = language
    page = client.get(f"/t/{SLUG}/links/").content.decode()
    assert page.count(final.format(1)) == 1 and page.count(third) == 1
    play_sheet(api, first.pk, 10, 8, 18)
    confirm(api, first.pk)
    page = client.get(f"/t/{SLUG}/links/").content.decode()
    assert page.count(final.format(2)) == 1 and final.format(1) not in page
