"""Every time a tournament's pages, live parts and workbook show is in the
tournament's own zone, with the zone named (issue 41, point 15): a tournament in New
Jersey reads New York time (EST), in English and in Malayalam, whatever the site's
zone; the workbook, built with no request, converts too."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import Dispute, Match, SheetChange
from scoring.sheets import day
from tests.scoring.excel import table, workbook
from tests.scoring.league import confirm, link_key, play_quickly, tables_in_play
from tournament.domain.types import Role
from tournament.domain.zones import zone, zone_abbreviation
from tournament.models import Team, Tournament

pytestmark = pytest.mark.django_db

ZONE = "America/New_York"
# 16:37 UTC on 26 November is 11:37 in New York (EST, UTC-5): the server's UTC clock
# (or a site in Dubai) must not show through.
CHECKED_IN = datetime(2026, 11, 26, 16, 37, tzinfo=UTC)
CONFIRMED = datetime(2026, 11, 26, 17, 40, tzinfo=UTC)
RAISED = datetime(2026, 11, 26, 18, 2, tzinfo=UTC)
LANGUAGES = ["en", "ml"]


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", response.content.decode())


def shows(page: str, iso: str, said: str) -> None:
    """The page has this moment as a <time> in New York time, named."""
    assert f'<time datetime="{iso}" title="{ZONE}">{said}</time>' in page, said


@pytest.fixture
def new_jersey(settings):
    settings.TIME_ZONE = "Asia/Dubai"  # the site's zone is not the tournament's
    tournament, organizer, teams, matches = tables_in_play(
        "nj-open", tables=2, deals=4, check_in_required=True, time_zone=ZONE
    )
    Team.objects.filter(pk=teams[0].pk).update(checked_in_at=CHECKED_IN)
    first, second = matches
    play_quickly(first.pk, organizer, 12, 5, deals=4)
    api = APIClient()
    api.force_authenticate(organizer)
    confirm(api, first.pk)
    Match.objects.filter(pk=first.pk).update(confirmed_at=CONFIRMED)
    day.score_sheet_dispute_raise(
        match_id=second.pk,
        user=organizer,
        text="Wrong table",
        roles=frozenset({Role.ORGANIZER}),
        sides=frozenset(),
    )
    Dispute.objects.filter(match=second).update(raised_at=RAISED)
    client = Client()
    client.force_login(organizer)
    return tournament, organizer, teams, (first, second), client


@pytest.mark.parametrize("language", LANGUAGES)
def test_check_in_history_confirmation_and_disputes_read_new_york_time(
    new_jersey, language
):
    tournament, _organizer, teams, (first, second), client = new_jersey
    get = lambda url: text(client.get(url, HTTP_ACCEPT_LANGUAGE=language))  # noqa: E731

    registration = get(f"/t/{tournament.slug}/registration/")
    shows(registration, "2026-11-26T11:37:00-05:00", "11:37 EST")
    assert "16:37" not in registration and "20:37" not in registration

    match = get(f"/matches/{first.pk}/")
    # The history is kept as written: its last line's own moment, in New York.
    at = SheetChange.objects.filter(match=first).last().at.astimezone(zone(ZONE))
    assert re.search(
        f'<time datetime="{at.isoformat(timespec="seconds")}" title="{ZONE}">'
        rf"{at.day} \S+ {at:%H:%M:%S} {zone_abbreviation(at)}</time>",
        match,
    )
    assert re.search(
        r'<time datetime="2026-11-26T12:40:00-05:00" title="America/New_York">'
        r"26 \S+ 2026, 12:40 EST</time>",
        match,
    )
    assert "17:40" not in match

    disputed = get(f"/matches/{second.pk}/")
    assert re.search(r"26 \S+ 13:02 EST</time>", disputed)

    team_page = get(f"/l/{link_key(tournament, team=teams[0])}/")
    shows(team_page, "2026-11-26T11:37:00-05:00", "11:37 EST")
    opponent = get(f"/l/{link_key(tournament, team=teams[3])}/")
    shows(opponent, "2026-11-26T13:02:00-05:00", "13:02 EST")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_live_clocks_tell_new_york_time_named(new_jersey, language):
    tournament, *_rest, client = new_jersey
    clock = re.compile(
        r'<time datetime="[-0-9T:]+-0[45]:00" title="America/New_York">'
        r"\d\d:\d\d:\d\d E[SD]T</time>"
    )
    for url in (
        f"/t/{tournament.slug}/desk/",
        f"/t/{tournament.slug}/standings/",
    ):
        page = text(client.get(url, HTTP_ACCEPT_LANGUAGE=language))
        assert clock.search(page), url
        partial = text(
            client.get(url, HTTP_ACCEPT_LANGUAGE=language, HTTP_HX_REQUEST="true")
        )
        assert clock.search(partial), url


def test_the_live_parts_etag_changes_with_the_zone(new_jersey):
    tournament, _organizer, _teams, (first, _second), client = new_jersey
    url = f"/matches/{first.pk}/"
    poll = {"HTTP_HX_REQUEST": "true"}
    before = client.get(url, **poll)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=before, **poll).status_code == 304
    Tournament.objects.filter(pk=tournament.pk).update(time_zone="Asia/Kolkata")
    after = client.get(url, HTTP_IF_NONE_MATCH=before, **poll)
    assert after.status_code == 200
    assert after["ETag"] != before
    assert re.search(r"26 \S+ 2026, 23:10 IST</time>", text(after))  # 17:40 UTC


def test_the_score_pages_last_saved_is_told_in_the_tournaments_zone(new_jersey):
    _tournament, _organizer, _teams, (_first, second), client = new_jersey
    page = text(client.get(f"/matches/{second.pk}/score/"))
    assert 'data-time-zone="America/New_York"' in page
    assert re.search(r'data-zone-label="E[SD]T"', page)


def test_an_invitation_tells_its_expiry_in_the_tournaments_zone(new_jersey):
    from tournament.accounts import services as people_services

    tournament, organizer, *_rest = new_jersey
    made = people_services.invitation_create(
        tournament=tournament, user=organizer, role="scorer"
    )
    # Ten years on (a fixed time of today's date would expire it by the afternoon).
    expires = CHECKED_IN.replace(year=CHECKED_IN.year + 10)
    made.invitation.__class__.objects.filter(pk=made.invitation.pk).update(
        expires_at=expires
    )
    page = text(Client().get(f"/invitations/{made.key}/"))
    assert re.search(r"26 \S+ 2036 11:37 EST", page), page


def test_the_workbook_tells_new_york_time_and_names_the_zone(new_jersey):
    tournament, organizer, *_rest = new_jersey
    api = APIClient()
    api.force_authenticate(organizer)
    answer = api.get(f"/api/v1/tournaments/{tournament.slug}/export.xlsx")
    assert answer.status_code == 200
    book = workbook(answer.content)
    for ws in book.worksheets:
        assert ws["A3"].value == "Time zone"
        assert re.fullmatch(r"America/New_York \(E[SD]T\)", ws["B3"].value)
    draw = table(book, "Draw")
    confirmed = [r["Confirmed at"] for r in draw if r["Confirmed at"]]
    assert confirmed == [datetime(2026, 11, 26, 12, 40)]
    events = table(book, "Tournament day")
    assert [r["When"] for r in events if r["What"] == "Dispute"] == [
        datetime(2026, 11, 26, 13, 2)
    ]


@pytest.mark.parametrize(
    ("language", "there", "zone"),
    [
        ("en", "there now", "New York (America)"),
        ("ml", "അവിടെ ഇപ്പോൾ", "New York (അമേരിക്ക)"),
    ],
)
def test_the_overview_names_the_zone_and_its_time_now(
    new_jersey, language, there, zone
):
    tournament, *_rest = new_jersey
    page = text(Client().get(f"/t/{tournament.slug}/", HTTP_ACCEPT_LANGUAGE=language))
    # As a person reads it, not the code "America/New_York".
    zone_line = re.search(rf"<dd>{re.escape(zone)}, .*?</dd>", page).group(0)
    assert re.search(r"<time [^>]*>\d\d:\d\d E[SD]T</time>", zone_line)
    assert there in zone_line
