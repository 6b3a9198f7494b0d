"""Times as the pages tell them: in the tournament's zone (activated by the view,
tournament/web/zones.py), on the 24-hour clock, with the zone named so that a visitor
from another zone cannot misread them: {{ team.checked_in_at|clock }} gives
"11:37 EST", {{ d.raised_at|clock:"j M H:i" }} "26 Nov 11:37 EST", and
{% clock_now "H:i:s" %} the moment the page was made;
{{ tournament.time_zone|zone_label }} the zone as a person reads it
("New York (America)")."""

from django import template
from django.utils import timezone

from tournament.web.zones import told_html
from tournament.words import zone_label as _zone_label

register = template.Library()


@register.filter(expects_localtime=True)
def clock(value, fmt: str = "H:i") -> str:
    if not value:
        return ""
    return told_html(value, fmt)


@register.simple_tag
def clock_now(fmt: str = "H:i") -> str:
    return told_html(timezone.now(), fmt)


@register.filter
def zone_label(name: str) -> str:
    return _zone_label(str(name or ""))
