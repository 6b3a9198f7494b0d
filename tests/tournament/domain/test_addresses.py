"""A tournament's address made from its name (tournament/domain/addresses.py): a
Malayalam name is read in Latin letters (issue 52: it became `/t/56-2026/`), and
every address is one a reader can type."""

from __future__ import annotations

import re

import pytest
from django.utils.text import slugify
from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.addresses import ADDRESS_MAX, address_from_name, romanize

MALAYALAM = st.text(
    alphabet=st.characters(min_codepoint=0x0D00, max_codepoint=0x0D7F), max_size=30
)


@pytest.mark.parametrize(
    ("name", "address"),
    [
        ("കേരള ചാമ്പ്യൻഷിപ്പ് 2026", "kerala-champyanshipp-2026"),
        ("എന്റെ ടീം", "ente-tim"),
        ("കോഴിക്കോട് ഓപ്പൺ", "kozhikkot-oppan"),
        ("ആലുവ 56 – ൨൦൨൬", "aluva-56-2026"),
        ("തൃശ്ശൂർ കപ്പ്", "thrushshur-kapp"),
        ("Kerala Open 2026", "kerala-open-2026"),
        ("Sam's Café Cup", "sams-cafe-cup"),
        ("56 – 2026", "56-2026"),
        ("!!!", ""),
    ],
)
def test_a_name_gives_its_address(name, address):
    assert address_from_name(name) == address


@given(st.text(max_size=200) | MALAYALAM)
def test_every_address_can_be_typed_anywhere(name):
    address = address_from_name(name)
    assert re.fullmatch(r"([a-z0-9]+(-[a-z0-9]+)*)?", address), address
    assert len(address) <= ADDRESS_MAX


@given(MALAYALAM.filter(lambda text: any(c.isalpha() for c in text)))
def test_malayalam_letters_are_read_not_dropped(name):
    """A name with a Malayalam letter gives Latin letters, where slugify kept none."""
    assert re.search(r"[a-z]", romanize(name)) or not re.search(r"\w", name)


@given(st.from_regex(r"[A-Za-z0-9 ]{0,50}", fullmatch=True))
def test_a_latin_name_gives_what_slugify_gave(name):
    """The addresses of Latin names do not change (an address is fixed once made)."""
    assert address_from_name(name) == slugify(name)[:ADDRESS_MAX].strip("-")
