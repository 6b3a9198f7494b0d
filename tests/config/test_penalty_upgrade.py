"""An upgrade never changes a result already on a sheet (issue 50, docs/rules.md,
"Editions"): a gcka league whose sheets hold penalties scored by the rules before
release 0.4 (a team's first out_of_turn a warning, under gcka too) goes through the
real migration (scoring 0014 back and forward), and every total, penalty, standing and
rating is the same after it, and after every sheet is scored again as a write does.
A sheet with no penalty takes the current rules: its first gcka out_of_turn is 1."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.sql import emit_post_migrate_signal
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.league.selectors import standings_get
from scoring.models import Match, Penalty, PersonRating
from scoring.sheets import services
from scoring.sheets.locking import sheet_rows
from scoring.sheets.selectors import sheet_settle
from tests.factories import TournamentFactory, member
from tests.scoring.league import drawn_league, play_quickly
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db(transaction=True)


def _penalty(match_id, user, deal, offender, kind, points=None):
    version = Match.objects.get(pk=match_id).version
    penalty, _ = services.score_sheet_penalty_record(
        match_id=match_id,
        user=user,
        version=version,
        deal=deal,
        offender=offender,
        kind=kind,
        points=points,
        by_organizer=True,
    )
    return penalty


def _results(tournament):
    matches = Match.objects.filter(tournament=tournament).order_by("pk")
    sheets = [
        (m.pk, m.total_a, m.total_b, m.winner, m.status, m.deals_won_a, m.deals_won_b)
        for m in matches
    ]
    penalties = sorted(
        Penalty.objects.filter(deal__match__tournament=tournament).values_list(
            "pk", "points", "warning"
        )
    )
    table = [
        (row.team.id, row.standing, row.shared, row.qualifies)
        for row in standings_get(tournament=tournament).rows
    ]
    ratings = sorted(
        PersonRating.objects.values_list("person_id", "mu", "sigma", "matches")
    )
    return sheets, penalties, table, ratings


def test_an_upgrade_keeps_every_result_scored_by_the_old_rules():
    tournament = TournamentFactory(
        slug="gcka-upgrade", ruleset="gcka", league_deals=7, league_rounds=3
    )
    organizer = member(tournament, Role.ORGANIZER)
    matches = drawn_league(tournament, organizer, sections=2, per_section=4)
    for n, match in enumerate(matches):
        play_quickly(match.pk, organizer, 12 + n % 5, 11 + n % 3, deals=7)
    # The sheets before release 0.4: scored by the first edition, where a team's
    # first out_of_turn was a warning under every rule set.
    old = [m.pk for m in matches[::2]]
    Match.objects.filter(pk__in=old).update(rules_edition=1)
    for match_id in old:
        warned = _penalty(match_id, organizer, 2, "A", "out_of_turn")
        assert (warned.points, warned.warning) == (0, True)
        _penalty(match_id, organizer, 3, "A", "out_of_turn")
        _penalty(match_id, organizer, 4, "B", "conduct", 2)
        _penalty(match_id, organizer, 5, "B", "kallakali")
    for match in Match.objects.filter(tournament=tournament):
        services.score_sheet_confirm(
            match_id=match.pk,
            user=organizer,
            version=match.version,
            roles=frozenset({Role.ORGANIZER}),
            sides=frozenset(),
        )
    call_command("ratings_rebuild", stdout=StringIO())
    before = _results(tournament)
    assert before[1] and any(w for _, _, w in before[1])  # warnings are stored
    assert before[3]  # people were rated

    # The upgrade: scoring back before 0014 and forward again, as migrate does.
    executor = MigrationExecutor(connection)
    leaves = [key for key in executor.loader.graph.leaf_nodes()]
    executor.migrate([("scoring", "0013_rebuild_wanted")])
    executor = MigrationExecutor(connection)
    executor.migrate(leaves)
    emit_post_migrate_signal(0, False, connection.alias)

    editions = dict(
        Match.objects.filter(tournament=tournament).values_list("pk", "rules_edition")
    )
    assert editions == {m.pk: 1 if m.pk in old else 2 for m in matches}
    assert _results(tournament)[:3] == before[:3]

    # Every sheet scored again, as any later write scores it (sheet_settle, under
    # the sheet's edition): the same totals and penalties as stored.
    for match in Match.objects.filter(tournament=tournament).select_related(
        "tournament"
    ):
        deals, penalties = sheet_rows(match)
        sheet, _ = sheet_settle(match, deals, penalties)
        assert (sheet.total_a, sheet.total_b) == (match.total_a, match.total_b)
        assert {r.key: (r.points, r.warning) for r in sheet.penalties} == {
            p.pk: (p.points, p.warning) for p in penalties
        }
    call_command("ratings_rebuild", stdout=StringIO())
    assert _results(tournament) == before

    # A sheet with no penalty before the upgrade takes the rules of now: under gcka
    # there is no warning, the first out_of_turn is 1 point.
    fresh = next(m for m in matches if m.pk not in old)
    services.score_sheet_reopen(match_id=fresh.pk, user=organizer, reason="ruling")
    penalty = _penalty(fresh.pk, organizer, 2, "A", "out_of_turn")
    assert (penalty.points, penalty.warning) == (1, False)
