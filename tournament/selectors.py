"""Reads of tournaments, sections, teams and roles (writes are in services.py)."""

from __future__ import annotations

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet

from .domain.addresses import address_from_name
from .domain.roster import Swap, roster_at, roster_played
from .domain.types import Role, RoundStage, TeamStatus
from .models import Membership, Player, Section, Substitution, Team, Tournament

ALL_ROLES = frozenset(Role)


def _visible(user) -> Q | None:
    """Who sees a tournament: published ones, and those the user has a role in; None
    for a superuser, who sees every one."""
    if user.is_authenticated and user.is_superuser:
        return None
    visible = Q(published=True)
    if user.is_authenticated:
        mine = Membership.objects.filter(tournament=OuterRef("pk"), user=user)
        visible |= Q(Exists(mine))
    return visible


def tournament_list_visible(*, user) -> QuerySet[Tournament]:
    """Published tournaments, and those the user has a role in (all for a superuser)."""
    # Meta.ordering is not applied to GROUP BY queries: order explicitly.
    qs = Tournament.objects.annotate(team_count=Count("teams", distinct=True)).order_by(
        "-starts_on", "-created_at", "pk"
    )
    visible = _visible(user)
    return qs if visible is None else qs.filter(visible)


def tournament_get_visible(*, user, slug: str) -> Tournament | None:
    """The tournament `slug` names, if `user` may see it (as tournament_list_visible),
    else None. One plain query: every request about a tournament starts with it, so
    it counts nothing (tournament_team_count does, where a page shows the count)."""
    found = Tournament.objects.filter(slug=slug)
    visible = _visible(user)
    return (found if visible is None else found.filter(visible)).first()


def tournament_address_free(*, name: str) -> str:
    """The address a new tournament of that name gets (`/t/<address>/`): made from
    its name (domain/addresses.py: a Malayalam name read in Latin letters), numbered
    when taken (`kerala-open`, `kerala-open-2`). One query; the create page's preview
    asks it as the name is typed, and the service when no address is given."""
    base = address_from_name(name) or "tournament"
    taken = set(
        Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True)
    )
    return next(
        s
        for n in range(1, len(taken) + 2)
        if (s := base if n == 1 else f"{base}-{n}") not in taken
    )


def tournament_team_count(*, tournament: Tournament) -> int:
    return Team.objects.filter(tournament=tournament).count()


def teams_playing_count(*, tournament: Tournament) -> int:
    """The teams that play on (not absent from the draw, not withdrawn): the most a
    knockout can seed (brackets/services.py: knockout_seed)."""
    return Team.objects.filter(tournament=tournament, status=TeamStatus.ACTIVE).count()


def tournament_roles(*, user, tournament: Tournament) -> frozenset[Role]:
    """The roles `user` holds in `tournament`; a superuser holds them all."""
    if not user.is_authenticated:
        return frozenset()
    if user.is_superuser:
        return ALL_ROLES
    return frozenset(
        Role(r)
        for r in Membership.objects.filter(
            tournament=tournament, user=user
        ).values_list("role", flat=True)
    )


def captain_team_ids(*, user, tournament: Tournament) -> frozenset[int]:
    if not user.is_authenticated:
        return frozenset()
    return frozenset(
        Membership.objects.filter(
            tournament=tournament, user=user, role=Role.CAPTAIN
        ).values_list("team_id", flat=True)
    )


def section_list(*, tournament: Tournament) -> QuerySet[Section]:
    return (
        Section.objects.filter(tournament=tournament)
        .annotate(
            team_count=Count("teams"),
            # the section's teams that play on: as teams_playing_count counts them
            playing_count=Count("teams", filter=Q(teams__status=TeamStatus.ACTIVE)),
        )
        .order_by("is_international", "name")
    )


def team_list(
    *, tournament: Tournament, section: int | None = None, search: str = ""
) -> QuerySet[Team]:
    qs = (
        Team.objects.filter(tournament=tournament)
        .select_related("section")
        .prefetch_related(
            Prefetch("players", queryset=Player.objects.order_by("position"))
        )
    )
    if section is not None:
        qs = qs.filter(section_id=section)
    if search:
        qs = qs.filter(
            Q(name__icontains=search)
            | Q(captain_name__icontains=search)
            | Q(captain_city__icontains=search)
        )
    return qs


def check_in_counts(*, tournament: Tournament) -> dict[str, int]:
    """How many teams have arrived, of how many (the desk's counts), in one query."""
    return Team.objects.filter(tournament=tournament).aggregate(
        teams=Count("pk"),
        arrived=Count("pk", filter=Q(checked_in_at__isnull=False)),
        absent=Count("pk", filter=Q(status=TeamStatus.ABSENT)),
        withdrawn=Count("pk", filter=Q(status=TeamStatus.WITHDRAWN)),
    )


def teams_by_section(*, tournament: Tournament) -> list[tuple[Section, list[Team]]]:
    """Every section of the tournament with its teams, in two queries plus players."""
    sections = list(Section.objects.filter(tournament=tournament))
    by_section: dict[int, list[Team]] = {s.pk: [] for s in sections}
    for team in team_list(tournament=tournament):
        by_section[team.section_id].append(team)
    return [(s, by_section[s.pk]) for s in sections]


# Rosters (rules.md §9)
# ----------------------------------------------------------------------------


def swaps_of(substitutions) -> list[Swap]:
    return [
        Swap(s.number, s.player_out, s.player_in, RoundStage(s.stage), s.from_round)
        for s in substitutions
    ]


def rosters_get(*, teams: list[int]) -> dict[int, tuple[list[str], list[Swap]]]:
    """Each team's registered players and approved substitutions (two queries), from
    which `roster_at` gives who played in any round."""
    found: dict[int, tuple[list[str], list[Swap]]] = {t: ([], []) for t in teams}
    for team, name in (
        Player.objects.filter(team_id__in=teams)
        .order_by("team", "position")
        .values_list("team_id", "name")
    ):
        found[team][0].append(name)
    subs: dict[int, list[Substitution]] = {}
    for sub in Substitution.objects.filter(team_id__in=teams).order_by("number"):
        subs.setdefault(sub.team_id, []).append(sub)
    for team, rows in subs.items():
        found[team][1].extend(swaps_of(rows))
    return found


def match_roster(
    *, team_a: int, team_b: int, stage: str, round: int, absent: str = ""
) -> dict:
    """Who played for each team in one match: {"A": [names], "B": [names]}; the
    side `absent` from a forfeited match played nobody (rules.md §9)."""
    rosters = rosters_get(teams=[team_a, team_b])
    return {
        side: roster_played(
            roster_at(*rosters[team], RoundStage(stage), round), side, absent
        )
        for side, team in (("A", team_a), ("B", team_b))
    }


def substitution_list(*, team: Team) -> QuerySet[Substitution]:
    return Substitution.objects.filter(team=team).select_related("approved_by")
