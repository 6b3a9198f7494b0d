"""The championship every database benchmark measures, built once per run.

`league`: a tournament of N teams (500 in `make bench`) in 10 sections, one of them a
quarter of the field; its league drawn by the real draw (8 rounds x N/2 matches) and
released; every match's 18 deals and some penalties (out of turn twice, now and then a
kallakali) scored by the rules engine (rules.score_sheet) and stored as the services
store them: 36,000 deals for 500 teams. Nine sheets in ten are confirmed, the others
completed. `knockout`: then every sheet confirmed, the organizer given the organizer's
role, and a knockout of 24 seeded.

Run in a child process on a migrated database (bench.core.Session makes both):
    python -m bench.league league 500
    python -m bench.league knockout
Each prints what it stored as one line of JSON.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import defaultdict

SLUG = "bench-standings"
ORGANIZER = "bench-organizer"


def field(tournament, teams: int) -> None:
    """`teams` teams in 10 sections, one of them a quarter of the field and the rest
    even: a realistic, drawable field (`faults` plays on the same)."""
    from tournament.models import Section, Team

    sizes = [teams // 4] + [(teams - teams // 4) // 9] * 9
    sizes[-1] += teams - sum(sizes)
    for s, size in enumerate(sizes):
        section = Section.objects.create(
            tournament=tournament, name=f"Section {s + 1}", cities=[f"City {s}"]
        )
        Team.objects.bulk_create(
            Team(
                tournament=tournament,
                section=section,
                name=f"S{s + 1} team {t + 1}",
                captain_name=f"Captain {s}-{t}",
                captain_city=f"City {s}",
                captain_state="NJ",
                captain_country="USA",
                placement="city",
            )
            for t in range(size)
        )


def build(teams: int) -> dict[str, int]:
    """The tournament, drawn and scored; what was stored."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from scoring.domain import rules
    from scoring.league import services
    from scoring.models import Deal, Match, Penalty
    from scoring.sheets.tallies import tallies_store, tally_of_sheet
    from tournament.domain.rulesets import ruleset_get
    from tournament.models import Team, Tournament

    rng = random.Random(56)
    organizer = get_user_model().objects.create_user(ORGANIZER)
    tournament = Tournament.objects.create(
        name="Bench Standings", slug=SLUG, league_deals=18, published=True
    )
    field(tournament, teams)
    services.league_draw_generate(tournament=tournament, user=organizer, seed=56)
    services.league_rounds_release_all(tournament=tournament, user=organizer)

    ruleset = ruleset_get(tournament.ruleset)
    matches = list(
        Match.objects.filter(tournament=tournament).select_related("team_a", "team_b")
    )
    # Bidders for most deals (the statistics read them), from a generator of their
    # own so that the deals stay the ones every other figure was measured on.
    bidders = random.Random(28)
    deals, penalties, now = [], [], timezone.now()
    for match in matches:
        values = [
            rules.Deal(
                number=n,
                declarer=rng.choice([rules.Side.A, rules.Side.B]),
                value=rng.choice([28, 30, 32, 36, 40, 44, 48, 52, 56]),
                trump=rng.choice(list(rules.Trump)),
                level=rng.choices(list(rules.Level), weights=[20, 3, 1])[0],
                taken=rng.randint(16, 56),
            )
            for n in range(1, 19)
        ]
        # Some penalties: out of turn twice (a warning, then a point), now and then a
        # kallakali that gives a deal away.
        marks = []
        if rng.random() < 0.5:
            side = rng.choice([rules.Side.A, rules.Side.B])
            marks += [(3, side, rules.PenaltyKind.OUT_OF_TURN)] * 2
        if rng.random() < 0.2:
            marks.append(
                (
                    9,
                    rng.choice([rules.Side.A, rules.Side.B]),
                    rules.PenaltyKind.KALLAKALI,
                )
            )
        sheet = rules.score_sheet(
            ruleset,
            values,
            [
                rules.Penalty(k, d, side, kind)
                for k, (d, side, kind) in enumerate(marks)
            ],
            deals_scheduled=18,
        )
        stored = {}
        for value, row in zip(values, sheet.rows, strict=True):
            stored[value.number] = Deal(
                match=match,
                number=value.number,
                declarer=value.declarer,
                value=value.value,
                trump=value.trump,
                level=value.level,
                taken=value.taken,
                made=row.result.made,
                award_to=row.result.award_to,
                award=row.result.award,
                awarded_by=row.result.awarded_by or "",
                bidder=(
                    f"{match.team(value.declarer).name} player {bidders.randint(1, 3)}"
                    if bidders.random() < 0.85
                    else ""
                ),
                entered_by=organizer,
            )
        deals += stored.values()
        for (number, side, kind), result in zip(marks, sheet.penalties, strict=True):
            penalties.append(
                (stored[number], side, kind, result.points, result.warning)
            )
        match.total_a, match.total_b = sheet.total_a, sheet.total_b
        match.deals_won_a, match.deals_won_b = sheet.deals_won_a, sheet.deals_won_b
        match.winner = sheet.winner.value if sheet.winner else ""
        confirmed = rng.random() < 0.9
        match.status = "confirmed" if confirmed else "completed"
        match.confirmed_at = now if confirmed else None
        match.version = 19 + len(marks)
    Deal.objects.bulk_create(deals, batch_size=2000)
    Penalty.objects.bulk_create(
        (
            Penalty(
                deal=deal,
                offender=side,
                kind=kind,
                points=points,
                warning=warning,
                entered_by=organizer,
            )
            for deal, side, kind, points, warning in penalties
        ),
        batch_size=2000,
    )
    # What every sheet write stores for the statistics (scoring/sheets/tallies.py).
    by_match = defaultdict(list)
    for deal in deals:
        by_match[deal.match_id].append(deal)
    marked = defaultdict(list)
    for deal, side, kind, _, _ in penalties:
        marked[deal.match_id].append(Penalty(offender=side, kind=kind))
    for match in matches:
        match.tally = tally_of_sheet(by_match[match.pk], marked[match.pk])
    Match.objects.bulk_update(
        matches,
        [
            "total_a",
            "total_b",
            "deals_won_a",
            "deals_won_b",
            "winner",
            "status",
            "confirmed_at",
            "version",
            "tally",
        ],
        batch_size=500,
    )
    tallies_store([m.pk for m in matches])
    return {
        "teams": Team.objects.filter(tournament=tournament).count(),
        "matches": len(matches),
        "deals": Deal.objects.count(),
        "penalties": Penalty.objects.count(),
    }


def knockout() -> dict:
    """Every sheet confirmed, the organizer's role, a knockout of 24 seeded (without
    its deals decided: its sheets are open)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from brackets import services as brackets
    from scoring.models import Match
    from tournament.domain.types import Role
    from tournament.models import Membership, Tournament

    tournament = Tournament.objects.get(slug=SLUG)
    organizer = get_user_model().objects.get(username=ORGANIZER)
    Membership.objects.create(
        tournament=tournament, user=organizer, role=Role.ORGANIZER
    )
    Match.objects.filter(status="completed").update(
        status="confirmed", confirmed_at=timezone.now()
    )
    brackets.knockout_seed(
        tournament=tournament, user=organizer, qualifiers=24, deals=None
    )
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return {"qualifiers": 24}


def main(argv: list[str]) -> dict:
    import django

    django.setup()
    if argv[0] == "league":
        from django.db import connection

        started = time.perf_counter()
        stored = build(int(argv[1]))
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        return {**stored, "built_s": time.perf_counter() - started}
    return knockout()


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
