"""What the browser tests do the way a user does: log in, and enter a deal on the score
page by taps (Debian's chromium through Playwright; the `browser` fixture is in
tests/conftest.py)."""

from pathlib import Path

PHONE = {"width": 390, "height": 844}
# A small phone of issue 50: every page fits it too, in both languages.
SMALL_PHONE = {"width": 360, "height": 780}
DESK = {"width": 1280, "height": 900}


def log_in(browser, live_server, user, viewport=PHONE):
    """A new browser context for `user`, logged in through the login page."""
    user.set_password("browser-56")
    user.save(update_fields=["password"])
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "browser-56")
    page.click("main form button")
    page.wait_for_url(f"{live_server.url}/")
    return page


def tap(page, name, value):
    page.click(f"#deal-form label.chip:has(input[name={name}][value={value}])")


def fill_deal(page, declarer, value, trump, level, taken):
    """The score page's deal form, filled by taps and typing, not yet saved."""
    page.fill("#id_value", str(value))
    tap(page, "declarer", declarer)
    tap(page, "trump", trump)
    tap(page, "level", level)
    page.fill("#id_taken", str(taken))


def fill_deal_body(page, body: dict) -> None:
    """fill_deal with a deal's API body (declarer, value, trump, level, taken)."""
    fill_deal(
        page,
        body["declarer"],
        body["value"],
        body["trump"],
        body["level"],
        body["taken"],
    )


def save_deal(page, number):
    page.click("#deal-form button.save")
    page.locator(f"#deal-{number}").wait_for()


SCREENS = Path(__file__).resolve().parents[1] / "artifacts" / "screens"


def shoot(page, name: str) -> None:
    """A full-page screenshot kept in artifacts/screens/ (not committed), to look at."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)
