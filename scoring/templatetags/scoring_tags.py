"""Template filters of score sheets and standings."""

from fractions import Fraction

from django import template

register = template.Library()


@register.filter
def points(value: Fraction | int) -> str:
    """R2..R4 as the standings show them: whole, or to two decimals where a bye's
    average made a fraction (the order is decided on the exact value)."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}"
