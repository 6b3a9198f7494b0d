"""Template filters of score sheets and standings."""

from django import template

from scoring.domain import tiebreak
from scoring.domain.rules import TRUMP_SYMBOLS, Trump
from scoring.domain.standings import Points, shown

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
