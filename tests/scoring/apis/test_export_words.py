"""The workbook writes words a person reads, never the codes the API keeps
(docs/exports.md): a status is "In progress", a trump "No trump", a level "Not doubled",
a penalty "Cardinal rule", in every sheet, whichever language asked for the file; the
paper score sheet writes the game's notation (NT, X) and the penalties' words."""

from __future__ import annotations

import re

import pytest

from scoring.domain.rules import Level, MatchStatus, PenaltyKind, Stage, Trump
from scoring.domain.tiebreak import DecidedBy
from tests.conftest import as_user
from tests.factories import TournamentFactory, member
from tests.scoring.apis.test_export import _played
from tests.scoring.excel import table, workbook
from tests.scoring.league import drawn_league, enter
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db

SNAKE_CASE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
# Every value the rules name by code, and the bracket's states of a match.
CODES = {
    str(code)
    for kind in (MatchStatus, Stage, Trump, Level, PenaltyKind, DecidedBy)
    for code in kind
} | {"waiting", "decided", "bye", "place"}


def _is_code(value) -> bool:
    if not isinstance(value, str):
        return False
    if value in CODES:
        return True
    return any(SNAKE_CASE.fullmatch(part) for part in re.split(r"[ ,:()]+", value))


def _codes_in(book) -> list[str]:
    """Every cell of every sheet that holds a code rather than words."""
    return [
        f"{ws.title}!{cell.coordinate}: {cell.value!r}"
        for ws in book.worksheets
        for row in ws.iter_rows()
        for cell in row
        if _is_code(cell.value)
    ]


# The columns that name a row's kind (issue 41, words 4): "Deal", "No deals",
# "Forfeit", "Team", not the lowercase codes "deal", "forfeit", "team".
LABEL_COLUMNS = {
    "Score sheets": "Line",
    "Tournament day": "What",
    "Statistics": "Line",
}


def _lowercase_labels(book) -> list[str]:
    """Every value of a row-kind column written as a code: lowercase, not a word
    with a capital like the other values."""
    found = []
    for title, column in LABEL_COLUMNS.items():
        rows = table(book, title)
        if not rows:
            continue  # nothing happened of that kind
        assert column in rows[0], f"{title} has no {column} column"
        found += [
            f"{title}!{column}: {r[column]!r}"
            for r in rows
            if isinstance(r[column], str) and not r[column][:1].isupper()
        ]
    return found


def _export(api, slug, language):
    answer = api.get(
        f"/api/v1/tournaments/{slug}/export.xlsx", HTTP_ACCEPT_LANGUAGE=language
    )
    assert answer.status_code == 200
    return workbook(answer.content)


@pytest.mark.parametrize("language", ["en", "ml"])
def test_a_league_day_is_written_in_words(api, language):
    """A forfeit, a bye, deals of every trump and level, penalties of every kind."""
    tournament = TournamentFactory(slug="words", league_rounds=3, league_deals=6)
    organizer = member(tournament, Role.ORGANIZER)
    matches = drawn_league(tournament, organizer, sections=3, per_section=3)
    as_user(api, organizer)
    forfeited, played = matches[0], matches[1]
    answer = api.post(
        f"/api/v1/matches/{forfeited.pk}/forfeit/",
        {"absent": "B", "reason": "no show", "version": 1},
        "json",
    )
    assert answer.status_code == 200, answer.json()
    bodies = [
        {"declarer": "A", "value": 28, "trump": "no_trump", "level": "none"},
        {"declarer": "B", "value": 30, "trump": "spades", "level": "doubled"},
        {"declarer": "A", "value": 32, "trump": "clubs", "level": "redoubled"},
        {"declarer": "B", "value": 28, "trump": "diamonds", "level": "none"},
    ]
    sheet = enter(api, played.pk, [{**b, "taken": 30} for b in bodies])
    for body in (
        {"deal": 1, "offender": "B", "kind": "out_of_turn"},
        {"deal": 2, "offender": "A", "kind": "cardinal_rule"},
        {"deal": 3, "offender": "B", "kind": "constraining_hand"},
        {"deal": 4, "offender": "A", "kind": "conduct", "points": 1},
    ):
        answer = api.post(
            f"/api/v1/matches/{played.pk}/penalties/",
            {**body, "version": sheet["version"]},
            "json",
        )
        assert answer.status_code == 201, answer.json()
        sheet = answer.json()

    book = _export(api, "words", language)
    assert _codes_in(book) == []
    assert _lowercase_labels(book) == []
    day = {r["What"] for r in table(book, "Tournament day")}
    assert "Forfeit" in day
    kinds = {r["Line"] for r in table(book, "Statistics")}
    assert {"Team", "Record"} <= kinds
    draw = {r["Match id"]: r["Status"] for r in table(book, "Draw")}
    assert draw[forfeited.pk] == "Forfeited"
    assert draw[played.pk] == "In progress"
    assert "Bye" in draw.values()  # nine teams: one sits out each round
    lines = [r for r in table(book, "Score sheets") if r["Match id"] == played.pk]
    deals = [r for r in lines if r["Line"] == "Deal"]
    assert [(r["Trump"], r["Level"]) for r in deals] == [
        ("No trump", "Not doubled"),
        ("Spades", "Doubled"),
        ("Clubs", "Redoubled"),
        ("Diamonds", "Not doubled"),
    ]
    assert {r["Stage"] for r in lines} == {"League"}
    penalties = [r["Penalty"] for r in lines if r["Line"] == "Penalty"]
    assert penalties == [
        "Out of turn",
        "Cardinal rule",
        "Constraining hand",
        "Conduct",
    ]
    assert deals[1]["Awarded by"] == "Cardinal rule"
    rosters = {r["Match id"]: r for r in table(book, "Rosters")}
    assert (rosters[forfeited.pk]["Stage"], rosters[forfeited.pk]["Status"]) == (
        "League",
        "Forfeited",
    )
    # The paper sheet of the same match: the game's notation and the penalties' words.
    answer = api.get(f"/api/v1/matches/{played.pk}/sheet.xlsx")
    assert answer.status_code == 200
    paper = workbook(answer.content)
    assert _codes_in(paper) == []
    cells = [c.value for row in paper.worksheets[0].iter_rows() for c in row]
    assert "NT" in cells and "XX" in cells and "Constraining hand" in cells
    statistics = table(book, "Statistics")
    kinds = " ".join(r["Penalties by kind"] or "" for r in statistics)
    assert "Cardinal rule 1" in kinds and "cardinal_rule" not in kinds


def test_the_knockout_is_written_in_words(api):
    """A decided semi-final, one in progress, and matches waiting for their teams."""
    _played(api)
    book = _export(api, "xl-cup", "en")
    assert _codes_in(book) == []
    assert _lowercase_labels(book) == []
    bracket = [r for r in table(book, "Bracket") if r["Match"] is not None]
    statuses = {r["Status"] for r in bracket}
    assert {"Decided", "In progress", "Waiting for its teams"} <= statuses
    assert {r["Decided by"] for r in bracket} - {None} == {"Total"}
    lines = table(book, "Score sheets")
    assert {r["Stage"] for r in lines} == {"League", "Knockout"}
