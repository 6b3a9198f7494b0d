"""Rebuilding every rating from the sheets (issue 44, docs/ratings.md): the time
`manage.py ratings_rebuild` takes on a site of twenty 500-team championships,
against rating the same matches in pure Python, measured in the same run.

The championship of bench/league.py at its knockout stage (500 teams, 2,000 league
sheets confirmed), on SQLite and on PostgreSQL; a fresh process makes the site one
of twenty such tournaments (the others imported from the first one's archive, as an
organizer imports one, each under its own slug: their players are the same people,
so every person plays twenty tournaments). It then measures:

- the rebuild (`ratings_rebuild`): read every confirmed sheet with its rosters and
  people, rate them in order, store every step and every person's rating, in a
  transaction that is rolled back;
- its baseline: `rate()` alone on the same matches (the pure module's time, with no
  reading and no writing);
- and checks that a refresh from the middle of the order stores exactly what the
  rebuild stored, to the last bit;
- and prints what the look for a lost refresh costs on such a site
  (`ratings_behind`: the worker's beat asks it every 30 s, every refresh once; the
  median of 5), and what a sheet's refresh costs when it has nothing to do.

Usage: python -m bench rebuild [--teams 500] [--tournaments 20]
       [--vendors sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from bench.core import BenchFailed, Figure, Session, median_ms, run_module

TINY = ["--teams", "32", "--tournaments", "3"]


def _site(tournaments: int) -> None:
    from tournament.backups import services
    from tournament.models import Player, Team, Tournament
    from tournament.persons.services import seats_sync
    from tournament.persons.signals import ratings_stale

    # The imports would each rate the whole site again (eager, no worker here):
    # the site is made first, and rated by the figure.
    ratings_stale.disconnect(dispatch_uid="ratings-stale")
    first = Tournament.objects.order_by("pk").first()
    # bench/league.py's teams have no players: three each, the captain first.
    Player.objects.bulk_create(
        Player(team=team, position=n, name=name)
        for team in Team.objects.filter(tournament=first)
        for n, name in enumerate(
            [team.captain_name, f"{team.name} two", f"{team.name} three"], start=1
        )
    )
    seats_sync(tournament=first)
    # Counted for the ratings, as a site administrator marks each (docs/ratings.md,
    # "What the site trusts"): an import arrives unrated, each of its players a new
    # person suggested as a match of the one known, and marking it rated accepts the
    # suggestions, a merge each (about 7 ms; some 28,500 at full size). What those
    # merges leave, the seats on the people known, is made here at once.
    Tournament.objects.filter(pk=first.pk).update(rated=True)
    content = services.backup_content(
        services.backup_take(tournament=first, reason="bench archive")
    )
    for n in range(2, tournaments + 1):
        copy = services.tournament_import(content=content, slug=f"{first.slug}-{n}")
        Tournament.objects.filter(pk=copy.pk).update(published=True, rated=True)
        _suggestions_accepted(copy)


def _suggestions_accepted(tournament) -> None:
    """Every seat of a suggested namesake on the person suggested; the namesakes,
    with their suggestions, gone."""
    from django.db.models import OuterRef, Subquery

    from tournament.models import NamesakeSuggestion, Person, Seat

    suggested = NamesakeSuggestion.objects.filter(tournament=tournament)
    namesakes = list(suggested.values_list("namesake", flat=True))
    Seat.objects.filter(person__in=namesakes).update(
        person=Subquery(
            suggested.filter(namesake=OuterRef("person")).values("person")[:1]
        )
    )
    Person.objects.filter(pk__in=namesakes).delete()


def _stored() -> tuple[list, list]:
    from scoring.models import PersonRating, RatingStep

    return (
        list(
            PersonRating.objects.order_by("person").values_list("person", "mu", "sigma")
        ),
        list(
            RatingStep.objects.order_by("person", "position").values_list(
                "person", "position", "mu", "sigma"
            )
        ),
    )


def _child(tournaments: int) -> dict:
    import django

    django.setup()
    from django.db import transaction

    from scoring.domain.ratings import Outcome, RatedMatch, rate
    from scoring.models import RatedGame
    from scoring.ratings.services import (
        ratings_behind,
        ratings_rebuild,
        ratings_refresh,
    )
    from tournament.models import Person, Tournament

    _site(tournaments)
    with transaction.atomic():
        started = time.perf_counter()
        rated = ratings_rebuild()
        if not rated:
            raise BenchFailed("the rebuild rated no match")
        rebuild_s = time.perf_counter() - started
        games = list(
            RatedGame.objects.order_by("position").values_list(
                "match", "side_a", "side_b", "outcome", "position"
            )
        )
        whole = _stored()
        middle = games[len(games) // 2][4]
        ratings_refresh(since=middle)
        if _stored() != whole:
            raise BenchFailed("a refresh from the middle stored other figures")
        if ratings_behind() is not None:
            raise BenchFailed("the ratings are behind the sheets after a rebuild")
        look_ms = median_ms(ratings_behind, 5)
        last = games[-1][0]
        idle_ms = median_ms(lambda: ratings_refresh(since=games[-1][4], sheet=last), 5)
        transaction.set_rollback(True)
    # A match taken with empty sides (nobody to rate) is not rated.
    matches = [RatedMatch(m, a, b, Outcome(o)) for m, a, b, o, _ in games if a]
    started = time.perf_counter()
    rate(matches)
    pure_s = time.perf_counter() - started
    return {
        "tournaments": Tournament.objects.count(),
        "people": Person.objects.count(),
        "matches": rated,
        "steps": len(whole[1]),
        "rebuild_ms": rebuild_s * 1000,
        "pure_ms": pure_s * 1000,
        "look_ms": look_ms,
        "idle_ms": idle_ms,
    }


def run(session: Session, argv: list[str]) -> list[Figure]:
    parser = argparse.ArgumentParser(prog="python -m bench rebuild")
    parser.add_argument("--teams", type=int, default=500)
    parser.add_argument("--tournaments", type=int, default=20)
    parser.add_argument("--vendors", default="sqlite,postgresql")
    args = parser.parse_args(argv)
    print(
        f"bench: every rating rebuilt on a site of {args.tournaments} tournaments of "
        f"{args.teams} teams"
    )
    figures = []
    for vendor in session.vendors(args.vendors):
        with session.database(
            vendor, "rebuild", teams=args.teams, stage="knockout"
        ) as db:
            r = run_module("bench.rebuild", db.url, "--child", str(args.tournaments))
        print(
            f"  {db.where:<10} {r['tournaments']} tournaments, {r['people']} people, "
            f"{r['matches']} matches rated, {r['steps']} steps stored; a refresh "
            "from the middle stored exactly the rebuild's figures"
        )
        print(
            f"    rating the same matches, pure: {r['pure_ms'] / 1000:.1f} s; "
            f"ratings_rebuild (read, rate, store): {r['rebuild_ms'] / 1000:.1f} s "
            f"({r['rebuild_ms'] / r['pure_ms']:.1f}x)"
        )
        print(
            f"    the look for a lost refresh (ratings_behind): {r['look_ms']:.1f} ms; "
            f"a sheet's refresh with nothing to do: {r['idle_ms']:.1f} ms"
        )
        figures.append(
            Figure(
                "ratings.rebuild",
                f"every rating rebuilt: {r['tournaments']} tournaments of "
                f"{args.teams} teams ({r['matches']} matches)",
                r["rebuild_ms"] / 1000,
                "s",
                "rating the same matches, pure",
                r["pure_ms"] / 1000,
                db.where,
            )
        )
    return figures


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--child":
        print(json.dumps(_child(int(sys.argv[2]))))
