"""Reads of table and team links (writes are in services.py)."""

from __future__ import annotations

import hashlib
import hmac

from django.db.models import QuerySet

from ..models import Link, LinkKind, Tournament

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


def link_list(*, tournament: Tournament) -> tuple[list[Link], list[Link]]:
    """The tournament's table links by table, and team links by team name."""
    links = list(
        Link.objects.filter(tournament=tournament).select_related("team").order_by()
    )
    tables = sorted(
        (k for k in links if k.kind == LinkKind.TABLE), key=lambda k: k.table or 0
    )
    teams = sorted(
        (k for k in links if k.kind == LinkKind.TEAM),
        key=lambda k: (k.team.name.casefold() if k.team else "", k.pk),
    )
    return tables, teams


def link_queryset(*, tournament: Tournament) -> QuerySet[Link]:
    return Link.objects.filter(tournament=tournament)
