"""Which section a team plays in (rules.md §5, 000 §6.1), and the names it is decided
by.

A tournament has a home country (the USA unless it says otherwise: 000 §6.1 is written
for the USA). A team belongs to the section of its captain: a captain from outside the
home country puts the team in "International"; a captain from the home country is
placed by the section that lists the captain's city, else by the section that lists
the captain's state or region. In the USA a state is a US state code ("nj" and "New
Jersey" are NJ); elsewhere a region is kept as the organizer writes it and matched
without regard to case, spaces, hyphens, accents or script variants (NFKC, Malayalam
chillu letters in either encoding). A home team that matches no section is refused,
naming its city, its state or region and the sections there are. Country names
("USA", "United States", "U.S."; "UAE", "United Arab Emirates"; "Bharat", "India")
are normalised to one name first.

Vocabulary: the *home country* is the tournament's; a *region* is a state outside the
USA (Kerala, Dubai); an *area* is what a section lists (its states or regions, and
cities).

It does not store anything or move teams: the organizer's move is a service that
bypasses `place_team` on purpose.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .errors import RuleError, RuleErrors, filled, marked

USA = "USA"
INTERNATIONAL = "International"
COUNTRY_MAX = 60
REGION_MAX = 80

US_STATES: dict[str, str] = {
    "AL": "Alabama",
    "AK": "Alaska",
    "AZ": "Arizona",
    "AR": "Arkansas",
    "CA": "California",
    "CO": "Colorado",
    "CT": "Connecticut",
    "DE": "Delaware",
    "DC": "District of Columbia",
    "FL": "Florida",
    "GA": "Georgia",
    "HI": "Hawaii",
    "ID": "Idaho",
    "IL": "Illinois",
    "IN": "Indiana",
    "IA": "Iowa",
    "KS": "Kansas",
    "KY": "Kentucky",
    "LA": "Louisiana",
    "ME": "Maine",
    "MD": "Maryland",
    "MA": "Massachusetts",
    "MI": "Michigan",
    "MN": "Minnesota",
    "MS": "Mississippi",
    "MO": "Missouri",
    "MT": "Montana",
    "NE": "Nebraska",
    "NV": "Nevada",
    "NH": "New Hampshire",
    "NJ": "New Jersey",
    "NM": "New Mexico",
    "NY": "New York",
    "NC": "North Carolina",
    "ND": "North Dakota",
    "OH": "Ohio",
    "OK": "Oklahoma",
    "OR": "Oregon",
    "PA": "Pennsylvania",
    "RI": "Rhode Island",
    "SC": "South Carolina",
    "SD": "South Dakota",
    "TN": "Tennessee",
    "TX": "Texas",
    "UT": "Utah",
    "VT": "Vermont",
    "VA": "Virginia",
    "WA": "Washington",
    "WV": "West Virginia",
    "WI": "Wisconsin",
    "WY": "Wyoming",
    "PR": "Puerto Rico",
    "GU": "Guam",
    "VI": "U.S. Virgin Islands",
    "AS": "American Samoa",
    "MP": "Northern Mariana Islands",
}


# Spellings of the United States a registration form sees; compared after _fold().
_USA_NAMES = {
    "usa",
    "us",
    "u s",
    "u s a",
    "united states",
    "united states of america",
    "america",
    "the united states",
    "the united states of america",
    "unitedstates",
}


# Common spellings of other countries, each to one name (compared after _fold()), so
# that "UAE" and "United Arab Emirates" are one country, not two. A country missing
# here is kept as typed.
_COUNTRY_NAMES = {
    "United Arab Emirates": (
        "uae",
        "u a e",
        "united arab emirates",
        "the united arab emirates",
        "emirates",
    ),
    "United Kingdom": (
        "uk",
        "u k",
        "united kingdom",
        "the united kingdom",
        "great britain",
        "britain",
        "gb",
        "united kingdom of great britain and northern ireland",
    ),
    "India": ("india", "bharat", "republic of india", "ഇന്ത്യ", "भारत"),
    "Saudi Arabia": ("saudi arabia", "ksa", "kingdom of saudi arabia", "saudi"),
    "Canada": ("canada",),
    "Australia": ("australia",),
    "New Zealand": ("new zealand", "nz"),
    "Qatar": ("qatar",),
    "Oman": ("oman", "sultanate of oman"),
    "Kuwait": ("kuwait",),
    "Bahrain": ("bahrain",),
    "Singapore": ("singapore",),
    "Germany": ("germany", "deutschland"),
    "Ireland": ("ireland", "republic of ireland"),
}


class Placement(StrEnum):
    """Why a team is in its section."""

    CITY = "city"
    STATE = "state"
    INTERNATIONAL = "international"
    ORGANIZER = "organizer"


@dataclass(frozen=True)
class Captain:
    name: str
    city: str
    # A US state code for a captain in the USA; the region as written (trimmed) for
    # a captain elsewhere; "" when none was given.
    state: str
    country: str  # one name per country once normalised ("USA", "India")


@dataclass(frozen=True)
class SectionArea:
    """A section as placement sees it: its key, name, and the places it lists."""

    key: object  # the caller's identifier (a primary key); returned untouched
    name: str
    states: tuple[str, ...] = ()  # US state codes in the USA, else regions as written
    cities: tuple[str, ...] = ()
    international: bool = False


# Malayalam chillu letters have two encodings: the atomic letter (U+0D7A..U+0D7F) and
# the consonant + virama + zero width joiner of Unicode 5.0 and before; NFKC keeps
# them apart, so they are joined here.
_CHILLU = {
    "\u0d23\u0d4d\u200d": "\u0d7a",
    "\u0d28\u0d4d\u200d": "\u0d7b",
    "\u0d30\u0d4d\u200d": "\u0d7c",
    "\u0d32\u0d4d\u200d": "\u0d7d",
    "\u0d33\u0d4d\u200d": "\u0d7e",
    "\u0d15\u0d4d\u200d": "\u0d7f",
}
_JOINERS = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")


def _fold(text: str) -> str:
    """Case, accents, dots, commas, compatibility forms (NFKC: a fullwidth 'ＮＪ' is
    NJ), Malayalam chillu encodings and runs of spaces do not distinguish two
    names."""
    text = unicodedata.normalize("NFKD", str(text))
    # the accents of the Latin script only: a Malayalam or Devanagari vowel sign or
    # virama is part of the letter, not an accent
    text = "".join(ch for ch in text if not "\u0300" <= ch <= "\u036f")
    text = unicodedata.normalize("NFKC", text)
    for sequence, letter in _CHILLU.items():
        text = text.replace(sequence, letter)
    text = _JOINERS.sub("", text)
    text = re.sub(r"[.,'’]", " ", text.casefold())
    return " ".join(text.split())


def area_key(text: str) -> str:
    """The form in which two spellings of a city or region compare equal: folded as
    `_fold`, and spaces, hyphens and underscores left out ('Kerala-North' =
    'kerala north' = 'KERALA NORTH')."""
    return re.sub(r"[\s\-_‐‑–—]", "", _fold(text))


# State names compared in the same folded form as what is typed ("U.S. Virgin Islands").
_STATE_BY_NAME = {_fold(name): code for code, name in US_STATES.items()}
_STATE_BY_NAME |= {
    "virgin islands": "VI",
    "washington dc": "DC",
    "washington d c": "DC",
}


def clean_name(text: str) -> str:
    """A person's, team's or place's name as typed, trimmed and with single spaces."""
    return " ".join(str(text).split())


def known_countries() -> tuple[str, ...]:
    """The countries whose common spellings are known, each by its one name, for a
    form to suggest (any other name is still accepted as typed)."""
    return (USA, *sorted(_COUNTRY_NAMES))


_COUNTRY_BY_NAME = {
    _fold(alias): name for name, aliases in _COUNTRY_NAMES.items() for alias in aliases
}


def normalize_country(country: str) -> str:
    """'USA' for every spelling of the United States, one name for the common
    spellings of some other countries ('UAE' is 'United Arab Emirates'); any other
    country as typed, trimmed."""
    folded = _fold(country)
    if folded in _USA_NAMES:
        return USA
    return _COUNTRY_BY_NAME.get(folded) or clean_name(country)


def same_country(one: str, other: str) -> bool:
    """Whether two country names, as typed, name one country."""
    return _fold(normalize_country(one)) == _fold(normalize_country(other))


def check_home_country(country: str) -> str:
    """A tournament's home country as stored (normalised), or a refusal naming the
    field `home_country`."""
    name = normalize_country(country or "")
    if not name:
        raise RuleError(
            "required",
            marked(
                "a tournament needs a home country (USA unless it is played "
                "elsewhere: India for a Kerala championship)"
            ),
            field="home_country",
        )
    if len(name) > COUNTRY_MAX:
        raise RuleError(
            "too_long",
            marked("a country's name has at most %(limit)s characters"),
            field="home_country",
            limit=COUNTRY_MAX,
        )
    return name


def normalize_state(state: str) -> str:
    """A US state's two-letter code from its code or name, any case; RuleError
    otherwise."""
    folded = _fold(state)
    code = folded.replace(" ", "").upper()
    if len(code) == 2 and code in US_STATES:
        return code
    if folded in _STATE_BY_NAME:
        return _STATE_BY_NAME[folded]
    raise RuleError(
        "unknown_state",
        marked("'%(given)s' is not a US state; use a two-letter code such as NJ or TX"),
        field="state",
        state=state,
        given=clean_name(state),
    )


def city_key(city: str) -> str:
    """The form in which two spellings of a city compare equal ('St. Louis' = 'st
    louis')."""
    return area_key(city)


def normalize_captain(
    *, name: str, city: str, state: str, country: str, home: str = USA
) -> Captain:
    """The captain with country and state normalised; errors name each field.

    A captain from the home country needs a city (and, in the USA, a state: the
    section follows the city or the state). A captain in the USA gives a state code
    or name wherever the tournament is; a captain elsewhere a region as written, or
    none."""
    errors: list[RuleError] = []
    name, city = clean_name(name), clean_name(city)
    country_n = normalize_country(country or "")
    home = normalize_country(home)
    if not name:
        errors.append(
            RuleError(
                "required", marked("the captain's name is required"), field="name"
            )
        )
    if not country_n:
        errors.append(
            RuleError(
                "required",
                marked("the captain's country is required"),
                field="country",
            )
        )
    at_home = bool(country_n) and same_country(country_n, home)
    state_n = ""
    given_state = clean_name(state or "")
    if at_home and not city:
        message = (
            marked("a captain in the USA needs a city")
            if home == USA
            else marked(
                "a captain from %(country)s needs a city (the section follows the "
                "captain's city or region)"
            )
        )
        errors.append(RuleError("required", message, field="city", country=home))
    if country_n == USA:
        if not given_state:
            if at_home:
                errors.append(
                    RuleError(
                        "required",
                        marked(
                            "a captain in the USA needs a state (the section"
                            " follows the captain's city or state)"
                        ),
                        field="state",
                    )
                )
        else:
            try:
                state_n = normalize_state(given_state)
            except RuleError as error:
                errors.append(error)
    elif len(given_state) > REGION_MAX:
        errors.append(
            RuleError(
                "too_long",
                marked("a state or region has at most %(limit)s characters"),
                field="state",
                limit=REGION_MAX,
            )
        )
    else:
        state_n = given_state
    if errors:
        raise RuleErrors(errors)
    return Captain(name=name, city=city, state=state_n, country=country_n)


def place_team(
    captain: Captain, sections: Sequence[SectionArea], home: str = USA
) -> tuple[object, Placement]:
    """The key of the section the captain's team plays in, and why (rules.md §5):
    outside the home country, International; at home, the section listing the
    captain's city, else the one listing the captain's state or region."""
    if not same_country(captain.country, home):
        for section in sections:
            if section.international:
                return section.key, Placement.INTERNATIONAL
        raise AssertionError("every tournament has an International section")
    home_sections = [s for s in sections if not s.international]
    city = city_key(captain.city)
    for section in home_sections:
        if city in {city_key(c) for c in section.cities}:
            return section.key, Placement.CITY
    region = area_key(captain.state)
    if region:
        for section in home_sections:
            if region in {area_key(s) for s in section.states}:
                return section.key, Placement.STATE
    if home_sections:
        listing = "; ".join(
            f"{s.name} ({', '.join(s.states + s.cities) or '–'})" for s in home_sections
        )
        known = filled(marked("The sections are: %(listing)s."), listing=listing)
    elif normalize_country(home) == USA:
        known = marked("The tournament has no US section yet.")
    else:
        known = filled(
            marked("The tournament has no section for %(country)s yet."),
            country=normalize_country(home),
        )
    if normalize_country(home) == USA:
        raise RuleError(
            "no_section",
            marked(
                "No section takes a team from %(city)s, %(state)s (%(state_name)s). "
                "%(known)s Add %(state)s, or the city, to a section first."
            ),
            field="state",
            state=captain.state,
            sections=[s.name for s in sections],
            city=captain.city,
            state_name=US_STATES[captain.state],
            known=known,
        )
    if captain.state:
        raise RuleError(
            "no_section",
            marked(
                "No section takes a team from %(city)s, %(state)s. %(known)s Add "
                "%(state)s, or the city, to a section first."
            ),
            field="state",
            state=captain.state,
            sections=[s.name for s in sections],
            city=captain.city,
            known=known,
        )
    raise RuleError(
        "no_section",
        marked(
            "No section takes a team from %(city)s. %(known)s Add the city to a "
            "section, or give the captain's state or region."
        ),
        field="city",
        state="",
        sections=[s.name for s in sections],
        city=captain.city,
        known=known,
    )


def check_section_areas(sections: Iterable[SectionArea]) -> None:
    """A state, region or city may be listed by one section only; International
    lists none."""
    errors: list[RuleError] = []
    owners: dict[tuple[str, str], str] = {}  # (kind, folded place) → section name
    for section in sections:
        if section.international and (section.states or section.cities):
            errors.append(
                RuleError(
                    "international_lists_places",
                    marked(
                        "International takes every team from outside the "
                        "tournament's home country; it lists no states, regions "
                        "or cities"
                    ),
                    field="states",
                )
            )
        claims = [
            ("state", "states", state, area_key(state)) for state in section.states
        ]
        claims += [("city", "cities", city, city_key(city)) for city in section.cities]
        for kind, field, shown, key in claims:
            owner = owners.setdefault((kind, key), section.name)
            if owner != section.name:
                errors.append(
                    RuleError(
                        f"{kind}_taken",
                        marked("%(shown)s is already listed by section %(owner)s"),
                        field=field,
                        **{kind: shown},
                        shown=shown,
                        owner=owner,
                    )
                )
    if errors:
        raise RuleErrors(errors)


def normalize_areas(
    states: Iterable[str], cities: Iterable[str], home: str = USA
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A section's states and cities as stored: in the USA, states as sorted unique
    codes; elsewhere, regions as written (trimmed), each once; cities as unique
    trimmed names, the first spelling kept."""
    errors: list[RuleError] = []
    in_usa = normalize_country(home) == USA
    codes: set[str] = set()
    regions: dict[str, str] = {}
    for state in states:
        if not in_usa:
            region = clean_name(state)
            if not region:
                continue
            if len(region) > REGION_MAX:
                errors.append(
                    RuleError(
                        "too_long",
                        marked("a state or region has at most %(limit)s characters"),
                        field="states",
                        limit=REGION_MAX,
                    )
                )
                continue
            regions.setdefault(area_key(region), region)
            continue
        try:
            codes.add(normalize_state(state))
        except RuleError as error:
            errors.append(RuleError(error.code, error.message, field="states"))
    seen: dict[str, str] = {}
    for city in cities:
        name = clean_name(city)
        if not name:
            errors.append(
                RuleError(
                    "blank", marked("a city name cannot be blank"), field="cities"
                )
            )
            continue
        seen.setdefault(city_key(name), name)
    if errors:
        raise RuleErrors(errors)
    areas = tuple(sorted(codes)) if in_usa else tuple(regions.values())
    return areas, tuple(seen.values())


def roster(
    captain_name: str, players: Iterable[str], team_size: int
) -> tuple[str, ...]:
    """The team's players, captain first, checked against the tournament's team size.

    The captain plays: when the list of players leaves the captain out, the captain is
    added in front (rules.md §1: players per team counts everyone who plays, captain
    included).
    """
    names = [clean_name(p) for p in players]
    if any(not n for n in names):
        raise RuleError(
            "blank", marked("a player's name cannot be blank"), field="players"
        )
    folded = [_fold(n) for n in names]
    if len(set(folded)) != len(folded):
        raise RuleError(
            "duplicate_player",
            marked("a player is listed twice"),
            field="players",
        )
    captain = clean_name(captain_name)
    if _fold(captain) in folded:
        names.insert(0, names.pop(folded.index(_fold(captain))))
    else:
        names.insert(0, captain)
    if len(names) != team_size:
        raise RuleError(
            "team_size",
            marked(
                "a team has %(team_size)s players in this tournament (captain "
                "included); this one has %(size)s"
            ),
            field="players",
            size=len(names),
            team_size=team_size,
        )
    return tuple(names)
