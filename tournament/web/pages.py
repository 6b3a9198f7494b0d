"""What every page of every app shares: the tournament a page shows and the caller's
roles in it (404 when hidden, its times in its zone), an htmx request told apart, a
live part's ETag and its 304, and a form's POST answered with a message or its
errors (docs/architecture.md)."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import get_language

from tournament.domain.errors import RuleError, RuleErrors
from tournament.domain.types import Role
from tournament.models import Tournament
from tournament.selectors import tournament_get_visible, tournament_roles
from tournament.web.etags import etag_sent
from tournament.web.zones import tournament_zone_activate
from tournament.words import refusal


def htmx_request(request: HttpRequest) -> bool:
    """An htmx request (a poll or a swap) wants only the part it replaces."""
    return request.headers.get("HX-Request") == "true"


def live_etag(request: HttpRequest, *shown: object) -> str:
    """The ETag of a part of a page that refreshes itself while play goes on: what it
    shows (`shown`: versions, statuses, times), for this visitor (the account or the
    link in the address) in the page's language and time zone. static/js/live.js
    sends it back with each poll; `unchanged` then answers 304 and the page keeps
    what it has."""
    who = request.user.pk if request.user.is_authenticated else ""
    zone = timezone.get_current_timezone_name()
    text = repr((request.path, who, get_language(), zone, shown))
    return f'"{hashlib.sha256(text.encode()).hexdigest()[:32]}"'


def unchanged(request: HttpRequest, etag: str) -> HttpResponse | None:
    """304 when the poll's If-None-Match is `etag`: nothing it shows has changed."""
    if not etag_sent(request, etag):  # weakly: a compressed answer's ETag is W/"…"
        return None
    return live_headers(HttpResponse(status=304), etag)


def live_headers(response: HttpResponse, etag: str) -> HttpResponse:
    """A live part's answer: its ETag, and never kept by a shared cache."""
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


def visible_tournament(
    request: HttpRequest, slug: str
) -> tuple[Tournament, frozenset[Role]]:
    """The tournament of a page and the caller's roles in it; 404 if hidden. The
    page tells its times in the tournament's zone from here on."""
    tournament = tournament_get_visible(user=request.user, slug=slug)
    if tournament is None:
        raise Http404("No such tournament")
    tournament_zone_activate(tournament)
    return tournament, tournament_roles(user=request.user, tournament=tournament)


def form_errors(
    form, error: RuleError, field_map: dict[str, str] | None = None
) -> None:
    """Show a rule error on the form field it names (or above the form); `field_map`
    names the form's field for a service's field where the two differ."""
    items = error.errors if isinstance(error, RuleErrors) else [error]
    for item in items:
        field = (field_map or {}).get(item.field or "", item.field)
        form.add_error(field if field in form.fields else None, refusal(item))


def page_action(request: HttpRequest, act, back: str) -> HttpResponse | None:
    """A page's POST: `act()` does it and returns the message to show, or None when a
    form of the page shows its errors. Done or refused (a `RuleError`, shown as a
    message), the answer is a redirect to `back`; None means: render the page again
    with the form's errors."""
    try:
        done = act()
    except RuleError as error:
        messages.error(request, refusal(error))
        return redirect(back)
    if done is None:
        return None
    messages.success(request, done)
    return redirect(back)
