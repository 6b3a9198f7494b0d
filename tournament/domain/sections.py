"""Which section a team plays in (rules.md §5, 000 §6.1), and the names it is decided
by.

A team belongs to the section of its captain: a captain outside the USA puts the team in
"International"; inside, the section that lists the captain's city wins, else the
section that lists the captain's state. A US team that matches no section is refused,
naming its state and the sections there are. Country names ("USA", "United States",
"U.S.") and state names or codes ("nj", "New Jersey") are normalised first.

It does not store anything or move teams: the organizer's move is a service that
bypasses `place_team` on purpose.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .errors import RuleError, RuleErrors, filled, gettext_noop

USA = "USA"
INTERNATIONAL = "International"

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
    state: str  # a US state code once normalised; "" outside the USA
    country: str  # "USA" once normalised


@dataclass(frozen=True)
class SectionArea:
    """A section as placement sees it: its key, name, and the places it lists."""

    key: object  # the caller's identifier (a primary key); returned untouched
    name: str
    states: tuple[str, ...] = ()
    cities: tuple[str, ...] = ()
    international: bool = False


def _fold(text: str) -> str:
    """Case, accents, dots, commas and runs of spaces do not distinguish two names."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[.,'’]", " ", text.casefold())
    return " ".join(text.split())


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


def normalize_country(country: str) -> str:
    """'USA' for every spelling of the United States; any other country as typed,
    trimmed."""
    folded = _fold(country)
    if folded in _USA_NAMES:
        return USA
    return clean_name(country)


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
        gettext_noop(
            "'%(given)s' is not a US state; use a two-letter code such as NJ or TX"
        ),
        field="state",
        state=state,
        given=clean_name(state),
    )


def city_key(city: str) -> str:
    """The form in which two spellings of a city compare equal ('St. Louis' = 'st
    louis')."""
    return _fold(city)


def normalize_captain(*, name: str, city: str, state: str, country: str) -> Captain:
    """The captain with country and state normalised; errors name each field."""
    errors: list[RuleError] = []
    name, city = clean_name(name), clean_name(city)
    country_n = normalize_country(country or "")
    if not name:
        errors.append(
            RuleError(
                "required", gettext_noop("the captain's name is required"), field="name"
            )
        )
    if not country_n:
        errors.append(
            RuleError(
                "required",
                gettext_noop("the captain's country is required"),
                field="country",
            )
        )
    state_n = ""
    if country_n == USA:
        if not city:
            errors.append(
                RuleError(
                    "required",
                    gettext_noop("a captain in the USA needs a city"),
                    field="city",
                )
            )
        if not clean_name(state or ""):
            errors.append(
                RuleError(
                    "required",
                    gettext_noop(
                        "a captain in the USA needs a state (the section"
                        " follows the captain's city or state)"
                    ),
                    field="state",
                )
            )
        else:
            try:
                state_n = normalize_state(state)
            except RuleError as error:
                errors.append(error)
    if errors:
        raise RuleErrors(errors)
    return Captain(name=name, city=city, state=state_n, country=country_n)


def place_team(
    captain: Captain, sections: Sequence[SectionArea]
) -> tuple[object, Placement]:
    """The key of the section the captain's team plays in, and why (rules.md §5)."""
    if captain.country != USA:
        for section in sections:
            if section.international:
                return section.key, Placement.INTERNATIONAL
        raise AssertionError("every tournament has an International section")
    city = city_key(captain.city)
    for section in sections:
        if not section.international and city in {city_key(c) for c in section.cities}:
            return section.key, Placement.CITY
    for section in sections:
        if not section.international and captain.state in section.states:
            return section.key, Placement.STATE
    us_sections = [s for s in sections if not s.international]
    if us_sections:
        listing = "; ".join(
            f"{s.name} ({', '.join(s.states + s.cities) or '–'})" for s in us_sections
        )
        known = filled(gettext_noop("The sections are: %(listing)s."), listing=listing)
    else:
        known = gettext_noop("The tournament has no US section yet.")
    raise RuleError(
        "no_section",
        gettext_noop(
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


def check_section_areas(sections: Iterable[SectionArea]) -> None:
    """A state or a city may be listed by one section only; International lists none."""
    errors: list[RuleError] = []
    owners: dict[tuple[str, str], str] = {}  # (kind, folded place) → section name
    for section in sections:
        if section.international and (section.states or section.cities):
            errors.append(
                RuleError(
                    "international_lists_places",
                    gettext_noop(
                        "International takes every team from outside the USA; it "
                        "lists no states or cities"
                    ),
                    field="states",
                )
            )
        claims = [("state", "states", state, state) for state in section.states]
        claims += [("city", "cities", city, city_key(city)) for city in section.cities]
        for kind, field, shown, key in claims:
            owner = owners.setdefault((kind, key), section.name)
            if owner != section.name:
                errors.append(
                    RuleError(
                        f"{kind}_taken",
                        gettext_noop(
                            "%(shown)s is already listed by section %(owner)s"
                        ),
                        field=field,
                        **{kind: shown},
                        shown=shown,
                        owner=owner,
                    )
                )
    if errors:
        raise RuleErrors(errors)


def normalize_areas(
    states: Iterable[str], cities: Iterable[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A section's states as sorted unique codes and cities as unique trimmed names."""
    errors: list[RuleError] = []
    codes: set[str] = set()
    for state in states:
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
                    "blank", gettext_noop("a city name cannot be blank"), field="cities"
                )
            )
            continue
        seen.setdefault(city_key(name), name)
    if errors:
        raise RuleErrors(errors)
    return tuple(sorted(codes)), tuple(seen.values())


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
            "blank", gettext_noop("a player's name cannot be blank"), field="players"
        )
    folded = [_fold(n) for n in names]
    if len(set(folded)) != len(folded):
        raise RuleError(
            "duplicate_player",
            gettext_noop("a player is listed twice"),
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
            gettext_noop(
                "a team has %(team_size)s players in this tournament (captain "
                "included); this one has %(size)s"
            ),
            field="players",
            size=len(names),
            team_size=team_size,
        )
    return tuple(names)
