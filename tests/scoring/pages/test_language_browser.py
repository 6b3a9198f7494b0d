"""A scorer switches the score page to Malayalam and enters a deal (Debian's
chromium; docs/glossary.md): the switcher, the scorer's own words, and the same
deal saved."""

from __future__ import annotations

import pytest

from scoring.models import Deal
from tests.browser import fill_deal, log_in, save_deal, shoot
from tests.factories import member
from tests.scoring.league import tables_in_play
from tournament.domain.types import Role
from tournament.models import LanguagePreference

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_scorer_enters_a_deal_in_malayalam(browser, live_server):
    tournament, _, _, matches = tables_in_play("ml-cup", tables=1, deals=18)
    match = matches[0]
    scorer = member(tournament, Role.SCORER, "ml-scorer")
    page = log_in(browser, live_server, scorer)
    page.goto(f"{live_server.url}/matches/{match.pk}/score/")
    page.click("form.languages button[value=ml]")
    page.wait_for_selector("html[lang=ml]")
    assert page.locator("#deal-form button.save").inner_text() == "കളി സേവ് ചെയ്യുക"
    assert page.locator("label[for=id_value]").inner_text() == "വിളി"
    fill_deal(page, "A", 40, "clubs", "none", 44)
    shoot(page, "score-phone-ml")
    save_deal(page, 1)
    assert Deal.objects.get(match=match, number=1).taken == 44
    assert LanguagePreference.objects.get(user=scorer).language == "ml"
    # Back to English with the same switcher.
    page.click("form.languages button[value=en]")
    page.wait_for_selector("html[lang=en]")
    assert page.locator("#deal-form button.save").inner_text() == "Save deal"
