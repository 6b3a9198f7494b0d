"""A scorer with no mouse and no touch: the score page is reached, filled and saved
with the keyboard alone (Tab, arrows, Space, typing, Enter), in Debian's chromium."""

from __future__ import annotations

import pytest

from scoring.models import Deal
from tests.browser import DESK, log_in
from tests.factories import member
from tests.scoring.league import tables_in_play
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db(transaction=True)

FOCUSED = "() => document.activeElement && (document.activeElement.id || '')"
FOCUSED_RADIO = (
    "() => document.activeElement && document.activeElement.type === 'radio'"
    " ? document.activeElement.name + '=' + document.activeElement.value : ''"
)


def _tab_to(page, element_id: str, most: int = 80) -> int:
    """Tab from where the focus is until it reaches `element_id`; the presses taken."""
    for presses in range(1, most + 1):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == element_id:
            return presses
    raise AssertionError(f"#{element_id} is not reached by Tab in {most} presses")


def test_a_deal_is_entered_with_the_keyboard_alone(browser, live_server):
    tournament, _, _, matches = tables_in_play("keys-cup", tables=1, deals=18)
    match = matches[0]
    scorer = member(tournament, Role.SCORER, "keys-scorer")
    page = log_in(browser, live_server, scorer, viewport=DESK)
    page.goto(f"{live_server.url}/matches/{match.pk}/score/")
    page.locator("#deal-form").wait_for()

    _tab_to(page, "id_value")
    page.keyboard.type("40")
    # The declarer: Tab enters the group on its first side, Space chooses it.
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_RADIO) == "declarer=A"
    page.keyboard.press("Space")
    # The trump: the arrows move through the suits and choose as they go.
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_RADIO) == "trump=clubs"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED_RADIO) == "trump=hearts"
    # The level: Tab lands on the one chosen (none), which stays.
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_RADIO) == "level=none"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "id_taken"
    page.keyboard.type("44")
    # The focus ring is drawn on the field (never hidden by the chips' styles).
    outline = page.evaluate(
        "() => getComputedStyle(document.activeElement).outlineStyle"
    )
    assert outline != "none"
    page.keyboard.press("Enter")
    page.locator("#deal-1").wait_for()

    deal = Deal.objects.get(match=match, number=1)
    assert (deal.declarer, deal.value, deal.trump, deal.level, deal.taken) == (
        "A",
        40,
        "hearts",
        "none",
        44,
    )
