"""Every write to a tournament's table and team links (docs/links.md): one
transaction each.

A key is 256 random bits (`secrets.token_urlsafe(32)`, 43 characters). Every table
and every team has one link, made when the organizer first asks for the links;
renewing one gives it a new key, and the old key stops working at once.
"""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournament.domain.errors import RuleError, marked
from tournament.models import Link, LinkKind, Team, Tournament, account
from tournament.web.links import key_digest

TABLES_MAX = 999  # as a match's table (scoring's MatchListApi)


def _new_key() -> tuple[str, str]:
    key = secrets.token_urlsafe(32)
    return key, key_digest(key)


def links_ensure(*, tournament: Tournament, tables: int) -> None:
    """Give every table from 1 to `tables` and every team of the tournament a link
    if it has none. Safe to run again, and alongside itself: a link made meanwhile
    by another request is kept."""
    tables = min(tables, TABLES_MAX)
    have_tables = set(
        Link.objects.filter(tournament=tournament, kind=LinkKind.TABLE).values_list(
            "table", flat=True
        )
    )
    have_teams = set(
        Link.objects.filter(tournament=tournament, kind=LinkKind.TEAM).values_list(
            "team_id", flat=True
        )
    )
    missing = [
        Link(tournament=tournament, kind=LinkKind.TABLE, table=n)
        for n in range(1, tables + 1)
        if n not in have_tables
    ] + [
        Link(tournament=tournament, kind=LinkKind.TEAM, team_id=team_id)
        for team_id in Team.objects.filter(tournament=tournament)
        .exclude(pk__in=have_teams)
        .values_list("pk", flat=True)
    ]
    if not missing:
        return
    for link in missing:
        link.key, link.key_digest = _new_key()
    try:
        with transaction.atomic():
            Link.objects.bulk_create(missing)
    except IntegrityError:
        # Another request made some of them first: make the rest one by one.
        for link in missing:
            try:
                with transaction.atomic():
                    link.save()
            except IntegrityError:
                continue


@transaction.atomic
def link_renew(
    *, tournament: Tournament, user, table: int | None = None, team: int | None = None
) -> Link:
    """A new key for one table's or one team's link; the old key stops at once."""
    if (table is None) == (team is None):
        raise RuleError(
            "required",
            marked("name either a table or a team, not both"),
            field="table",
        )
    found = Link.objects.select_for_update(of=("self",)).filter(tournament=tournament)
    if table is not None:
        link = found.filter(kind=LinkKind.TABLE, table=table).first()
        if link is None:
            raise RuleError(
                "unknown_table",
                marked("no table %(table)s in this tournament"),
                field="table",
                table=table,
            )
    else:
        link = found.filter(kind=LinkKind.TEAM, team_id=team).first()
        if link is None:
            raise RuleError(
                "unknown_team",
                marked("no such team in this tournament"),
                field="team",
            )
    link.key, link.key_digest = _new_key()
    link.renewed_at = timezone.now()
    link.renewed_by = account(user)
    link.save(update_fields=["key", "key_digest", "renewed_at", "renewed_by"])
    return Link.objects.select_related("tournament", "team").get(pk=link.pk)


def table_links(*, tournament: Tournament, tables: set[int]) -> dict[int, Link]:
    """The links of these tables, by table number, made for any that has none (one
    query when they all exist: a printed round's sheets carry them)."""
    found = {
        k.table: k
        for k in Link.objects.filter(
            tournament=tournament, kind=LinkKind.TABLE, table__in=tables
        )
        if k.table is not None
    }
    if set(found) >= tables:
        return found
    links_ensure(tournament=tournament, tables=max(tables))
    return table_links(tournament=tournament, tables=tables)
