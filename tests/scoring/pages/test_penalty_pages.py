"""The penalties of rules.md §3 as amended, on the score page: the kinds a scorer
chooses from say what each gives under the tournament's rule set, in English and
Malayalam, and what the page answers after each follows the rule set."""

import re

import pytest
from django.test import Client

from scoring.models import Match, Penalty
from tournament.models import Tournament

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _page(client, match, language):
    client.cookies["django_language"] = language
    return re.sub(
        r"\s+", " ", client.get(f"/matches/{match.pk}/score/").content.decode()
    )


def _post(client, match, **fields):
    version = Match.objects.get(pk=match.pk).version
    body = {"action": "penalty", "penalty-version": version}
    body.update({f"penalty-{k}": v for k, v in fields.items()})
    return re.sub(
        r"\s+",
        " ",
        client.post(f"/matches/{match.pk}/score/", body, **HTMX).content.decode(),
    )


def _deal(client, match, number):
    client.post(
        f"/matches/{match.pk}/score/",
        {
            "action": "deal",
            "number": number,
            "declarer": "A",
            "value": 40,
            "trump": "clubs",
            "level": "none",
            "taken": 40,
            "version": Match.objects.get(pk=match.pk).version,
        },
        **HTMX,
    )


@pytest.mark.parametrize(
    ("ruleset", "language", "words"),
    [
        ("international", "en", ["Lead out of turn (warning, then 1)", "(0–5,"]),
        ("gcka", "en", ["Lead out of turn (1)", "out of turn (1)", "(0–2,"]),
        ("international", "ml", ["ഊഴം തെറ്റി ഇറക്കി (ആദ്യം താക്കീത്, പിന്നെ 1)"]),
        ("gcka", "ml", ["ഊഴം തെറ്റി ഇറക്കി (1)", "എട്ട് ചീട്ടും"]),
    ],
)
def test_the_kinds_say_what_they_give_under_the_rule_set(
    scorer, organizer, match, ruleset, language, words
):
    Tournament.objects.filter(pk=match.tournament_id).update(ruleset=ruleset)
    client = Client()
    client.force_login(organizer)
    _deal(client, match, 1)
    page = _page(client, match, language)
    for value in ("out_of_turn", "lead_out_of_turn", "review", "kallakali", "conduct"):
        assert f'value="{value}"' in page
    for said in words:
        assert said in page, said
    # A scorer is not offered conduct, whose points only an organizer sets.
    client.force_login(scorer)
    page = _page(client, match, language)
    assert 'value="lead_out_of_turn"' in page
    assert 'value="conduct"' not in page


def test_each_warning_is_its_own_and_gcka_has_none(scorer, match):
    client = Client()
    client.force_login(scorer)
    _deal(client, match, 1)
    said = _post(client, match, deal=1, offender="A", kind="out_of_turn")
    assert "Out of turn by A: a warning (no points)." in said
    said = _post(client, match, deal=1, offender="A", kind="lead_out_of_turn")
    assert "Lead out of turn by A: a warning (no points)." in said
    said = _post(client, match, deal=1, offender="A", kind="review")
    assert "B receives 1" in said
    assert [(p.kind, p.points, p.warning) for p in Penalty.objects.order_by("pk")] == [
        ("out_of_turn", 0, True),
        ("lead_out_of_turn", 0, True),
        ("review", 1, False),
    ]
    # Under gcka (004) there is no warning: the first out of turn is a point.
    Tournament.objects.filter(pk=match.tournament_id).update(ruleset="gcka")
    said = _post(client, match, deal=1, offender="B", kind="out_of_turn")
    assert "A receives 1" in said
