"""What a table or team link reaches among the sheets (docs/links.md): the rule is
the pure domain/desk.table_reach, fed here from two small queries. Read by the sheets'
API (a link may enter only what it reaches), the links' pages and the desk."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from tournament.models import Link, LinkKind, Tournament

from ..domain import desk
from ..domain.rules import MatchStatus, Side, Stage
from ..models import LeagueRound, Match
from .selectors import match_queryset


def released_rounds(tournament_id: int) -> list[desk.RoundKey]:
    """Every round with a match that is public: the knockout's, and the league's
    except those the organizer has not released yet (one query)."""
    drafts = LeagueRound.objects.filter(
        tournament_id=tournament_id, released_at__isnull=True
    ).values("number")
    rounds = (
        Match.objects.filter(tournament_id=tournament_id)
        .exclude(stage=Stage.LEAGUE, round__in=drafts)
        .values_list("stage", "round")
        .distinct()
        .order_by()
    )
    return [(stage, number) for stage, number in rounds]


@dataclass
class TableReach:
    """The sheets a table link opens: the current one and earlier unconfirmed ones."""

    link: Link
    current: Match | None
    earlier: list[Match] = field(default_factory=list)

    @property
    def matches(self) -> list[Match]:
        return [m for m in (self.current, *self.earlier) if m is not None]


def table_reach(link: Link) -> TableReach:
    """What `link` (a table's) reaches now: two queries."""
    released = released_rounds(link.tournament_id)
    sheets = list(
        match_queryset().filter(tournament_id=link.tournament_id, table=link.table)
    )
    by_key = {m.pk: m for m in sheets}
    current, earlier = desk.table_reach(
        released,
        [desk.TableSheet(m.pk, m.stage, m.round, m.status) for m in sheets],
    )
    return TableReach(
        link,
        by_key[current.key] if current else None,
        [by_key[s.key] for s in earlier],
    )


def tables_playing(tournament: Tournament) -> dict[int, Match]:
    """The match each table plays now, by table number, as its link would open it
    (desk.table_reach): two queries, whatever the number of tables."""
    released = released_rounds(tournament.pk)
    by_table: dict[int, list[Match]] = {}
    for m in match_queryset().filter(tournament=tournament).order_by():
        by_table.setdefault(m.table, []).append(m)
    playing = {}
    for table, sheets in by_table.items():
        by_key = {m.pk: m for m in sheets}
        current, _earlier = desk.table_reach(
            released,
            [desk.TableSheet(m.pk, m.stage, m.round, m.status) for m in sheets],
        )
        if current is not None:
            playing[table] = by_key[current.key]
    return playing


def team_sheets(link: Link) -> list[Match]:
    """A team link's sheets: the team's matches in released rounds, in playing
    order (two queries)."""
    released = set(released_rounds(link.tournament_id))
    matches = match_queryset().filter(
        Q(team_a_id=link.team_id) | Q(team_b_id=link.team_id),
        tournament_id=link.tournament_id,
    )
    return sorted(
        (
            m
            for m in matches
            if (m.stage, m.round) in released and m.status != MatchStatus.VOID
        ),
        key=lambda m: desk.round_order((m.stage, m.round)),
    )


def link_side(link: Link, match: Match) -> frozenset[Side]:
    """The side of `match` a team link speaks for (none for a table link)."""
    if link.kind != LinkKind.TEAM:
        return frozenset()
    return frozenset(
        side
        for side, team in ((Side.A, match.team_a_id), (Side.B, match.team_b_id))
        if team == link.team_id
    )


def match_reached(link: Link, pk: int) -> Match | None:
    """The match `pk` if `link` reaches it, else None."""
    if link.kind == LinkKind.TABLE:
        return next((m for m in table_reach(link).matches if m.pk == pk), None)
    return next((m for m in team_sheets(link) if m.pk == pk), None)
