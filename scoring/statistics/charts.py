"""Plain bar charts drawn as SVG on the server (templates/scoring/_chart.html): the
geometry here, from plain values; no JavaScript and no library.

A chart is a title, a one-line description (the SVG's <title> and <desc>, read by
screen readers; the tables on the same page hold every figure), and horizontal bars,
each split into parts (made, then defeated) drawn to one scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 480  # drawn to fit a phone's width; the page scales it
LABEL = 130  # the labels' column
TEXT = 104  # the figures' column, right of the longest bar
BAR = 24
GAP = 8
TOP = 6


@dataclass(frozen=True)
class Part:
    x: float
    width: float
    value: int
    look: str  # a CSS class: made, defeated, count
    words: str = ""  # what the look means, as the legend says it


@dataclass(frozen=True)
class Bar:
    label: str
    y: float
    parts: tuple[Part, ...]
    text: str
    text_x: float
    href: str = ""

    @property
    def middle(self) -> float:
        return self.y + BAR / 2


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    description: str
    bars: tuple[Bar, ...]
    legend: tuple[tuple[str, str], ...]  # (look, words)
    width: int = WIDTH
    label_x: int = LABEL - 8

    @property
    def height(self) -> int:
        return TOP * 2 + len(self.bars) * (BAR + GAP)

    @property
    def bar_height(self) -> int:
        return BAR


@dataclass(frozen=True)
class Row:
    label: str
    parts: Sequence[tuple[int, str]]  # (value, look)
    text: str
    href: str = ""


def bar_chart(
    key: str,
    title: str,
    description: str,
    rows: Sequence[Row],
    legend: Sequence[tuple[str, str]] = (),
) -> Chart:
    """Bars to one scale: the longest row's parts fill the width between the
    labels and the figures."""
    span = WIDTH - LABEL - TEXT
    top = max((sum(v for v, _ in r.parts) for r in rows), default=0) or 1
    meaning = dict(legend)
    bars = []
    for i, row in enumerate(rows):
        x, parts = float(LABEL), []
        for value, look in row.parts:
            width = span * value / top
            parts.append(
                Part(round(x, 1), round(width, 1), value, look, meaning.get(look, ""))
            )
            x += width
        bars.append(
            Bar(
                label=row.label,
                y=TOP + i * (BAR + GAP),
                parts=tuple(parts),
                text=row.text,
                text_x=round(x + 6, 1),
                href=row.href,
            )
        )
    return Chart(key, title, description, tuple(bars), tuple(legend))
