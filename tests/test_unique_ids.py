"""No page repeats an id (issue 41, 10): a label, an aria-describedby or a fragment
link that points at an id must reach the one element it means, not the field of
another form on the same page. Every kind of page is read as a visitor, a table
link, a team link and an organizer see it, in English and in Malayalam, on the same
tournament day as tests/test_accessibility.py (a knockout day, a sheet 18 deals
in); and a label's `for`, an `aria-describedby`, `aria-labelledby` or
`aria-controls` must name an id the page has."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest
from django.test import Client

from scoring.links.services import links_ensure
from scoring.models import Match
from tests.factories import TournamentFactory, member
from tests.scoring.league import drawn_league, link_key, play_quickly
from tests.test_accessibility import _may_create, championship  # noqa: F401
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db


# The attributes that name other elements by id, checked to name one the page has
# (Django points a field with help text at "<id>_helptext": the templates give the
# help they show that id).
POINTING = ("aria-describedby", "aria-labelledby", "aria-controls")


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: Counter[str] = Counter()
        self.pointers: list[tuple[str, str]] = []  # (what points, the id it names)
        self.in_template = 0

    def handle_starttag(self, tag, attrs):
        if tag == "template":
            self.in_template += 1  # a <template>'s copy is not in the page yet
        if self.in_template:
            return
        found = dict(attrs)
        if found.get("id"):
            self.ids[found["id"]] += 1
        if tag == "label" and found.get("for"):
            self.pointers.append((f"<label for={found['for']}>", found["for"]))
        for name in POINTING:
            for target in (found.get(name) or "").split():
                self.pointers.append((f"<{tag} {name}={target}>", target))

    def handle_endtag(self, tag):
        if tag == "template" and self.in_template:
            self.in_template -= 1


def _problems(html: str) -> list[str]:
    parser = _Ids()
    parser.feed(html)
    repeated = [
        f"id {name!r} is on {count} elements"
        for name, count in parser.ids.items()
        if count > 1
    ]
    missing = [
        f"{what} names no element of the page"
        for what, target in parser.pointers
        if target not in parser.ids
    ]
    return repeated + missing


def _client(language: str, user=None) -> Client:
    client = Client()
    client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("language", ["en", "ml"])
def test_no_page_repeats_an_id(championship, language):  # noqa: F811
    organizer, _, pages, visitor, _ = championship
    # So that the new tournament's, the import's and the site's pages show their
    # forms (as in tests/test_accessibility.py).
    _may_create(organizer)
    # A sheet with no deal yet: its pages add the forfeit form to the deal form.
    waiting = Match.objects.filter(
        tournament__slug="axe-cup", status="scheduled"
    ).first()
    pages = {
        **pages,
        "waiting-match": f"/matches/{waiting.pk}/",
        "waiting-score": f"/matches/{waiting.pk}/score/",
    }
    found: dict[str, list[str]] = {}
    checked = []
    for who, client, paths in (
        ("visitor", _client(language), visitor),
        ("organizer", _client(language, organizer), pages),
    ):
        for kind, path in paths.items():
            answer = client.get(path)
            assert answer.status_code == (404 if kind == "not-found" else 200), path
            assert answer["Content-Type"].startswith("text/html"), path
            checked.append(kind)
            problems = _problems(answer.content.decode())
            if problems:
                found[f"{who} {kind} ({path})"] = problems
    # The pages the issue names are among those read.
    assert {"team", "desk", "match", "sheet", "score", "table-link"} <= set(checked)
    assert not found, "\n".join(f"{k}: {'; '.join(v)}" for k, v in found.items())


@pytest.mark.parametrize("language", ["en", "ml"])
def test_no_page_of_a_league_day_repeats_an_id(language):
    """The league in play: a team's page offers both the substitution and the
    withdrawal (each with "From round" and "Why"), a sheet under way, one not
    begun (the forfeit form beside the deal form)."""
    tournament = TournamentFactory(slug="ids-day", league_rounds=3, league_deals=6)
    organizer = member(tournament, Role.ORGANIZER, "ids-org")
    begun, waiting, *_ = drawn_league(tournament, organizer, sections=3, per_section=2)
    play_quickly(begun.pk, organizer, 9, 4, deals=3)
    links_ensure(tournament=tournament, tables=3)
    team = begun.team_a
    slug = tournament.slug
    pages = {
        "team": f"/t/{slug}/teams/{team.pk}/",
        "desk": f"/t/{slug}/desk/",
        "draw": f"/t/{slug}/draw/",
        "standings": f"/t/{slug}/standings/",
        "links": f"/t/{slug}/links/",
        "begun-match": f"/matches/{begun.pk}/",
        "begun-score": f"/matches/{begun.pk}/score/",
        "waiting-match": f"/matches/{waiting.pk}/",
        "waiting-score": f"/matches/{waiting.pk}/score/",
    }
    client = _client(language, organizer)
    page = client.get(pages["team"]).content.decode()
    assert 'name="withdraw-from_round"' in page  # both forms are there
    assert 'name="substitute-from_round"' in page
    found = {}
    for kind, path in pages.items():
        answer = client.get(path)
        assert answer.status_code == 200, path
        problems = _problems(answer.content.decode())
        if problems:
            found[f"{kind} ({path})"] = problems
    for kind, key in (
        ("table-link", link_key(tournament, table=begun.table)),
        ("team-link", link_key(tournament, team=team)),
    ):
        answer = _client(language).get(f"/l/{key}/")
        assert answer.status_code == 200
        problems = _problems(answer.content.decode())
        if problems:
            found[kind] = problems
    assert not found, "\n".join(f"{k}: {'; '.join(v)}" for k, v in found.items())


def test_the_checker_finds_a_repeated_id_and_a_label_for_nothing():
    html = (
        '<form><label for="id_reason">Why</label><input id="id_reason"></form>'
        '<form><label for="id_reason">Why</label><input id="id_reason"></form>'
        '<label for="id_gone">Gone</label>'
        '<template><input id="id_reason"></template>'
    )
    assert _problems(html) == [
        "id 'id_reason' is on 2 elements",
        "<label for=id_gone> names no element of the page",
    ]
