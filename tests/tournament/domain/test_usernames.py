"""The site's usernames (issue 51, "Unicode tricks"): one name whatever its letter
case or width, lookalikes of another alphabet caught, one alphabet per name, and
Malayalam names made as Kerala's players write them."""

import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.usernames import (
    address_key,
    django_pattern,
    username_form,
    username_key,
    username_refusal,
    username_skeleton,
)

ASCII_NAME = st.text(string.ascii_letters + string.digits + "._-@+", min_size=1)
# Malayalam as it is typed: consonants, each with a vowel sign or joined to the next
# by a virama (a conjunct), a chillu letter, an optional joiner after a virama.
CONSONANTS = "കഖഗഘങചഛജഝഞടഠഡഢണതഥദധനപഫബഭമയരലവശഷസഹളഴറ"
VOWELS = "അആഇഈഉഊഋഎഏഐഒഓഔ"
SIGNS = "ാിീുൂൃെേൈൊോൌം"
VIRAMA = "്"
CHILLU = "ൺൻർൽൾ"
SYLLABLE = st.one_of(
    st.sampled_from(VOWELS),
    st.tuples(st.sampled_from(CONSONANTS), st.sampled_from(["", *SIGNS])).map("".join),
    st.tuples(
        st.sampled_from(CONSONANTS),
        st.sampled_from(["", "\u200c", "\u200d"]),
        st.sampled_from(CONSONANTS),
    ).map(lambda t: t[0] + VIRAMA + t[1] + t[2]),
    st.sampled_from(CHILLU),
)
MALAYALAM = st.lists(SYLLABLE, min_size=1, max_size=8).map("".join)
# Cyrillic and Greek letters that look like Latin ones (TR39's confusables).
LOOKALIKE = {"a": "а", "c": "с", "e": "е", "o": "ο", "p": "р", "x": "х", "y": "у"}


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@given(ASCII_NAME)
def test_width_and_letter_case_make_no_other_name(name):
    key = username_key(name)
    assert username_key(fullwidth(name)) == key
    assert username_key(name.upper()) == username_key(name.lower()) == key
    assert username_form(fullwidth(name)) == name  # as Django stores it


@given(st.text(max_size=40))
def test_any_text_is_judged_never_crashes(text):
    refusal = username_refusal(text)
    assert refusal is None or refusal.field == "username"
    key = username_key(text)
    assert username_key(key) == key  # a key is its own key


@given(st.text(max_size=40))
def test_what_the_site_accepts_django_lets_through_and_stores_as_it_is(text):
    if username_refusal(text) is None:
        form = username_form(text)
        assert re.match(django_pattern(), form)
        assert username_refusal(form) is None
        assert username_form(form) == form


@given(MALAYALAM)
def test_malayalam_names_are_usernames(name):
    assert username_refusal(name) is None, username_refusal(name)
    assert re.match(django_pattern(), username_form(name))


@pytest.mark.parametrize(
    "name",
    ["അനില", "അനൂപ്", "ശ്രീക്കുട്ടൻ", "മലയാളം", "ജോസ്.കെ", "ravi_k2", "José",
     "Ελένη", "Дмитрий", "東京たろう", "김철수", "oneil"],
)  # fmt: skip
def test_names_of_one_alphabet_are_accepted(name):
    assert username_refusal(name) is None


@given(MALAYALAM, st.sampled_from(string.ascii_letters))
def test_a_latin_letter_in_a_malayalam_name_mixes_alphabets(name, letter):
    refusal = username_refusal(name + letter)
    assert refusal is not None and refusal.code == "invalid_username"
    assert "Latin, Malayalam" in refusal.message
    assert "mixes alphabets" in refusal.message


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("pаypal", "mixes alphabets (Cyrillic, Latin)"),  # one Cyrillic а
        ("rοot", "mixes alphabets (Greek, Latin)"),  # a Greek omicron
        ("root١", "a character a username cannot have"),  # an Arabic-Indic one
        ("root 1", "a character a username cannot have"),
        ("root\u200b", "a character a username cannot have"),  # zero width space
        ("ro\u200dot", "a character a username cannot have"),  # a joiner, no virama
        ("\u3164", "a character a username cannot have"),  # the Hangul filler
        ("root\ufe0f", "a mark that does not belong"),  # a variation selector
        ("rq\u0301\u0301", "a mark that does not belong"),  # stacked accents
        ("ക\u0301", "a mark that does not belong"),  # an accent on Malayalam
        ("x" * 151, "at most 150 characters"),
        ("", "choose a username"),
    ],
)
def test_refusals_name_the_field_and_the_rule(name, words):
    refusal = username_refusal(name)
    assert refusal is not None and refusal.field == "username"
    assert words in refusal.message


@given(ASCII_NAME)
def test_a_latin_name_is_its_own_skeleton(name):
    assert username_skeleton(name) == username_key(name)


@given(st.text("acepxyo", min_size=1, max_size=12), st.data())
def test_lookalike_letters_share_the_latin_names_skeleton(name, data):
    swapped = "".join(LOOKALIKE[c] if data.draw(st.booleans()) else c for c in name)
    assert username_skeleton(swapped) == username_skeleton(name)
    assert username_skeleton(swapped.upper()) == username_skeleton(name)


def test_whole_script_lookalikes_are_one_skeleton_but_other_names():
    cyrillic = "рау"  # all Cyrillic: accepted alone, but it reads "pay"
    assert username_refusal(cyrillic) is None
    assert username_skeleton(cyrillic) == username_skeleton("pay")
    assert username_key(cyrillic) != username_key("pay")
    # A joiner after a virama changes how a Malayalam name looks, not which it is.
    assert username_skeleton("സോഫ്\u200cറ്റ്") == username_skeleton("സോഫ്റ്റ്")


def test_an_address_is_keyed_as_the_password_reset_finds_it():
    assert address_key("ſcorera@Example.org") == address_key("scorera@example.org")
    assert address_key(" ＳCORERA@example.org ") == "scorera@example.org"
    assert address_key("scorerb@example.org") != address_key("scorera@example.org")
