"""Who holds a link: its key looked up (`link_find`), and `LinkHolder`, an anonymous
visitor who carries a link, for the API (`Authorization: Link <key>`) and the link's
own pages (the key in the address). The web platform's, as the API's tokens are: the
tournament's own API lets a team link check its team in. Everything else about links
(making, renewing, what each reaches, their pages and cards) is scoring/links/'s.

A holder is anonymous everywhere: it has no role, no permission and no login, so
every page and endpoint that does not name links refuses it as it refuses a
stranger. Only the views that accept a kind of link (`link_kinds`) let it in, and
then only where its reach goes (docs/links.md); the history names it by its label.
"""

from __future__ import annotations

import hashlib
import hmac

from django.contrib.auth.models import AnonymousUser
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from tournament.domain.errors import Words, filled, marked
from tournament.models import Link, LinkKind

KEY_LENGTH_MAX = 64


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def link_find(key: str) -> Link | None:
    """The link whose key this is, or None (a renewed or mistyped key).

    Looked up by the key's digest, so that the database never compares the secret
    itself, then compared in constant time. One query, with the tournament and team.
    """
    if not key or len(key) > KEY_LENGTH_MAX or not key.isascii():
        return None
    link = (
        Link.objects.select_related("tournament", "team")
        .filter(key_digest=key_digest(key))
        .first()
    )
    if link is None or not hmac.compare_digest(link.key, key):
        return None
    return link


KEYWORD = "Link"
REFUSED = (
    "This link does not work: it was renewed by the organizer, or the key is "
    "mistyped. Ask the organizer for the table's or team's card."
)


class LinkHolder(AnonymousUser):
    """An anonymous visitor carrying `link`; named by it in the history."""

    def __init__(self, link: Link) -> None:
        self.link = link

    @property
    def username(self) -> str:  # type: ignore[override]
        return self.link.label

    def get_username(self) -> str:
        return self.link.label

    def __str__(self) -> str:
        return self.link.label

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LinkHolder) and other.link.pk == self.link.pk

    def __hash__(self) -> int:
        return hash(("link", self.link.pk))


def request_link(request) -> Link | None:
    """The link an API request carries, if any."""
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, Link) else None


def link_refusal(link: Link) -> Words:
    """Why a link cannot do what it was asked: what it reaches instead."""
    if link.kind == LinkKind.TABLE:
        return filled(
            marked(
                "A table link enters only the sheets played at table %(table)s "
                "(this round's, and earlier ones not yet confirmed); nothing else."
            ),
            table=link.table,
        )
    return filled(
        marked(
            "A team link only checks %(team)s in, confirms %(team)s's sheets and "
            "raises disputes on them; nothing else."
        ),
        team=link.team.name if link.team else "its team",
    )


class LinkAuthentication(BaseAuthentication):
    """`Authorization: Link <key>`: the key of a table or team link, for scripts."""

    def authenticate(self, request):
        words = get_authorization_header(request).split()
        if not words or words[0].lower() != KEYWORD.lower().encode():
            return None
        if len(words) != 2:
            raise exceptions.AuthenticationFailed(
                "Send the link's key as 'Authorization: Link <key>', with no spaces "
                "in the key."
            )
        try:
            key = words[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(REFUSED) from None
        link = link_find(key)
        if link is None:
            raise exceptions.AuthenticationFailed(REFUSED)
        return LinkHolder(link), link

    def authenticate_header(self, request) -> str:
        return KEYWORD
