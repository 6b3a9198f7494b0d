"""A tournament's address (`/t/<address>/`) made from its name, in letters a reader
can type anywhere: a–z, digits and hyphens.

A name in Malayalam is read aloud in Latin letters first (a plain romanization:
"കേരള ചാമ്പ്യൻഷിപ്പ് 2026" gives "kerala-champyanshipp-2026"), as Django's own
slugify would keep only "2026" of it; any other script is folded to its Latin
letters where Unicode gives them ("Café" → "cafe") and dropped where not. What it
does not do: decide whether an address is taken (the service numbers it).
"""

from __future__ import annotations

import re
import unicodedata

ADDRESS_MAX = 55  # leaves room for "-2" … when the address is taken

_VOWELS = {
    "അ": "a", "ആ": "a", "ഇ": "i", "ഈ": "i", "ഉ": "u", "ഊ": "u", "ഋ": "ru",
    "എ": "e", "ഏ": "e", "ഐ": "ai", "ഒ": "o", "ഓ": "o", "ഔ": "au",
    "ഌ": "lu", "ൠ": "ru", "ൡ": "lu", "ൟ": "i", "ഽ": "a", "ഄ": "m",
}  # fmt: skip
_SIGNS = {
    "\u0d3e": "a", "\u0d3f": "i", "\u0d40": "i", "\u0d41": "u", "\u0d42": "u",
    "\u0d43": "ru", "\u0d46": "e", "\u0d47": "e", "\u0d48": "ai", "\u0d4a": "o",
    "\u0d4b": "o", "\u0d4c": "au", "\u0d57": "au",
}  # fmt: skip
_CONSONANTS = {
    "ക": "k", "ഖ": "kh", "ഗ": "g", "ഘ": "gh", "ങ": "ng",
    "ച": "ch", "ഛ": "chh", "ജ": "j", "ഝ": "jh", "ഞ": "nj",
    "ട": "t", "ഠ": "th", "ഡ": "d", "ഢ": "dh", "ണ": "n",
    "ത": "th", "ഥ": "thh", "ദ": "d", "ധ": "dh", "ന": "n",
    "പ": "p", "ഫ": "ph", "ബ": "b", "ഭ": "bh", "മ": "m",
    "യ": "y", "ര": "r", "റ": "r", "ല": "l", "ള": "l", "ഴ": "zh", "വ": "v",
    "ശ": "sh", "ഷ": "sh", "സ": "s", "ഹ": "h", "ഩ": "n", "ഺ": "tt",
}  # fmt: skip
_CHILLU = {
    "\u0d7a": "n", "\u0d7b": "n", "\u0d7c": "r", "\u0d7d": "l", "\u0d7e": "l",
    "\u0d7f": "k", "\u0d02": "m", "\u0d03": "h", "\u0d4e": "r", "\u0d54": "m",
    "\u0d55": "y", "\u0d56": "zh", "\u0d43": "ru", "\u0d44": "ru", "\u0d62": "lu",
    "\u0d63": "lu",
}  # fmt: skip
# Clusters read otherwise than letter by letter: ന്റ "nt" (ente), റ്റ "tt".
_CLUSTERS = {"ന\u0d4dറ": "nt", "റ\u0d4dറ": "tt"}
_VIRAMA = "\u0d4d"
_JOINERS = "\u200c\u200d"


def romanize(text: str) -> str:
    """Malayalam read in Latin letters; every other character kept as it is."""
    text = unicodedata.normalize("NFC", text)
    out: list[str] = []
    i = 0
    while i < len(text):
        cluster = text[i : i + 3]
        if cluster in _CLUSTERS:
            consonant, i = _CLUSTERS[cluster], i + 3
        elif text[i] in _CONSONANTS:
            consonant, i = _CONSONANTS[text[i]], i + 1
        else:
            char = text[i]
            i += 1
            if char in _VOWELS:
                out.append(_VOWELS[char])
            elif char in _CHILLU:
                out.append(_CHILLU[char])
            elif char in _SIGNS or char == _VIRAMA or char in _JOINERS:
                continue  # a sign with no consonant before it: nothing to read
            elif "\u0d66" <= char <= "\u0d6f":
                out.append(str(ord(char) - 0x0D66))
            else:
                out.append(char)
            continue
        # A consonant: its vowel sign, none after a virama, else the inherent "a".
        out.append(consonant)
        following = text[i : i + 1]
        if following in _SIGNS:
            out.append(_SIGNS[following])
            i += 1
        elif following == _VIRAMA:
            i += 1
            while text[i : i + 1] and text[i] in _JOINERS:
                i += 1
        else:
            out.append("a")
    return "".join(out)


def address_from_name(name: str) -> str:
    """The address a name gives: romanized, folded to a–z and digits, words joined
    by hyphens, at most ADDRESS_MAX characters; "" for a name with nothing to read
    (the service then says "tournament")."""
    text = unicodedata.normalize("NFKD", romanize(name).casefold())
    text = text.encode("ascii", "ignore").decode()
    # As Django's slugify: a mark inside a word goes ("Sam's" → "sams"), spaces
    # and hyphens between words become one hyphen.
    text = re.sub(r"[^a-z0-9\s-]", "", text)
    address = re.sub(r"[-\s]+", "-", text).strip("-")[:ADDRESS_MAX]
    return address.strip("-")
