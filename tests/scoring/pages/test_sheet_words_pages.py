"""What a sheet's pages say after a penalty, a dispute and a ruling, in English and
Malayalam (issue 50): an awarded deal names its penalty in the page's language, a
penalty's message says what the team's total really gains, a dispute that withdraws
a captain's confirmation says so to both captains and in the history, and the
history tells a doubled deal from a plain one."""

import re

import pytest
from django.test import Client

from scoring.models import Match
from scoring.sheets import services
from tests.scoring.conftest import deal_body

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def version(match) -> int:
    return Match.objects.get(pk=match.pk).version


def deal(match, user, number, **values) -> None:
    services.score_sheet_deal_record(
        match_id=match.pk,
        user=user,
        version=version(match),
        **deal_body(number, **values),
    )


def penalty(client, match, number, offender, kind) -> str:
    """A penalty entered on the score page; the page's answer."""
    answer = client.post(
        f"/matches/{match.pk}/score/",
        {
            "action": "penalty",
            "penalty-deal": number,
            "penalty-offender": offender,
            "penalty-kind": kind,
            "penalty-version": version(match),
        },
        **HTMX,
    )
    assert answer.status_code == 200
    return text(answer)


@pytest.fixture
def scoring(scorer, match):
    client = Client()
    client.force_login(scorer)
    return client


@pytest.mark.parametrize(
    ("language", "awarded", "raw"),
    [
        ("en", "given to B (Kallakali)", "(kallakali)"),
        ("ml", "B ന് നൽകി (കള്ളക്കളി)", "(kallakali)"),
    ],
)
def test_an_awarded_deal_names_its_penalty_in_the_pages_language(
    scoring, match, organizer, language, awarded, raw
):
    deal(match, organizer, 1)  # A 40 clubs, made
    penalty(scoring, match, 1, "A", "kallakali")
    client = Client()
    client.cookies["django_language"] = language
    page = text(client.get(f"/matches/{match.pk}/"))
    sheet = page[page.index('id="sheet"') :]
    assert awarded in sheet
    assert raw not in sheet and "cardinal rule" not in sheet


@pytest.mark.parametrize(
    ("language", "turned", "kept"),
    [
        (
            "en",
            "Penalty saved: B receives the deal (3) and 3 penalty points: 6. "
            "A no longer has the deal&#x27;s 2.",
            "Penalty saved: B has the deal (3) and receives 3 penalty points.",
        ),
        (
            "ml",
            "പിഴ സേവ് ചെയ്തു: B-ന് കളിയും (3) 3 പിഴ പോയിന്റും കിട്ടുന്നു: ആകെ 6. "
            "കളിയുടെ 2 ഇനി A-ന് ഇല്ല.",
            "പിഴ സേവ് ചെയ്തു: കളി (3) B-ന്റേതാണ്; 3 പിഴ പോയിന്റും B-ന് കിട്ടുന്നു.",
        ),
    ],
)
def test_a_kallakali_says_what_the_team_really_receives(
    scoring, match, organizer, language, turned, kept
):
    """B's total moves by the deal and the 3 points when the deal changes hands; by
    the 3 points alone when the deal was B's already (A's contract defeated)."""
    deal(match, organizer, 1)  # A 40 clubs, made: A 2
    deal(match, organizer, 2, taken=30)  # defeated: B 3
    scoring.cookies["django_language"] = language
    before = Match.objects.get(pk=match.pk)
    assert turned in penalty(scoring, match, 1, "A", "kallakali")
    after = Match.objects.get(pk=match.pk)
    assert (after.total_a - before.total_a, after.total_b - before.total_b) == (-2, 6)
    assert kept in penalty(scoring, match, 2, "A", "kallakali")
    assert Match.objects.get(pk=match.pk).total_b == after.total_b + 3


@pytest.mark.parametrize(
    ("language", "mine", "line", "history"),
    [
        (
            "en",
            "Your confirmation for A was withdrawn by dispute {n}: the sheet is no "
            "longer confirmed by you. When an organizer has ruled on the dispute, "
            "confirm the sheet again.",
            "A · Edison Aces: not confirmed: dispute {n} withdrew its confirmation",
            "Confirmation of A withdrawn by dispute {n}: A confirms again",
        ),
        (
            "ml",
            "A-നായുള്ള നിങ്ങളുടെ ഉറപ്പിക്കൽ തർക്കം {n} പിൻവലിച്ചു",
            "A · Edison Aces: ഉറപ്പിച്ചിട്ടില്ല: തർക്കം {n} ഇവരുടെ ഉറപ്പിക്കൽ പിൻവലിച്ചു",
            "A-ന്റെ ഉറപ്പിക്കൽ തർക്കം {n} പിൻവലിച്ചു: A വീണ്ടും ഉറപ്പിക്കണം",
        ),
    ],
)
def test_a_dispute_that_withdraws_a_confirmation_says_so_to_both_captains(
    match, organizer, captain, away_captain, language, mine, line, history
):
    for number in range(1, 19):
        deal(match, organizer, number)
    first, second = Client(), Client()
    first.force_login(captain)  # A's
    second.force_login(away_captain)  # B's
    for client in (first, second):
        client.cookies["django_language"] = language
    confirmed = first.post(
        f"/matches/{match.pk}/", {"action": "confirm", "version": version(match)}
    )
    assert confirmed.status_code == 302
    page = text(first.get(f"/matches/{match.pk}/"))
    assert "withdrew" not in page and "പിൻവലിച്ചു" not in page
    raised = second.post(
        f"/matches/{match.pk}/",
        {"action": "dispute", "deal": 3, "text": "deal 3 was doubled"},
    )
    assert raised.status_code == 302
    n = match.disputes.get().pk
    page = text(first.get(f"/matches/{match.pk}/"))
    assert mine.format(n=n) in page
    assert line.format(n=n) in page
    said = page[page.index('class="panel history"') :]
    assert history.format(n=n) in said
    # The other captain sees it too, without the words meant for A's captain.
    page = text(second.get(f"/matches/{match.pk}/"))
    assert line.format(n=n) in page
    assert mine.format(n=n) not in page
    assert history.format(n=n) in page[page.index('class="panel history"') :]


@pytest.mark.parametrize(
    ("language", "changed", "plain"),
    [
        (
            "en",
            "Deal changed, deal 1: A 40 Clubs doubled, took 40",
            "Deal added, deal 1: A 40 Clubs, took 40",
        ),
        (
            "ml",
            "കളി 1: A 40 ക്ലാവർ ഡബിൾ, പിടിച്ചത് 40",
            "കളി 1: A 40 ക്ലാവർ, പിടിച്ചത് 40",
        ),
    ],
)
def test_the_history_tells_a_doubled_deal_from_the_plain_one(
    match, organizer, language, changed, plain
):
    """A ruling that doubles a deal is a change of the deal: the history says the
    level it changed to."""
    deal(match, organizer, 1)
    services.score_sheet_deal_replace(
        match_id=match.pk,
        user=organizer,
        version=version(match),
        **deal_body(1, level="doubled"),
    )
    client = Client()
    client.cookies["django_language"] = language
    page = text(client.get(f"/matches/{match.pk}/"))
    history = page[page.index('class="panel history"') :]
    assert changed in history
    assert plain in history  # the deal as first entered
