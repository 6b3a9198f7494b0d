"""A season's reads (RULES.md §10; docs/ratings.md, "Seasons"): its tournaments'
final places, and its standings of players and of teams.

A team across tournaments is its name and its captain's city (as a person is, letter
case and spaces aside). A player scores his team's points in a tournament where he
played at least one rated match (scoring/ratings: the confirmed sheets' rosters).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.models import RatedGame
from scoring.ratings.selectors import person_list
from tournament.domain.persons import person_key
from tournament.models import Seat, Team, Tournament
from tournament.selectors import tournament_list_visible

from ..domain.seasons import SeasonRow, best_places, season_standings
from ..models import Season
from ..selectors import places_list


def season_list() -> QuerySet[Season]:
    return Season.objects.prefetch_related("tournaments").order_by("-created_at", "-pk")


def season_get(*, slug: str) -> Season | None:
    return season_list().filter(slug=slug).first()


def season_tournaments(season: Season, user=None) -> list[Tournament]:
    """The season's tournaments in the order they were played (those `user` sees,
    when given: published ones and those they have a role in)."""
    tournaments = season.tournaments.all()
    if user is not None:
        seen = set(tournament_list_visible(user=user).values_list("pk", flat=True))
        tournaments = [t for t in tournaments if t.pk in seen]
    return sorted(tournaments, key=lambda t: (t.starts_on or t.created_at.date(), t.pk))


def tournament_places(*, tournament: Tournament) -> dict[int, int]:
    """Each team's final place (brackets/domain/places.py, the bracket's own): while
    the tournament runs, its place if it ended now."""
    return {row.team.id: row.final_place for row in places_list(tournament=tournament)}


@dataclass(frozen=True)
class SeasonStandings:
    season: Season
    tournaments: list[Tournament]
    players: list[SeasonRow]
    teams: list[SeasonRow]
    cities: dict[int, str]  # a row's key: its city (players and teams alike)
    team_cities: dict[int, str]


def season_standings_get(*, season: Season, user) -> SeasonStandings:
    """The season's standings of players and of teams, per tournament and in
    total. People hidden from the viewer are left out of the players' rows."""
    tournaments = season_tournaments(season, user)
    table = {int(k): v for k, v in season.points.items()}
    player_places: dict[str, dict[int, int]] = {}
    team_places: dict[str, dict[int, int]] = {}
    team_keys: dict[str, int] = {}
    team_names: dict[int, str] = {}
    team_cities: dict[int, str] = {}
    for tournament in tournaments:
        places = tournament_places(tournament=tournament)
        teams = Team.objects.filter(tournament=tournament).values_list(
            "pk", "name", "captain_city"
        )
        finished: dict[int, int] = {}
        for pk, name, city in teams:
            if pk not in places:
                continue
            key = team_keys.setdefault(person_key(name, city), len(team_keys) + 1)
            team_names.setdefault(key, name)
            team_cities.setdefault(key, city)
            finished[key] = min(places[pk], finished.get(key, places[pk]))
        team_places[tournament.slug] = finished
        seat_team = dict(
            Seat.objects.filter(team__tournament=tournament).values_list(
                "person", "team"
            )
        )
        played: set[int] = set()
        for a, b in RatedGame.objects.filter(tournament=tournament).values_list(
            "side_a", "side_b"
        ):
            played.update(a)
            played.update(b)
        pairs = [
            (person, seat_team[person])
            for person in played
            if seat_team.get(person) in places
        ]
        player_places[tournament.slug] = best_places(pairs, places)
    shown = {
        p.pk: p
        for p in person_list(user=user).filter(
            pk__in={k for f in player_places.values() for k in f}
        )
    }
    for finished in player_places.values():
        for person in [k for k in finished if k not in shown]:
            del finished[person]
    return SeasonStandings(
        season=season,
        tournaments=tournaments,
        players=season_standings(
            player_places, {pk: p.name for pk, p in shown.items()}, table
        ),
        teams=season_standings(team_places, team_names, table),
        cities={pk: p.city for pk, p in shown.items()},
        team_cities=team_cities,
    )


def season_workbook(*, season: Season, user) -> bytes:
    """The season's standings as a workbook: a Teams and a Players sheet, each row its
    rank, name, city, points per tournament (in the order played) and total."""
    from django.utils import timezone

    from scoring.excel import workbook

    found = season_standings_get(season=season, user=user)
    columns = (
        workbook.Column("Rank", 6, "int"),
        workbook.Column("Name", 28),
        workbook.Column("City", 18),
        *(workbook.Column(t.name, 12, "int") for t in found.tournaments),
        workbook.Column("Total", 8, "int"),
    )

    def rows(standing: list[SeasonRow], cities: dict[int, str]):
        for row in standing:
            yield [
                row.rank,
                row.name,
                cities.get(row.key, ""),
                *(row.points.get(t.slug) for t in found.tournaments),
                row.total,
            ]

    slugs = ", ".join(t.slug for t in found.tournaments)
    return workbook.tournament_workbook_build(
        title=season.name,
        exported_at=timezone.localtime().replace(tzinfo=None),
        time_zone=timezone.get_current_timezone_name(),
        sheets=[
            workbook.TableSheet(
                "Teams",
                columns,
                rows(found.teams, found.team_cities),
                note=f"Points by final place in {slugs}.",
            ),
            workbook.TableSheet(
                "Players",
                columns,
                rows(found.players, found.cities),
                note="A player scores his team's points where he played a rated match.",
            ),
        ],
    )
