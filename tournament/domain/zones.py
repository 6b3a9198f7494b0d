"""A tournament's time zone: an IANA name (`America/New_York`) that every time its
pages, printouts and workbook show is told in (docs/decisions.md, "Time zones").

Plain Python over the standard library's `zoneinfo`: which names are accepted, and
how a moment is named so that it cannot be misread ("11:37 EST").
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, tzinfo
from functools import cache

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
    """A zone's name as a place ("New York" for America/New_York; "UTC")."""
    return name.rsplit("/", 1)[-1].replace("_", " ")
