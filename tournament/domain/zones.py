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

from .errors import RuleError, gettext_noop

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
            gettext_noop("a tournament needs a time zone (such as America/New_York)"),
            field="time_zone",
        )
    if len(name) > MAX_LENGTH or name not in zone_names():
        raise RuleError(
            "time_zone_unknown",
            gettext_noop(
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


def _table_texts() -> Iterable[str]:
    """zone.tab as the system's tz database holds it, then as the tzdata wheel does."""
    for directory in zoneinfo.TZPATH:
        try:
            yield (Path(directory) / ZONE_TABLE).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    try:
        yield (
            resources.files("tzdata.zoneinfo")
            .joinpath(ZONE_TABLE)
            .read_text(encoding="utf-8")
        )
    except (ModuleNotFoundError, OSError, UnicodeDecodeError):
        return


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
