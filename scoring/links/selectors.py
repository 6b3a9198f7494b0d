"""Reads of table and team links for the organizer's list and cards: how many tables
play, which links to print, every link of a tournament (docs/links.md). What a link
reaches is scoring/sheets/reach.py's."""

from __future__ import annotations

from django.db.models import Max

from tournament.domain.types import TeamStatus
from tournament.models import Link, LinkKind, Team, Tournament

from ..models import Match


def tables_needed(tournament: Tournament) -> int:
    """How many tables the tournament plays at: once matches are set up, the highest
    table a match names (a round of 9 teams plays at 4 tables, the ninth team has a
    bye); before, one per two teams that play (one or two queries)."""
    highest = Match.objects.filter(tournament=tournament).aggregate(n=Max("table"))
    if highest["n"]:
        return highest["n"]
    teams = Team.objects.filter(tournament=tournament, status=TeamStatus.ACTIVE)
    return teams.count() // 2


def table_links(tables: list[Link], needed: int) -> list[Link]:
    """The table links of tables 1 to `needed`: a link made for a table the draw
    did not use (before the draw, or a draw since replaced) is not listed."""
    return [k for k in tables if k.table is not None and k.table <= needed]


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
