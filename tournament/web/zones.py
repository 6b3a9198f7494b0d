"""Times told in the tournament's time zone (docs/decisions.md, "Time zones").

The database keeps every moment in UTC. A page under a tournament (its tabs, a
match's page and its polls, a table's or team's link, a printout) activates the
tournament's zone as soon as the view has found the tournament
(`tournament_zone_activate`, called by the views' loaders); `TournamentTimeZone`
puts the site's zone back around every request, and UTC under /api/, whose times are
ISO 8601 in UTC ("…Z") whatever the site's zone. The workbook, built by a worker
with no request, converts with `told` and `local`.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.utils import dateformat, timezone
from django.utils.html import format_html

from tournament.domain.zones import zone, zone_abbreviation
from tournament.web.answers import API

UTC = ZoneInfo("UTC")


def tournament_zone_activate(tournament) -> None:
    """From here on this request tells times in the tournament's zone."""
    timezone.activate(zone(tournament.time_zone))


def local(moment: datetime, time_zone: str | None = None) -> datetime:
    """An aware moment in `time_zone` (the active zone when None)."""
    return timezone.localtime(moment, zone(time_zone) if time_zone else None)


def zone_named(moment: datetime, time_zone: str) -> str:
    """A zone as a sheet names it: "America/New_York (EST)"."""
    return f"{time_zone} ({zone_abbreviation(local(moment, time_zone))})"


def told(moment: datetime, fmt: str = "H:i", time_zone: str | None = None) -> str:
    """A moment as a reader reads it, with its zone named: "11:37 EST",
    "26 Nov 2026 11:37 EST" (`fmt` in Django's date format, in the page's
    language)."""
    at = local(moment, time_zone)
    return f"{dateformat.format(at, fmt)} {zone_abbreviation(at)}"


def mailed(moment: datetime, time_zone: str) -> str:
    """A moment as a mail tells it: in English (a mail has no page's language), in
    `time_zone`, the zone named as the pages name it and by its place, since the
    reader may be elsewhere: "03 Dec 2026 09:41 EST (America/New_York)"."""
    at = local(moment, time_zone)
    said = zone_abbreviation(at)
    place = f" ({time_zone})" if time_zone != said else ""
    return f"{at:%d %b %Y %H:%M} {said}{place}"


def told_html(moment: datetime, fmt: str = "H:i") -> str:
    """`told` inside a <time> whose machine-readable value carries the offset and
    whose title names the zone ("America/New_York")."""
    at = local(moment)
    return format_html(
        '<time datetime="{}" title="{}">{}</time>',
        at.isoformat(timespec="seconds"),
        timezone.get_current_timezone_name(),
        told(at, fmt),
    )


class TournamentTimeZone:
    """Each request starts in the site's zone (UTC under /api/) and leaves none
    behind for the next one on this thread."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith(API):
            timezone.activate(UTC)
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
