"""A tournament's time zone: an IANA name (`America/New_York`) that every time its
pages, printouts and workbook show is told in (docs/decisions.md, "Time zones").

Plain Python over the standard library's `zoneinfo`: which names are accepted, and
how a moment is named so that it cannot be misread ("11:37 EST").
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterable
from datetime import datetime, tzinfo
from functools import cache
from importlib import resources
from pathlib import Path

from .errors import RuleError, marked
from .sections import normalize_country

# Names the tz database holds that are not a place's zone: the machine's own setting
# and the database's internal files.
_NOT_ZONES = frozenset({"localtime", "posixrules", "Factory"})
MAX_LENGTH = 64


@cache
def zone_names() -> frozenset[str]:
    """Every IANA name a tournament may take (the tz database of this machine)."""
    return frozenset(zoneinfo.available_timezones() - _NOT_ZONES)


def check_time_zone(name: str) -> str:
    """`name` as stored, or a refusal naming the field `time_zone` and the rule."""
    name = name.strip()
    if not name:
        raise RuleError(
            "required",
            marked("a tournament needs a time zone (such as America/New_York)"),
            field="time_zone",
        )
    if len(name) > MAX_LENGTH or name not in zone_names():
        raise RuleError(
            "time_zone_unknown",
            marked(
                "'%(time_zone)s' is not a time zone: give an IANA name such as "
                "America/New_York or Asia/Kolkata"
            ),
            field="time_zone",
            time_zone=name[:MAX_LENGTH],
        )
    return name


def zone(name: str) -> tzinfo:
    """The zone of an accepted name (UTC for one this machine no longer knows)."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def zone_abbreviation(moment: datetime) -> str:
    """The short name of an aware moment's zone at that moment, for a reader: "EST",
    "IST", "UTC"; where the tz database has only an offset ("+04"), "UTC+04"."""
    name = moment.tzname() or "UTC"
    if name[:1] in "+-":
        minutes = name[3:]
        return f"UTC{name[:3]}{':' + minutes if minutes else ''}"
    return name


def zone_place(name: str) -> str:
    """A zone's name as a place, its sub-zone named in full: "New York" for
    America/New_York, "North Dakota – Center" for America/North_Dakota/Center,
    "Argentina – Buenos Aires"; "UTC" for UTC."""
    parts = name.split("/")
    places = parts[1:] if len(parts) > 1 else parts
    return " – ".join(part.replace("_", " ") for part in places)


def zone_region(name: str) -> str:
    """The region a zone's name starts with ("America"; "" for "UTC")."""
    region, slash, _place = name.partition("/")
    return region if slash else ""


# The tz database's table of the zones a person chooses from: one line per country
# and zone, canonical names only (Asia/Kolkata, not its old alias Asia/Calcutta).
# Debian's tzdata package and the `tzdata` wheel (which zoneinfo falls back to where
# the system has no tz database, as in a slim container) both ship it.
ZONE_TABLE = "zone.tab"


def zones_of_table(text: str) -> list[str]:
    """The zone names of a zone.tab text (its third column), in the table's order."""
    names = []
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        columns = line.split("\t")
        if len(columns) >= 3:
            names.append(columns[2].strip())
    return names


def _table_texts(table: str = ZONE_TABLE) -> Iterable[str]:
    """A table of the tz database (zone.tab, iso3166.tab) as the system's holds it,
    then as the tzdata wheel does."""
    for directory in zoneinfo.TZPATH:
        try:
            yield (Path(directory) / table).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    try:
        yield (
            resources.files("tzdata.zoneinfo")
            .joinpath(table)
            .read_text(encoding="utf-8")
        )
    except (ModuleNotFoundError, OSError, UnicodeDecodeError):
        return


# The tz database's table of country codes and their English names ("IN\tIndia").
COUNTRY_TABLE = "iso3166.tab"


def countries_of_table(zone_text: str, country_text: str) -> dict[str, str]:
    """Each zone of a zone.tab text with its country's name from an iso3166.tab text
    ("Asia/Kolkata": "India"); a zone whose code the second table lacks is left
    out."""
    names: dict[str, str] = {}
    for line in country_text.splitlines():
        code, tab, name = line.partition("\t")
        if tab and not line.startswith("#"):
            names[code.strip()] = name.strip()
    found: dict[str, str] = {}
    for line in zone_text.splitlines():
        columns = line.split("\t")
        if line.startswith("#") or len(columns) < 3:
            continue
        country = names.get(columns[0].strip())
        if country:
            found[columns[2].strip()] = country
    return found


@cache
def zone_countries() -> dict[str, str]:
    """Each listed zone's country, by the name `normalize_country` gives it (a
    captain's country and a tournament's home country are compared in it): "India"
    for Asia/Kolkata, "USA" for America/New_York. Empty without the tables."""
    for zone_text in _table_texts():
        for country_text in _table_texts(COUNTRY_TABLE):
            found = countries_of_table(zone_text, country_text)
            if found:
                return {z: normalize_country(c) for z, c in found.items()}
    return {}


def home_zone(country: str) -> str | None:
    """The one zone of a country that has one (India: Asia/Kolkata; United Arab
    Emirates: Asia/Dubai); None for a country of several zones (the USA) or one the
    tables do not know."""
    wanted = normalize_country(country).casefold()
    zones = [z for z, c in zone_countries().items() if c.casefold() == wanted]
    return zones[0] if len(zones) == 1 else None


def zone_choice_label(name: str, moment: datetime) -> str:
    """A zone as a list offers it, so that its place, its country and its short name
    can each be found: "Kolkata · India · IST" (at `moment`: a zone's short name
    changes with summer time), "Dubai · United Arab Emirates · UTC+04"."""
    parts = [zone_place(name)]
    country = zone_countries().get(name)
    if country:
        parts.append(country)
    parts.append(zone_abbreviation(moment.astimezone(zone(name))))
    return " · ".join(dict.fromkeys(parts))


@cache
def listed_zone_names() -> tuple[str, ...]:
    """The zones a list offers, sorted: the canonical ones of the tz database's
    zone.tab that this machine knows, and UTC. Without a zone.tab, every name with a
    region but an old alias's region ("US/Eastern"), so that the list still offers
    the world. Any name of `zone_names` stays accepted (an alias typed via the API)."""
    known = zone_names()
    for text in _table_texts():
        names = {name for name in zones_of_table(text) if name in known}
        if names:
            return tuple(sorted(names | {"UTC"} & known))
    regions = {"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic"}
    regions |= {"Australia", "Europe", "Indian", "Pacific"}
    fallback = {name for name in known if zone_region(name) in regions}
    return tuple(sorted(fallback | {"UTC"} & known))
