"""The score-entry page as a scorer at a card table uses it (htmx and plain POST), the
read-only match page with its confirmation, and a tournament's matches."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.models import Deal, Match, Penalty
from scoring.sheets import services
from tests.scoring.apis.test_sheet import HAND_CHECKED
from tests.scoring.conftest import deal_body

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def client():
    return Client()


@pytest.fixture
def scoring(client, scorer, match):
    client.force_login(scorer)
    return client


def score_url(match):
    return f"/matches/{match.pk}/score/"


def version(match):
    return Match.objects.get(pk=match.pk).version


def enter(client, match, number, declarer, value, trump, level, taken, **extra):
    body = {
        "action": "deal",
        "number": number,
        "declarer": declarer,
        "value": value,
        "trump": trump,
        "level": level,
        "taken": taken,
        "version": version(match),
        **extra,
    }
    return client.post(score_url(match), body, **HTMX)


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


def test_a_scorer_fills_a_whole_18_deal_match_from_the_page(scoring, match):
    page = text(scoring.get(score_url(match)))
    assert 'name="number" value="1"' in page  # the next deal is offered
    for number, (row, (side, points)) in enumerate(HAND_CHECKED, 1):
        response = enter(scoring, match, number, *row)
        assert response.status_code == 200
        page = text(response)
        assert f"Deal {number} saved" in page, page[:500]
        assert f"{side} (" in page and f"receives {points}" in page
    answer = scoring.post(
        score_url(match),
        {
            "action": "penalty",
            "penalty-deal": 9,
            "penalty-offender": "A",
            "penalty-kind": "kallakali",
            "penalty-version": version(match),
        },
        **HTMX,
    )
    page = text(answer)
    # Deal 9 (A 40 clubs, made: A 2) turns over: B receives it defeated (3) and 3.
    assert (
        "Penalty saved: B receives the deal (3) and 3 penalty points: 6. A no "
        "longer has the deal&#x27;s 2." in page
    )
    stored = Match.objects.get(pk=match.pk)
    # The hand-checked sheet without its three out_of_turn rows: 22 - 31.
    assert (stored.total_a, stored.total_b, stored.status) == (22, 31, "completed")
    assert "after 6: <b>8–9</b>" in page
    assert "after 12: <b>15–23</b>" in page
    assert "after 18: <b>22–31</b>" in page
    assert "After 6 deals: A 8 · B 9" in page
    # Announced after every sixth deal and each of the last six (000 §5.3).
    announced = [6, 12, 13, 14, 15, 16, 17, 18]
    assert [int(n) for n in re.findall(r"after (\d+): <b>", page)] == announced
    assert [int(n) for n in re.findall(r"After (\d+) deals: A", page)] == announced
    assert "after 7:" not in page and "after 11:" not in page
    assert "Every deal is on the sheet" in page


ANNOUNCED_18 = [6, 12, 13, 14, 15, 16, 17, 18]  # 000 §5.3, rules.md §4


@pytest.mark.parametrize(
    ("language", "after", "legend"),
    [
        ("en", r"After (\d+) deals: A", "A thick line under a deal: announce both"),
        ("ml", r"(\d+) കളികൾക്ക് ശേഷം: A", "കട്ടിയുള്ള വരയ്ക്ക് മുകളിലെ കളിക്ക് ശേഷം"),
    ],
)
def test_the_totals_are_announced_after_every_sixth_and_each_of_the_last_six(
    client, match, organizer, language, after, legend
):
    """The score page, the match page and the printed sheet mark the same deals."""
    for number, (row, _) in enumerate(HAND_CHECKED, 1):
        services.score_sheet_deal_record(
            match_id=match.pk,
            user=organizer,
            version=None,
            **deal_body(number, *row),
        )
    client.force_login(organizer)
    lang = {"HTTP_ACCEPT_LANGUAGE": language}
    for url in (score_url(match), f"/matches/{match.pk}/"):
        page = text(client.get(url, **lang))
        assert f'lang="{language}"' in page
        assert [int(n) for n in re.findall(after, page)] == ANNOUNCED_18, url
    scoreboard = text(client.get(score_url(match), **lang))
    (line,) = re.findall(r'<p class="checkpoints">(.*?)</p>', scoreboard)
    numbers = re.findall(r"<span>\D*?(\d+)\D*?: <b>", line)
    assert [int(n) for n in numbers] == ANNOUNCED_18
    printed = text(client.get(f"/matches/{match.pk}/print/", **lang))
    marked = re.findall(r'<tr class=" checkpoint"> <th>(\d+)</th>', printed)
    assert [int(n) for n in marked] == ANNOUNCED_18
    assert legend in printed


def test_bad_input_is_shown_next_to_the_field_and_saves_nothing(scoring, match):
    response = enter(scoring, match, 19, "A", 57, "clubs", "none", 60)
    page = text(response)
    assert "outside this match: it has deals 1 to 18" in page
    assert "a contract is 28 to 56; 57 cannot be bid" in page
    assert "taken must be 0 to 56, not 60" in page
    response = scoring.post(score_url(match), {"action": "deal", "version": 1}, **HTMX)
    page = text(response)
    assert "Choose the team that won the bidding." in page
    assert "Enter the contract value, 28 to 56." in page
    assert "Choose the trump" in page
    assert Deal.objects.count() == 0 and version(match) == 1


def test_a_stale_page_keeps_the_input_and_shows_the_other_scorers_deal(
    scoring, match, organizer
):
    services.score_sheet_deal_record(
        match_id=match.pk, user=organizer, version=1, **deal_body(1)
    )
    body = {
        "action": "deal",
        "number": 2,
        "declarer": "B",
        "value": 44,
        "trump": "hearts",
        "level": "none",
        "taken": 50,
        "version": 1,
    }
    response = scoring.post(score_url(match), body, **HTMX)
    page = text(response)
    assert "Another scorer changed this sheet" in page
    assert 'id="deal-1"' in page  # the other scorer's deal is shown
    assert 'name="value" value="44"' in page  # the input is kept
    assert 'name="version" value="2"' in page  # ready to save again
    assert Deal.objects.count() == 1
    response = scoring.post(score_url(match), {**body, "version": 2}, **HTMX)
    assert "Deal 2 saved" in text(response)


def test_a_deal_sent_twice_from_a_flaky_phone_is_saved_once(scoring, match):
    """The page posted, the answer was lost, the scorer taps Save again with the same
    form (its version now stale): the deal is there once, and the page says so."""
    body = {
        "action": "deal",
        "number": 1,
        "declarer": "A",
        "value": 40,
        "trump": "hearts",
        "level": "none",
        "taken": 44,
        "version": 1,
    }
    assert "Deal 1 saved" in text(scoring.post(score_url(match), body, **HTMX))
    again = scoring.post(score_url(match), body, **HTMX)
    assert again.status_code == 200
    page = text(again)
    assert "Deal 1 was saved already" in page
    assert 'name="number" value="2"' in page  # on to the next deal
    assert Deal.objects.filter(match=match).count() == 1
    assert version(match) == 2


def test_edit_replace_and_delete_a_deal(scoring, match):
    enter(scoring, match, 1, "A", 40, "clubs", "none", 40)
    page = text(scoring.get(score_url(match) + "?edit=1", **HTMX))
    assert 'name="replacing" value="1"' in page and "Delete deal 1" in page
    response = enter(scoring, match, 1, "A", 40, "clubs", "doubled", 30, replacing=1)
    assert "Deal 1 is changed: 40 ♣ × defeated, B (Chicago Jacks) receives 4" in text(
        response
    )
    response = scoring.post(
        score_url(match),
        {"action": "delete", "number": 1, "version": version(match)},
        **HTMX,
    )
    assert "Deal 1 is deleted" in text(response)
    assert Deal.objects.count() == 0


def test_without_htmx_the_forms_post_and_redirect(scoring, match):
    body = {**deal_body(1), "action": "deal", "version": 1}
    response = scoring.post(score_url(match), body)
    assert response.status_code == 302
    page = text(scoring.get(score_url(match)))
    assert "Deal 1 saved" in page
    response = scoring.post(score_url(match), {**body, "value": 27, "version": 2})
    assert response.status_code == 400 and "27 cannot be bid" in text(response)


def test_the_preview_says_what_a_deal_gives_before_saving(scoring, match):
    url = f"/matches/{match.pk}/score/preview/"
    page = text(
        scoring.get(
            url,
            {
                "declarer": "A",
                "value": "48",
                "trump": "hearts",
                "level": "doubled",
                "taken": "47",
            },
        )
    )
    assert "48 ♥ defeated (defenders took 9): B · Chicago Jacks receives 5" in page
    page = text(
        scoring.get(
            url, {"declarer": "A", "value": "60", "trump": "hearts", "taken": "47"}
        )
    )
    assert "60 cannot be bid" in page
    assert text(scoring.get(url, {"declarer": "A"})).strip() == ""


def test_conduct_penalty_by_a_scorer_is_refused_on_the_form(scoring, match):
    enter(scoring, match, 1, "A", 40, "clubs", "none", 40)
    response = scoring.post(
        score_url(match),
        {
            "action": "penalty",
            "penalty-deal": 1,
            "penalty-offender": "B",
            "penalty-kind": "conduct",
            "penalty-points": 1,
            "penalty-version": version(match),
        },
        **HTMX,
    )
    # Not offered to a scorer (an organizer sets its points): sent anyway, it is
    # refused on the form's field, and nothing is saved.
    page = text(response)
    assert "Select a valid choice" in page and "conduct" in page
    assert 'value="conduct"' not in page
    assert Penalty.objects.count() == 0


@pytest.mark.parametrize("who", ["anonymous", "captain", "outsider"])
def test_only_scorers_and_organizers_open_the_score_page(
    client, match, captain, outsider, who
):
    if who != "anonymous":
        client.force_login({"captain": captain, "outsider": outsider}[who])
    response = client.get(score_url(match))
    assert response.status_code == (302 if who == "anonymous" else 403)


def test_match_page_is_public_and_captains_confirm_there(
    client, match, captain, away_captain, organizer
):
    for number in range(1, 19):
        services.score_sheet_deal_record(
            match_id=match.pk,
            user=organizer,
            version=version(match),
            **deal_body(number),
        )
    page = text(client.get(f"/matches/{match.pk}/"))
    assert "Edison Aces" in page and "Chicago Jacks" in page
    assert 'value="confirm"' not in page  # nobody logged in confirms
    assert "not confirmed" in page
    assert "A wins by 36" in page
    client.force_login(captain)
    page = text(client.get(f"/matches/{match.pk}/"))
    assert "Confirm for A" in page
    response = client.post(
        f"/matches/{match.pk}/",
        {"action": "confirm", "version": version(match)},
        follow=True,
    )
    assert "Your confirmation is recorded" in text(response)
    client.force_login(away_captain)
    response = client.post(
        f"/matches/{match.pk}/",
        {"action": "confirm", "version": version(match)},
        follow=True,
    )
    page = text(response)
    assert "The sheet is confirmed and locked." in page
    assert Match.objects.get(pk=match.pk).status == "confirmed"
    client.force_login(organizer)
    response = client.post(f"/matches/{match.pk}/", {"action": "reopen", "reason": ""})
    assert response.status_code == 400 and "Say why the sheet is reopened." in text(
        response
    )
    response = client.post(
        f"/matches/{match.pk}/",
        {"action": "reopen", "reason": "Deal 3 misread"},
        follow=True,
    )
    page = text(response)
    assert "The sheet is open again." in page and "Deal 3 misread" in page


def test_a_locked_sheet_sends_the_scorer_to_the_match_page(
    client, match, scorer, organizer
):
    for number in range(1, 19):
        services.score_sheet_deal_record(
            match_id=match.pk,
            user=organizer,
            version=version(match),
            **deal_body(number),
        )
    services.score_sheet_confirm(
        match_id=match.pk,
        user=organizer,
        version=version(match),
        roles=frozenset({"organizer"}),
        sides=frozenset(),
    )
    client.force_login(scorer)
    response = client.get(score_url(match), follow=True)
    assert "This sheet is confirmed and locked." in text(response)


def test_organizer_sets_up_a_match_by_hand(
    client, organizer, tournament, team, away_team, sections
):
    client.force_login(organizer)
    url = f"/t/{tournament.slug}/matches/"
    response = client.post(
        url,
        {
            "team_a": team.pk,
            "team_b": team.pk,
            "stage": "league",
            "round": 1,
            "table": 1,
        },
    )
    assert response.status_code == 400 and "cannot play itself" in text(response)
    response = client.post(
        url,
        {
            "team_a": team.pk,
            "team_b": away_team.pk,
            "stage": "league",
            "round": 1,
            "table": 1,
        },
        follow=True,
    )
    page = text(response)
    assert "is set up" in page and "<h2>Round 1" in page
    assert Match.objects.count() == 1


@pytest.mark.parametrize(
    ("path", "limit"),
    [
        # + the roster (players, substitutions) and the disputes: 3 on each
        ("/matches/{pk}/score/", 11),
        ("/matches/{pk}/", 12),
        ("/t/spring-open/matches/", 9),  # + every round's counts (2)
    ],
)
def test_pages_take_a_constant_number_of_queries(
    scoring, match, organizer, path, limit
):
    def count():
        with CaptureQueriesContext(connection) as queries:
            assert scoring.get(path.format(pk=match.pk)).status_code == 200
        return len(queries)

    services.score_sheet_deal_record(
        match_id=match.pk, user=organizer, version=1, **deal_body(1)
    )
    small = count()
    for number in range(2, 15):
        services.score_sheet_deal_record(
            match_id=match.pk,
            user=organizer,
            version=version(match),
            **deal_body(number),
        )
        services.score_sheet_penalty_record(
            match_id=match.pk,
            user=organizer,
            version=version(match),
            deal=number,
            offender="B",
            kind="out_of_turn",
            by_organizer=True,
        )
    large = count()
    assert small == large <= limit, (small, large)


@pytest.mark.parametrize(
    ("language", "done", "edit"),
    [
        ("en", "Every deal is on the sheet", "Save deal 18"),
        ("ml", "എല്ലാ കളികളും ഷീറ്റിലുണ്ട്", "കളി 18 സേവ് ചെയ്യുക"),
    ],
)
def test_a_finished_sheet_shows_its_words_where_the_form_was(
    scoring, match, language, done, edit
):
    """Issue 41's walk: a sheet with all its deals, reloaded, showed an empty deal
    form with no button, the words far below. Now the words stand in the form's
    place, and a deal's Edit still opens the form to save it."""
    for number, (row, _) in enumerate(HAND_CHECKED, 1):
        enter(scoring, match, number, *row)
    scoring.cookies["django_language"] = language
    page = text(scoring.get(score_url(match)))
    assert 'id="deal-form"' not in page and 'name="taken"' not in page
    assert page.index('id="deal-done"') < page.index('id="deal-18"')
    assert done in page[page.index('id="deal-done"') :][:400]
    page = text(scoring.get(score_url(match) + "?edit=18", **HTMX))
    assert 'id="deal-form"' in page and edit in page
    assert 'name="replacing" value="18"' in page


@pytest.mark.parametrize(
    ("language", "ruled"),
    [
        ("en", "Ruling on dispute {n}: “Deal 3 stands: both captains agree.”"),
        ("ml", "തർക്കം {n} ലെ തീർപ്പ്: “Deal 3 stands: both captains agree.”"),
    ],
)
def test_a_ruling_reads_once_in_the_history(client, match, organizer, language, ruled):
    """Issue 41's walk: the history said a ruling's words twice ("Ruling on dispute
    1: <words>: “<words>”"): the summary held them and the reason quoted them."""
    from scoring.domain.rules import Side
    from scoring.sheets import day

    enter_as = services.score_sheet_deal_record
    enter_as(match_id=match.pk, user=organizer, version=None, **deal_body(1))
    dispute = day.score_sheet_dispute_raise(
        match_id=match.pk,
        user=organizer,
        text="deal 1 was doubled",
        deal=1,
        roles=frozenset(),
        sides=frozenset({Side.A}),
    )
    words = "Deal 3 stands: both captains agree."
    day.score_sheet_dispute_rule(
        match_id=match.pk, dispute_id=dispute.pk, user=organizer, ruling=words
    )
    client.force_login(organizer)
    client.cookies["django_language"] = language
    page = text(client.get(f"/matches/{match.pk}/"))
    history = page[page.index('class="panel history"') :]
    assert ruled.format(n=dispute.pk) in history
    assert history.count(words) == 1
