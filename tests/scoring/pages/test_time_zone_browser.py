"""The score page's "last saved" in a real browser (Debian's chromium): told in the
tournament's zone and named, not in the phone's (issue 41, point 15). A phone set
to Dubai scores at a table in New Jersey: it reads New York time, in English and in
Malayalam, at a phone's size and a desk's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.browser import DESK, PHONE
from tests.scoring.league import link_key, tables_in_play
from tournament.domain.zones import zone, zone_abbreviation

pytestmark = pytest.mark.django_db(transaction=True)

# 16:37:05 UTC is 11:37:05 in New York in winter, 20:37:05 in Dubai.
SAVED_AT = datetime(2026, 11, 26, 16, 37, 5, tzinfo=UTC)


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["phone", "desk"])
def test_last_saved_is_new_york_time_on_a_phone_set_to_dubai(
    browser, live_server, viewport
):
    tournament, _organizer, _teams, (match, _other) = tables_in_play(
        "nj-cup", tables=2, deals=4, time_zone="America/New_York"
    )
    key = link_key(tournament, table=1)
    named = zone_abbreviation(SAVED_AT.astimezone(zone("America/New_York")))
    assert named == "EST"
    for language, said in (("en", "last saved"), ("ml", "അവസാനം സേവ് ചെയ്തത്")):
        context = browser.new_context(
            viewport=viewport, timezone_id="Asia/Dubai", locale=language
        )
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/l/{key}/")
        page.evaluate(
            f"localStorage.setItem('fiftysix-saved-{match.pk}', "
            f"'{int(SAVED_AT.timestamp() * 1000)}')"
        )
        page.reload()
        line = page.locator("#net-status .saved")
        line.filter(has_text="11:37:05 EST").wait_for(timeout=10000)
        shown = line.inner_text()
        assert "20:37" not in shown and "AM" not in shown and "PM" not in shown
        assert said in shown
        context.close()
