"""Template filters of score sheets and standings."""

from django import template
from django.utils.html import json_script
from django.utils.translation import pgettext

from scoring.domain import rounds, tiebreak
from scoring.domain.rules import TRUMP_SYMBOLS, Trump
from scoring.domain.standings import Points, shown
from scoring.signals import match_named
from scoring.words import offline_words as _offline_words
from scoring.words import said as _said
from scoring.words import who_said as _who_said
from tournament.domain.errors import Words
from tournament.domain.sections import INTERNATIONAL
from tournament.words import words_said

register = template.Library()


@register.filter
def points(value: Points) -> str:
    """R2..R4 as the standings show them (standings.shown), as in the API."""
    return str(shown(value))


@register.simple_tag
def toss_cards() -> str:
    """The rank of the cards for a knockout toss (rules.md §6)."""
    return tiebreak.TOSS_CARDS


@register.filter
def trump_symbol(value: str) -> str:
    """A trump as a scorer writes it: ♣ ♦ ♥ ♠ or NT."""
    try:
        return TRUMP_SYMBOLS[Trump(value)]
    except ValueError:
        return value


@register.filter
def said(value: str, kind: str) -> str:
    """A code (a stage, a status, a trump, a table's state...) as the page's language
    says it: {{ match.stage|said:"stage" }} (scoring/words.py)."""
    return _said(value, kind)


@register.simple_tag
def round_name(stage: str, number: int, qualifiers: int | None = None) -> str:
    """A round's one name in the page's language (scoring/domain/rounds.py):
    {% round_name match.stage match.round tournament.qualifiers %}."""
    return words_said(rounds.round_name(stage, number, qualifiers))


@register.filter
def section_said(name: str) -> str:
    """A section's name as a list of names gives it, in the page's language: the
    International section's stored name (the API's) is said as the page says it
    (`Section.shown_name`); any other as its organizer named it."""
    return pgettext("section", "International") if name == INTERNATIONAL else name


@register.filter
def round_of(match) -> str:
    """A match's round by its one name, in the page's language: {{ match|round_of }}."""
    return words_said(
        rounds.round_name(match.stage, match.round, match.tournament.qualifiers)
    )


@register.filter
def sheet_of(match) -> str:
    """A single sheet's own match by its name, in the page's language: its round's name
    ({{ match|round_of }}), except in the final's round, which holds two matches: there
    the bracket names the sheet's ("Final, game 2", "Second runner-up match")."""
    name = rounds.round_name(match.stage, match.round, match.tournament.qualifiers)
    if name == rounds.FINAL_ROUND:
        for _, answer in match_named.send(sender=type(match), match=match):
            if answer is not None:
                name = answer
                break
    return words_said(name)


@register.filter
def words(value: object) -> object:
    """Marked words (a refusal inside a list of problems) in the page's language;
    anything else as it is."""
    return words_said(value) if isinstance(value, Words) else value


@register.simple_tag
def offline_words() -> str:
    """The offline queue's sentences in the page's language, as a JSON script element
    static/js/score/ reads (id "offline-words")."""
    return json_script(_offline_words(), "offline-words")


@register.filter
def who(value: str) -> str:
    """Who did something, as the history keeps it (a username, "table 3 link",
    "captain of A"), in the page's language."""
    return _who_said(value) if value else value


@register.filter
def get_item(mapping, key):
    """`mapping[key]` in a template (None when missing): a team's row of a dict."""
    return mapping.get(key) if mapping else None
