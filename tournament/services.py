"""Every write to tournaments, sections, teams and roles: one transaction each.

The services lock the tournament row (`select_for_update`) before they check a rule that
spans rows (a state listed by one section only, a team name once per tournament), so two
organizers registering at the same moment cannot both pass the check. The rules
themselves are in domain/; here they are applied to stored rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.db.models.functions import Lower
from django.utils import timezone

from .accounts.selectors import may_rate_tournament
from .domain.errors import (
    ConflictError,
    ForbiddenError,
    RuleError,
    RuleErrors,
    filled,
    marked,
    marked_plural,
)
from .domain.rulesets import RuleSetCode, ruleset_get
from .domain.sections import (
    INTERNATIONAL,
    USA,
    Captain,
    Placement,
    SectionArea,
    check_home_country,
    check_section_areas,
    clean_name,
    normalize_areas,
    normalize_captain,
    place_team,
    roster,
)
from .domain.setup import STEPS, fixed_settings
from .domain.types import Role, TeamStatus, TournamentStatus
from .domain.zones import check_time_zone
from .models import (
    Membership,
    Player,
    Section,
    Team,
    Tournament,
    account,
    site_time_zone,
)
from .persons.services import namesakes_accept, seats_sync
from .persons.signals import ratings_stale
from .selectors import tournament_address_free


def _prefixed(error: RuleError, prefix: str) -> RuleError:
    """The same error(s), each field put under `prefix` (`state` → `captain.state`)."""
    items = error.errors if isinstance(error, RuleErrors) else [error]
    moved = [e.at(f"{prefix}.{e.field}" if e.field else prefix) for e in items]
    return moved[0] if len(moved) == 1 else RuleErrors(moved)


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _require_registration(tournament: Tournament, action: str) -> None:
    if tournament.status != TournamentStatus.REGISTRATION:
        raise ConflictError(
            "draw_locked",
            marked(
                "Cannot %(action)s: the league of %(tournament)s is drawn (status "
                "%(status)s); teams and sections are fixed now."
            ),
            action=action,
            tournament=tournament.name,
            status=tournament.status,
        )


# Tournaments
# ----------------------------------------------------------------------------


def _check_tournament_numbers(
    *,
    ruleset: str,
    players_per_team: int,
    league_deals: int | None,
    starts_on: date | None = None,
    ends_on: date | None = None,
) -> None:
    if starts_on and ends_on and ends_on < starts_on:
        raise RuleError(
            "ends_before_start",
            marked("the last day (%(ends_on)s) is before the first (%(starts_on)s)"),
            field="ends_on",
            ends_on=f"{ends_on:%d %b %Y}",
            starts_on=f"{starts_on:%d %b %Y}",
        )
    rules = ruleset_get(ruleset)
    if players_per_team not in rules.team_sizes:
        sizes = " or ".join(str(n) for n in rules.team_sizes)
        raise RuleError(
            "team_size",
            marked("the %(ruleset)s rule set plays with %(sizes)s players per team"),
            field="players_per_team",
            ruleset=rules.code,
            sizes=sizes,
        )
    if league_deals is None and rules.code != RuleSetCode.TABLES:
        raise RuleError(
            "required",
            marked(
                "deals per match is required (only the tables format plays until a "
                "team runs out of tables)"
            ),
            field="league_deals",
        )


@transaction.atomic
def tournament_create(
    *,
    user,
    name: str,
    slug: str = "",
    ruleset: str = RuleSetCode.INTERNATIONAL,
    players_per_team: int | None = None,
    league_rounds: int | None = None,
    league_deals: int | None = None,
    qualifiers: int | None = None,
    published: bool = False,
    venue: str = "",
    starts_on: date | None = None,
    ends_on: date | None = None,
    check_in_required: bool = False,
    substitutions_allowed: int = 1,
    time_zone: str | None = None,
    home_country: str = USA,
    rated: bool = False,
) -> Tournament:
    """A new tournament with the rule set's defaults, its International section, and the
    creating user as its organizer; its time zone the site's unless given, its home
    country the USA unless given (rules.md §5). Made rated
    by a site administrator or a trusted creator only."""
    if rated and not may_rate_tournament(user):
        raise _not_trusted()
    rules = ruleset_get(ruleset)
    time_zone = check_time_zone(site_time_zone() if time_zone is None else time_zone)
    home_country = check_home_country(home_country)
    if not slug:
        slug = tournament_address_free(name=name)
    if Tournament.objects.filter(slug=slug).exists():
        raise RuleError(
            "slug_taken",
            marked("the slug '%(slug)s' is taken"),
            field="slug",
            slug=slug,
        )
    given = {
        "players_per_team": players_per_team,
        "league_rounds": league_rounds,
        "league_deals": league_deals,
        "qualifiers": qualifiers,
    }
    numbers = rules.numbers() | {k: v for k, v in given.items() if v is not None}
    tournament = Tournament(
        name=clean_name(name),
        slug=slug,
        ruleset=rules.code,
        **numbers,
        published=published,
        venue=venue,
        starts_on=starts_on,
        ends_on=ends_on,
        check_in_required=check_in_required,
        substitutions_allowed=substitutions_allowed,
        time_zone=time_zone,
        home_country=home_country,
        rated=rated,
        rated_by=account(user) if rated else None,
        rated_at=timezone.now() if rated else None,
    )
    _check_tournament_numbers(
        ruleset=tournament.ruleset,
        players_per_team=tournament.players_per_team,
        league_deals=tournament.league_deals,
        starts_on=starts_on,
        ends_on=ends_on,
    )
    tournament.full_clean()
    tournament.save()
    Section.objects.create(
        tournament=tournament, name=INTERNATIONAL, is_international=True
    )
    if user is not None:
        Membership.objects.create(tournament=tournament, user=user, role=Role.ORGANIZER)
    return tournament


def _not_trusted() -> ForbiddenError:
    return ForbiddenError(
        "rating_not_trusted",
        marked(
            "only a site administrator, or a trusted creator who organizes it, "
            "marks a tournament rated or not"
        ),
        field="rated",
    )


def counted(tournament: Tournament) -> bool:
    """Whether the tournament's matches count for the ratings: published and rated
    (scoring/ratings/services.py, COUNTED)."""
    return tournament.published and tournament.rated


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, user=None, **changes: Any
) -> Tournament:
    """Change a tournament's settings. A setting its step fixed (the rule set and the
    league's numbers by the draw, the qualifiers by the seeding: domain/setup.py) is
    refused naming that step; the team size cannot change under registered teams.
    `rated` is changed by a site administrator or a trusted creator among its
    organizers only (`user`); marked, its suggested namesakes become the people they
    were suggested as (docs/ratings.md, "What the site trusts")."""
    tournament = _locked(tournament)
    was_counted = counted(tournament)
    if "time_zone" in changes:
        changes["time_zone"] = check_time_zone(changes["time_zone"])
    if "home_country" in changes:
        changes["home_country"] = check_home_country(changes["home_country"])
    changed = {k: v for k, v in changes.items() if getattr(tournament, k) != v}
    if "rated" in changed and not may_rate_tournament(user, tournament):
        raise _not_trusted()
    fixed = fixed_settings(tournament.status)
    for step in STEPS:
        names = sorted(n for n in changed if fixed.get(n) == step)
        if names:
            raise ConflictError(
                step.code,
                filled(
                    marked(
                        "Cannot change %(names)s of %(tournament)s: %(done)s, which "
                        "fixed it."
                    )
                    if len(names) == 1
                    else marked(
                        "Cannot change %(names)s of %(tournament)s: %(done)s, which "
                        "fixed them."
                    ),
                    names=", ".join(names).replace("_", " "),
                    tournament=tournament.name,
                    done=step.done,
                ),
                settings=names,
                step=step.title,
            )
    if "ruleset" in changed and "league_deals" not in changed:
        changed["league_deals"] = ruleset_get(changed["ruleset"]).league_deals
    for field, value in changed.items():
        setattr(tournament, field, value)
    _check_tournament_numbers(
        ruleset=tournament.ruleset,
        players_per_team=tournament.players_per_team,
        league_deals=tournament.league_deals,
        starts_on=tournament.starts_on,
        ends_on=tournament.ends_on,
    )
    if "players_per_team" in changed or "ruleset" in changed:
        wrong = (
            tournament.teams.annotate(size=Count("players"))
            .exclude(size=tournament.players_per_team)
            .count()
        )
        if wrong:
            raise RuleError(
                "team_size",
                marked(
                    "%(wrong)s registered teams do not have %(players_per_team)s "
                    "players; change their rosters first"
                ),
                field="players_per_team",
                wrong=wrong,
                players_per_team=tournament.players_per_team,
            )
    if "name" in changed:
        tournament.name = clean_name(tournament.name)
    if "home_country" in changed:
        _sections_replace(tournament)
    if "rated" in changed:
        tournament.rated_by = account(user)
        tournament.rated_at = timezone.now()
    tournament.full_clean()
    tournament.save()
    if changed.get("rated"):
        namesakes_accept(tournament=tournament, user=user)
    if was_counted != counted(tournament) or (was_counted and "starts_on" in changed):
        # Ratings count published, rated tournaments' sheets, placed by their first
        # day; a draft's edits, or an unrated tournament's, never rate anything.
        ratings_stale.send(sender=Tournament)
    return tournament


def _sections_replace(tournament: Tournament) -> None:
    """After a change of the home country (before the draw): every section's states
    read again under it (in the USA, US state codes), and every team the organizer
    did not move placed again by its captain (rules.md §5). A section or a team that
    does not fit refuses the change, naming it, on the field `home_country`."""
    home = tournament.home_country
    sections = list(Section.objects.filter(tournament=tournament))
    errors: list[RuleError] = []
    for section in sections:
        if section.is_international:
            continue
        try:
            states, cities = normalize_areas(section.states, section.cities, home)
        except RuleError:
            errors.append(
                RuleError(
                    "home_country_sections",
                    marked(
                        "section %(section)s lists %(states)s, which are not states "
                        "of %(country)s; change its states first"
                    ),
                    field="home_country",
                    section=section.name,
                    states=", ".join(section.states),
                    country=home,
                )
            )
            continue
        section.states, section.cities = list(states), list(cities)
    if not errors:
        check_section_areas([_area(s) for s in sections])
    areas = [_area(s) for s in sections]
    by_pk = {s.pk: s for s in sections}
    teams = list(
        Team.objects.filter(tournament=tournament).exclude(
            placement=Placement.ORGANIZER
        )
    )
    for team in teams:
        try:
            captain = normalize_captain(
                name=team.captain_name,
                city=team.captain_city,
                state=team.captain_state,
                country=team.captain_country,
                home=home,
            )
            key, team.placement = place_team(captain, areas, home)
        except RuleError as error:
            first = error.errors[0] if isinstance(error, RuleErrors) else error
            errors.append(
                RuleError(
                    "home_country_team",
                    marked(
                        "team %(team)s would have no section with %(country)s as "
                        "the home country: %(reason)s"
                    ),
                    field="home_country",
                    team=team.name,
                    country=home,
                    reason=first.words,
                )
            )
            continue
        team.section = by_pk[key]  # type: ignore[index]
        team.captain_state = captain.state
    if errors:
        raise errors[0] if len(errors) == 1 else RuleErrors(errors)
    for section in sections:
        section.full_clean()
    Section.objects.bulk_update(sections, ["states", "cities"])
    Team.objects.bulk_update(teams, ["section", "placement", "captain_state"])


# Sections
# -------------------------------------------------------------------------------


def _area(section: Section) -> SectionArea:
    """A stored section as placement sees it."""
    return SectionArea(
        section.pk,
        section.name,
        tuple(section.states),
        tuple(section.cities),
        section.is_international,
    )


def _areas(tournament: Tournament, *, replacing: Section | None = None, with_=None):
    areas = [
        _area(s)
        for s in Section.objects.filter(tournament=tournament)
        if replacing is None or s.pk != replacing.pk
    ]
    if with_ is not None:
        areas.append(with_)
    return areas


def _check_section_name(tournament: Tournament, name: str, *, exclude_pk=None) -> str:
    name = clean_name(name)
    if not name:
        raise RuleError("required", marked("a section needs a name"), field="name")
    clash = Section.objects.filter(tournament=tournament).annotate(lname=Lower("name"))
    if exclude_pk is not None:
        clash = clash.exclude(pk=exclude_pk)
    if clash.filter(lname=name.lower()).exists():
        raise RuleError(
            "name_taken",
            marked("there is a section named %(name)s already"),
            field="name",
            name=name,
        )
    return name


@transaction.atomic
def section_create(
    *,
    tournament: Tournament,
    name: str,
    states: Iterable[str] = (),
    cities: Iterable[str] = (),
) -> Section:
    tournament = _locked(tournament)
    _require_registration(tournament, marked("add a section"))
    name = _check_section_name(tournament, name)
    states_n, cities_n = normalize_areas(states, cities, tournament.home_country)
    check_section_areas(
        _areas(tournament, with_=SectionArea(None, name, states_n, cities_n))
    )
    section = Section(
        tournament=tournament, name=name, states=list(states_n), cities=list(cities_n)
    )
    section.full_clean()
    section.save()
    return section


@transaction.atomic
def section_update(
    *,
    section: Section,
    name: str | None = None,
    states: Iterable[str] | None = None,
    cities: Iterable[str] | None = None,
) -> Section:
    """Rename a section or change the places it lists. Teams already placed stay where
    they are (the organizer moves them); new registrations follow the new lists."""
    tournament = _locked(section.tournament)
    _require_registration(tournament, marked("change a section"))
    if section.is_international and (
        name not in (None, section.name) or states or cities
    ):
        raise RuleError(
            "international_fixed",
            marked(
                "International takes every team from outside the tournament's home "
                "country; its name and places are fixed"
            ),
            field="name" if name not in (None, section.name) else "states",
        )
    if name is not None:
        section.name = _check_section_name(tournament, name, exclude_pk=section.pk)
    states_n, cities_n = normalize_areas(
        section.states if states is None else states,
        section.cities if cities is None else cities,
        tournament.home_country,
    )
    check_section_areas(
        _areas(
            tournament,
            replacing=section,
            with_=SectionArea(section.pk, section.name, states_n, cities_n),
        )
    )
    section.states, section.cities = list(states_n), list(cities_n)
    section.full_clean()
    section.save()
    return section


@transaction.atomic
def section_delete(*, section: Section) -> None:
    tournament = _locked(section.tournament)
    _require_registration(tournament, marked("delete a section"))
    if section.is_international:
        raise ConflictError(
            "international_fixed",
            marked("every tournament keeps its International section"),
        )
    count = section.teams.count()
    if count:
        raise ConflictError(
            "section_has_teams",
            marked(
                "section %(section)s has %(count)s teams; move them before deleting it"
            ),
            section=section.name,
            count=count,
        )
    section.delete()


# Teams
# ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamEntry:
    """One team as registration reads it, before anything is stored."""

    name: str
    captain: Captain
    players: tuple[str, ...]
    section: Section
    placement: Placement


def _sections_by_pk(tournament: Tournament) -> dict[int, Section]:
    return {s.pk: s for s in Section.objects.filter(tournament=tournament)}


def team_entry_check(
    *,
    tournament: Tournament,
    sections: dict[int, Section],
    name: str,
    captain: dict[str, str],
    players: Sequence[str],
    taken_names: set[str],
) -> TeamEntry:
    """Everything registration checks of one team, all errors at once; no writes."""
    errors: list[RuleError] = []
    name = clean_name(name)
    if not name:
        errors.append(
            RuleError("required", marked("a team needs a name"), field="name")
        )
    elif name.casefold() in taken_names:
        errors.append(
            RuleError(
                "name_taken",
                marked("a team named %(name)s is registered already"),
                field="name",
                name=name,
            )
        )
    captain_n: Captain | None = None
    try:
        captain_n = normalize_captain(
            name=captain.get("name", ""),
            city=captain.get("city", ""),
            state=captain.get("state", ""),
            country=captain.get("country", ""),
            home=tournament.home_country,
        )
    except RuleError as error:
        errors.append(_prefixed(error, "captain"))
    section: Section | None = None
    placement = Placement.INTERNATIONAL
    if captain_n is not None:
        try:
            key, placement = place_team(
                captain_n,
                [_area(s) for s in sections.values()],
                tournament.home_country,
            )
            section = sections[key]  # type: ignore[index]
        except RuleError as error:
            errors.append(_prefixed(error, "captain"))
    roster_names: tuple[str, ...] = ()
    try:
        roster_names = roster(
            captain_n.name if captain_n else captain.get("name", ""),
            players,
            tournament.players_per_team,
        )
    except RuleError as error:
        errors.append(error)
    if errors:
        raise errors[0] if len(errors) == 1 else RuleErrors(_flatten(errors))
    if captain_n is None or section is None:
        raise AssertionError("a captain and a section exist when no error was found")
    return TeamEntry(name, captain_n, roster_names, section, placement)


def _flatten(errors: list[RuleError]) -> list[RuleError]:
    flat: list[RuleError] = []
    for e in errors:
        flat.extend(e.errors if isinstance(e, RuleErrors) else [e])
    return flat


def _team_names(tournament: Tournament, *, exclude_pk=None) -> set[str]:
    qs = Team.objects.filter(tournament=tournament)
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    return {n.casefold() for n in qs.values_list("name", flat=True)}


def _team_save(
    tournament: Tournament, entry: TeamEntry, team: Team | None = None
) -> Team:
    team = team or Team(tournament=tournament)
    team.name = entry.name
    team.captain_name = entry.captain.name
    team.captain_city = entry.captain.city
    team.captain_state = entry.captain.state
    team.captain_country = entry.captain.country
    team.section = entry.section
    team.placement = entry.placement
    team.full_clean()
    team.save()
    return team


def _players_save(team: Team, names: Sequence[str]) -> None:
    team.players.all().delete()
    Player.objects.bulk_create(
        Player(team=team, position=i, name=n) for i, n in enumerate(names, start=1)
    )


@transaction.atomic
def team_register(
    *,
    tournament: Tournament,
    name: str,
    captain: dict[str, str],
    players: Sequence[str],
) -> Team:
    """Register one team, placed in a section by its captain's city, state, country."""
    tournament = _locked(tournament)
    if tournament.status != TournamentStatus.REGISTRATION:
        raise ConflictError(
            "draw_locked",
            marked(
                "Cannot register a team: the league of %(tournament)s is drawn, and a"
                " new team cannot join it after the draw (its rounds are drawn "
                "together)."
            ),
            tournament=tournament.name,
        )
    entry = team_entry_check(
        tournament=tournament,
        sections=_sections_by_pk(tournament),
        name=name,
        captain=captain,
        players=players,
        taken_names=_team_names(tournament),
    )
    team = _team_save(tournament, entry)
    _players_save(team, entry.players)
    seats_sync(tournament=tournament, teams=[team.pk])
    return team


@transaction.atomic
def team_update(
    *,
    team: Team,
    name: str | None = None,
    captain: dict[str, str] | None = None,
    players: Sequence[str] | None = None,
    section_id: int | None = None,
) -> Team:
    """Change a team. `section_id` is the organizer's move and overrides placement from
    then on; a changed captain otherwise re-places the team by the same rule as
    registration.
    """
    tournament = _locked(team.tournament)
    _require_registration(tournament, marked("change a team"))
    sections = _sections_by_pk(tournament)
    if section_id is not None and section_id not in sections:
        raise RuleError(
            "unknown_section",
            marked("no such section in this tournament"),
            field="section",
        )
    current_players = list(team.players.values_list("name", flat=True))
    captain_now = {
        "name": team.captain_name,
        "city": team.captain_city,
        "state": team.captain_state,
        "country": team.captain_country,
    }
    entry = team_entry_check(
        tournament=tournament,
        sections=sections,
        name=team.name if name is None else name,
        captain=captain_now | (captain or {}),
        players=current_players if players is None else players,
        taken_names=_team_names(tournament, exclude_pk=team.pk),
    )
    if section_id is not None or team.placement == Placement.ORGANIZER:
        moved_to = sections[section_id if section_id is not None else team.section_id]
        entry = replace(entry, section=moved_to, placement=Placement.ORGANIZER)
    _team_save(tournament, entry, team)
    if list(entry.players) != current_players:
        _players_save(team, entry.players)
    seats_sync(tournament=tournament, teams=[team.pk])
    return team


@transaction.atomic
def team_delete(*, team: Team) -> None:
    tournament = _locked(team.tournament)
    _require_registration(
        tournament, marked("delete a team (withdraw it from a round instead)")
    )
    team.delete()


# The tournament day: check-in (rules.md §9)
# ----------------------------------------------------------------------------


@transaction.atomic
def team_check_in(*, team: Team, user) -> Team:
    """Check a team in as it arrives (an organizer, or the team's captain). Again
    is harmless. A team left out of a check-in draw cannot join the league now."""
    tournament = _locked(team.tournament)
    team = Team.objects.select_for_update().get(pk=team.pk)
    if team.status == TeamStatus.ABSENT:
        raise ConflictError(
            "late_entry",
            marked(
                "%(team)s was not checked in when the league of %(tournament)s was "
                "drawn, and a team cannot join the league after the draw."
            ),
            team=team.name,
            tournament=tournament.name,
        )
    if team.checked_in_at is None:
        team.checked_in_at = timezone.now()
        team.checked_in_by = account(user)
        team.save(update_fields=["checked_in_at", "checked_in_by"])
    return team


@transaction.atomic
def team_check_in_undo(*, team: Team) -> Team:
    """Undo a check-in made by mistake, before the draw (which takes the teams
    checked in)."""
    tournament = _locked(team.tournament)
    _require_registration(tournament, marked("undo a check-in"))
    team = Team.objects.select_for_update().get(pk=team.pk)
    team.checked_in_at = None
    team.checked_in_by = None
    team.save(update_fields=["checked_in_at", "checked_in_by"])
    return team


@dataclass(frozen=True)
class ImportRow:
    number: int  # the row number in the spreadsheet, as the organizer sees it
    name: str
    captain: dict[str, str]
    players: tuple[str, ...]


@dataclass(frozen=True)
class ImportProblem:
    row: int
    field: str
    message: str
    error: RuleError | None = None  # the refusal, for a page to say in its language


class TeamImportRefused(RuleError):
    """A team list with bad rows: nothing was created."""

    def __init__(self, problems: list[ImportProblem]):
        rows = len({p.row for p in problems})
        super().__init__(
            "import_refused",
            marked_plural(
                "%(rows)s row is wrong; no team was created",
                "%(rows)s rows are wrong; no team was created",
                rows,
            ),
            rows=rows,
        )
        self.problems = problems


@transaction.atomic
def team_import(*, tournament: Tournament, rows: Sequence[ImportRow]) -> list[Team]:
    """Register every team of a spreadsheet, or none: each bad row is reported with its
    row number and the rule it breaks, and then nothing is written."""
    tournament = _locked(tournament)
    _require_registration(tournament, marked("import teams"))
    sections = _sections_by_pk(tournament)
    taken = _team_names(tournament)
    problems: list[ImportProblem] = []
    entries: list[TeamEntry] = []
    for row in rows:
        try:
            entry = team_entry_check(
                tournament=tournament,
                sections=sections,
                name=row.name,
                captain=row.captain,
                players=row.players,
                taken_names=taken,
            )
        except RuleError as error:
            items = error.errors if isinstance(error, RuleErrors) else [error]
            problems.extend(
                ImportProblem(row.number, e.field or "", e.message, e) for e in items
            )
            continue
        taken.add(entry.name.casefold())
        entries.append(entry)
    if problems:
        raise TeamImportRefused(problems)
    teams = [_team_save(tournament, entry) for entry in entries]
    Player.objects.bulk_create(
        Player(team=team, position=i, name=n)
        for team, entry in zip(teams, entries, strict=True)
        for i, n in enumerate(entry.players, start=1)
    )
    seats_sync(tournament=tournament, teams=[team.pk for team in teams])
    return teams
