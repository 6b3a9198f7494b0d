"""The words a template shows without marking them for translation (docs/glossary.md):
its text, and the attributes a person reads or hears (title, aria-label, placeholder,
alt). Template tags and variables are set aside first ({% translate %} and
{% blocktranslate %} count as marked, a variable as data), then the HTML is read by
the standard library's parser."""

from __future__ import annotations

import re
from html.parser import HTMLParser

SHOWN_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
# Words no language translates here: the game's notation and the site's API.
UNTRANSLATED = {"NT", "API", "XX", "R40", "R48", "R56", "SVG", "Excel", "QR"}
# Elements whose text is code or a key to type, the same in every language.
VERBATIM = ("script", "style", "code", "kbd")
WORD = re.compile(r"[^\W\d_]{2,}")
_BLOCK = re.compile(
    r"\{%\s*(blocktranslate|blocktrans)\b.*?%\}.*?\{%\s*end\1\s*%\}"
    r"|\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}",
    re.S,
)
_MARKED = re.compile(r"\{%\s*(translate|trans)\s.*?%\}", re.S)
_VARIABLE = re.compile(r"\{\{.*?\}\}", re.S)
_TAG = re.compile(r"\{%.*?%\}|\{#.*?#\}", re.S)
HOLE = "\ue000"  # stands for marked text or data


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._hidden = 0  # inside a VERBATIM element

    def handle_starttag(self, tag, attrs):
        if tag in VERBATIM:
            self._hidden += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value:
                self._check(value)

    def handle_endtag(self, tag):
        if tag in VERBATIM:
            self._hidden = max(0, self._hidden - 1)

    def handle_data(self, data):
        if not self._hidden:
            self._check(data)

    def _check(self, text: str) -> None:
        words = [
            w for w in WORD.findall(text.replace(HOLE, " ")) if w not in UNTRANSLATED
        ]
        if words:
            self.found.append(" ".join(text.replace(HOLE, "…").split()))


def unmarked(source: str) -> list[str]:
    """The pieces of `source` (a template) a person would read untranslated."""
    source = _BLOCK.sub(HOLE, source)
    source = _MARKED.sub(HOLE, source)
    source = _VARIABLE.sub(HOLE, source)
    source = _TAG.sub("", source)
    reader = _Reader()
    reader.feed(source)
    reader.close()
    return reader.found
