"""The pages a scorer uses all day say nothing wrong in the browser's console (issue
52: every preview of a deal logged an htmx error, as the preview inherited the deal
form's hx-disabled-elt and found no button of its own to disable)."""

import pytest

from tests.browser import PHONE, fill_deal, log_in, save_deal
from tests.scoring.league import link_key, tables_in_play


def _console(page) -> list[tuple[str, str]]:
    said: list[tuple[str, str]] = []
    page.on(
        "console",
        lambda m: (
            said.append((m.type, m.text)) if m.type in ("error", "warning") else 0
        ),
    )
    page.on("pageerror", lambda e: said.append(("pageerror", str(e))))
    return said


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_deal_previewed_and_saved_logs_no_error(browser, live_server, language):
    tournament, organizer, _, (match, *_) = tables_in_play("quiet", tables=1, deals=4)
    page = log_in(browser, live_server, organizer, viewport=PHONE)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    said = _console(page)
    page.goto(f"{live_server.url}/matches/{match.pk}/score/")
    fill_deal(page, "A", 30, "hearts", "none", 32)
    page.locator("#preview").filter(has_text="30").wait_for()
    save_deal(page, 1)
    # The table's link, where the same form is used without a login.
    link = browser.new_context(viewport=PHONE).new_page()
    said_by_link = _console(link)
    link.goto(f"{live_server.url}/l/{link_key(tournament, table=1)}/sheets/{match.pk}/")
    assert link.input_value("#id_number") == "2"
    fill_deal(link, "B", 28, "spades", "none", 30)
    link.locator("#preview").filter(has_text="28").wait_for()
    assert said == [] and said_by_link == []
