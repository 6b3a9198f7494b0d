"""A username as the site holds it (docs/people.md, "Usernames").

What it decides:
- the form a username is stored in: Unicode's compatibility form (NFKC), as Django
  stores one (`AbstractBaseUser.normalize_username`), so "ＲＯＯＴ" is stored "ROOT";
- the key two usernames share when they are one name: that form with letter case
  folded ("ＲＯＯＴ", "ROOT", "Root" and "root" have one key); and the key of an
  e-mail address, the comparison Django's password reset makes of addresses (NFKC,
  casefolded: "ſcorer@…" with a long s is "scorer@…"), which its throttle counts;
- the skeleton two usernames share when they look alike: Unicode TR39's skeleton
  for the Cyrillic and Greek letters that look Latin ("рор" in Cyrillic looks like
  "pop"), joiners left out, letter case folded;
- which usernames may be made: letters of one script (Japanese and Korean may add
  Han ideographs), each script's own marks after its letters (a Malayalam vowel
  sign, a virama, a joiner right after a virama), the digits 0 to 9 and . _ - @ +.

What it does not: read users or compare with them (tournament/accounts/users.py
does, with these keys), or judge Latin letters that look like each other ("rn" and
"m", "l" and "I"): a reader of the Latin alphabet tells those apart in the page's
font, and refusing them would refuse ordinary names.

Vocabulary: a script is the first word of a character's Unicode name (LATIN,
CYRILLIC, GREEK, MALAYALAM, CJK…); a mark is a character of Unicode category M
(a vowel sign, a virama, an accent).
"""

from __future__ import annotations

import unicodedata
from functools import cache

from .errors import RuleError, Words, marked

USERNAME_MAX = 150  # Django's User.username
PUNCTUATION = frozenset("._-@+")  # what Django's username validator allows besides
DIGITS = frozenset("0123456789")
ZWNJ, ZWJ = "\u200c", "\u200d"
VIRAMA = 9  # the canonical combining class of a virama (Malayalam's ്)
# Letters and marks that show nothing (Unicode's default ignorables among them): a
# name with one looks like the name without it.
ACCENTED = frozenset({"LATIN", "GREEK", "CYRILLIC"})  # the scripts accents sit on
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0")

# Scripts written together in one name (TR39's "highly restrictive" level, without
# Latin): Japanese, Korean and Chinese with its phonetic script.
_TOGETHER = (
    frozenset({"CJK", "IDEOGRAPHIC", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA"}),
    frozenset({"CJK", "IDEOGRAPHIC", "HANGUL"}),
    frozenset({"CJK", "IDEOGRAPHIC", "BOPOMOFO"}),
)

# TR39's confusables (confusables.txt) for the Cyrillic and Greek letters that look
# like Latin ones in common fonts, both cases: the few that make "раураl" of
# "paypal". Letters that look like nothing Latin (б, д, λ) are not listed.
_LOOKALIKES = {
    # Cyrillic
    "а": "a", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j",
    "ӏ": "l", "о": "o", "р": "p", "ԛ": "q", "г": "r", "ѕ": "s", "ԝ": "w",
    "х": "x", "у": "y", "ү": "y", "п": "n",
    "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "I", "Ј": "J",
    "К": "K", "М": "M", "О": "O", "Р": "P", "Ԛ": "Q", "Ѕ": "S", "Т": "T",
    "Ԝ": "W", "Х": "X", "У": "Y", "Ү": "Y", "Ӏ": "l",
    # Greek
    "α": "a", "ϲ": "c", "ι": "i", "ϳ": "j", "ο": "o", "ρ": "p", "υ": "u",
    "ν": "v", "χ": "x", "γ": "y",
    "Α": "A", "Β": "B", "Ϲ": "C", "Ε": "E", "Η": "H", "Ι": "I", "Ϳ": "J",
    "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y",
    "Χ": "X", "Ζ": "Z",
}  # fmt: skip
_SKELETON = str.maketrans({**_LOOKALIKES, ZWNJ: None, ZWJ: None})


def username_form(name: str) -> str:
    """The username as Django stores it: NFKC (a fullwidth "ＲＯＯＴ" is "ROOT")."""
    return unicodedata.normalize("NFKC", name)


def username_key(name: str) -> str:
    """What two usernames that are one name share: the stored form, letter case
    folded, in NFKC again (folding can undo it: "ǰ" folds to j and a mark)."""
    return unicodedata.normalize("NFKC", username_form(name).casefold())


def address_key(address: str) -> str:
    """An e-mail address as Django's password reset finds its account
    (`PasswordResetForm.get_users`: `_unicode_ci_compare`, NFKC then casefolded)."""
    return unicodedata.normalize("NFKC", address.strip()).casefold()


def username_skeleton(name: str) -> str:
    """What two usernames that look alike share: the stored form decomposed, each
    lookalike letter read as the Latin one, joiners dropped, then keyed. Two names
    of one key may differ here only by a lookalike's case ("В" reads as B, "в" does
    not): the site compares keys first."""
    decomposed = unicodedata.normalize("NFD", username_form(name))
    return username_key(decomposed.translate(_SKELETON))


def script_of(char: str) -> str:
    """The script of a letter or a mark: the first word of its Unicode name
    (COMBINING for the marks any script takes, such as accents)."""
    return unicodedata.name(char, "UNKNOWN").split(" ", 1)[0]


def _mixed(scripts: set[str]) -> bool:
    return len(scripts) > 1 and not any(scripts <= group for group in _TOGETHER)


def _said(scripts: set[str]) -> str:
    return ", ".join(sorted(s.title() for s in scripts))


def _invalid(name: str, why: Words, **params: object) -> RuleError:
    return RuleError("invalid_username", why, field="username", username=name, **params)


def username_refusal(name: str) -> RuleError | None:
    """Why `name` cannot be made a username, or None. Read in its stored form; every
    refusal names the field `username` and says the rule."""
    if len(name) > USERNAME_MAX:  # NFKC only lengthens: refused before it is read
        return _invalid(
            name[:USERNAME_MAX] + "…",
            marked("a username has at most %(limit)s characters"),
            limit=USERNAME_MAX,
        )
    form = username_form(name)
    if not form:
        return RuleError("required", marked("choose a username"), field="username")
    if len(form) > USERNAME_MAX:
        return _invalid(
            form,
            marked("a username has at most %(limit)s characters"),
            limit=USERNAME_MAX,
        )
    scripts: set[str] = set()
    base = ""  # the script of the letter the next mark may follow ("" after none)
    accents = 0  # marks of any script (COMBINING …) on that letter
    before = ""
    for char in form:
        kind = unicodedata.category(char)
        if char in DIGITS or char in PUNCTUATION:
            base = ""
        elif kind.startswith("L") and char not in INVISIBLE:
            base, accents = script_of(char), 0
            scripts.add(base)
        elif kind.startswith("M") and base and char not in INVISIBLE:
            script = script_of(char)
            accents += script == "COMBINING"
            # A letter's own script's marks, or on an alphabet that takes accents
            # one that Unicode has no letter for (NFKC made one letter of every
            # other): never a stack.
            if script != base and (script != "COMBINING" or base not in ACCENTED):
                accents = 2
            if accents > 1:
                return _invalid(
                    form,
                    marked(
                        "%(username)s has a mark that does not belong to the letter "
                        "before it; a username is written in one alphabet"
                    ),
                )
        elif char in (ZWNJ, ZWJ) and base and unicodedata.combining(before) == VIRAMA:
            pass  # a joiner right after a virama: how Malayalam writes a chillu
        else:
            return _invalid(
                form,
                marked(
                    "%(username)s has a character a username cannot have: use "
                    "letters, the digits 0 to 9 and . _ - @ + only"
                ),
            )
        before = char
    if _mixed(scripts):
        return _invalid(
            form,
            marked(
                "%(username)s mixes alphabets (%(scripts)s); a username is written "
                "in one, so that no one can make a name that looks like another's"
            ),
            scripts=_said(scripts),
        )
    return None


@cache
def django_pattern() -> str:
    """A pattern for Django's username validator that lets through what this module
    may accept: Django's own `^[\\w.@+-]+\\Z` with the marks of every script and the
    two joiners (Python's \\w takes no mark, so Django alone refuses "അനില", whose
    vowel sign is one). Planes 0 and 1 hold every script's marks; variation
    selectors and the grapheme joiner are left out (invisible)."""
    marks = [
        chr(code)
        for code in range(0x20000)
        if unicodedata.category(chr(code)).startswith("M")
        and not unicodedata.name(chr(code), "").startswith(
            ("VARIATION SELECTOR", "COMBINING GRAPHEME JOINER")
        )
    ]
    ranges: list[str] = []
    start = previous = None
    for char in [*marks, None]:
        if char is not None and previous is not None and ord(char) == ord(previous) + 1:
            previous = char
            continue
        if start is not None:
            ranges.append(start if start == previous else f"{start}-{previous}")
        start = previous = char
    return rf"^[\w.@+\-{''.join(ranges)}{ZWNJ}{ZWJ}]+\Z"
