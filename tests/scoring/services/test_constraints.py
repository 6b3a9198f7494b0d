"""Every named constraint of the score sheet refuses a bad row at the database."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.models import Deal, Dispute, ExportJob, Match, Penalty, SheetChange
from scoring.sheets import services
from tests.factories import SectionFactory, TeamFactory, TournamentFactory, member
from tests.scoring.conftest import deal_body
from tournament.domain.types import Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def ctx():
    tournament = TournamentFactory()
    a = TeamFactory(section=SectionFactory(tournament=tournament, states=["NJ"]))
    b = TeamFactory(section=SectionFactory(tournament=tournament, states=["TX"]))
    user = member(tournament, Role.ORGANIZER)
    match = services.match_create(
        tournament=tournament, user=user, team_a=a.pk, team_b=b.pk, round=1, table=1
    )
    deal, _ = services.score_sheet_deal_record(
        match_id=match.pk, user=user, version=1, **deal_body(1)
    )
    return {"match": Match.objects.get(pk=match.pk), "deal": deal, "a": a, "b": b}


def _match(ctx, **kw):
    m = ctx["match"]
    values = {
        "tournament": m.tournament,
        "team_a": ctx["a"],
        "team_b": ctx["b"],
        "round": 2,
        "table": 1,
        "deals_scheduled": 18,
    } | kw
    return Match(**values).save()


def _deal(ctx, **kw):
    values = {
        "match": ctx["match"],
        "number": 2,
        "declarer": "A",
        "value": 40,
        "trump": "clubs",
        "level": "none",
        "taken": 40,
        "made": True,
        "award_to": "A",
        "award": 2,
    } | kw
    return Deal(**values).save()


def _penalty(ctx, **kw):
    values = {"deal": ctx["deal"], "offender": "A", "kind": "kallakali", "points": 3}
    return Penalty(**(values | kw)).save()


def _change(ctx, **kw):
    values = {"match": ctx["match"], "version": 1, "action": "deal_add"} | kw
    return SheetChange(**values).save()


def _dispute(ctx, **kw):
    values = {
        "match": ctx["match"],
        "text": "deal 1 was misdealt",
        "raised_by_name": "x",
        "raised_as": "scorer",
        "raised_at": timezone.now(),
    } | kw
    return Dispute(**values).save()


def _export(ctx, **kw):
    values = {"tournament": ctx["match"].tournament} | kw
    return ExportJob(**values).save()


CASES = {
    "scoring_match_teams_differ": lambda c: _match(c, team_b=c["a"]),
    "scoring_match_stage_known": lambda c: _match(c, stage="friendly"),
    "scoring_match_status_known": lambda c: _match(c, status="abandoned"),
    "scoring_match_round_table_positive": lambda c: _match(c, table=0),
    "scoring_match_deals_scheduled_1_99": lambda c: _match(c, deals_scheduled=100),
    "scoring_match_version_positive": lambda c: _match(c, version=0),
    "scoring_match_winner_known": lambda c: _match(c, status="completed", winner="C"),
    "scoring_match_winner_only_when_complete": lambda c: _match(
        c, status="in_progress", winner="A"
    ),
    "scoring_match_confirmed_when_locked": lambda c: _match(c, status="confirmed"),
    "scoring_match_table_once_per_league_round": lambda c: _match(c, round=1),
    "scoring_match_table_one_open_sheet_per_knockout_round": lambda c: [
        _match(c, stage="knockout", round=5),
        _match(c, stage="knockout", round=5, status="in_progress"),
    ],
    "scoring_match_tiebreak_knockout_only": lambda c: _match(c, tiebreak="toss"),
    "scoring_match_toss_whole_in_knockout": lambda c: _match(
        c, stage="knockout", tiebreak="toss", toss_winner="A"
    ),
    "scoring_deal_number_once": lambda c: _deal(c, number=1),
    "scoring_deal_number_1_99": lambda c: _deal(c, number=100),
    "scoring_deal_value_28_56": lambda c: _deal(c, value=27),
    "scoring_deal_taken_0_56": lambda c: _deal(c, taken=57),
    "scoring_deal_declarer_known": lambda c: _deal(c, declarer="C"),
    "scoring_deal_trump_known": lambda c: _deal(c, trump="stars"),
    "scoring_deal_level_known": lambda c: _deal(c, level="tripled"),
    "scoring_deal_award_to_known": lambda c: _deal(c, award_to=""),
    "scoring_deal_award_positive": lambda c: _deal(c, award=0),
    "scoring_deal_awarded_by_known": lambda c: _deal(c, awarded_by="conduct"),
    "scoring_penalty_offender_known": lambda c: _penalty(c, offender="C"),
    "scoring_penalty_kind_known": lambda c: _penalty(c, kind="rudeness"),
    "scoring_penalty_points_by_kind": lambda c: _penalty(c, points=2),
    "scoring_match_rules_edition_known": lambda c: _match(c, rules_edition=3),
    "scoring_sheet_change_action_known": lambda c: _change(c, action="erase"),
    "scoring_sheet_change_reason_given": lambda c: _change(c, action="forfeit"),
    "scoring_match_forfeit_whole": lambda c: _match(
        c, status="forfeited", forfeit_absent="A", forfeit_reason="late", winner="A"
    ),
    "scoring_dispute_text_present": lambda c: _dispute(c, text=""),
    "scoring_dispute_deal_1_99": lambda c: _dispute(c, deal=100),
    "scoring_dispute_ruled_in_words": lambda c: _dispute(c, ruled_at=timezone.now()),
    "scoring_sheet_change_source_known": lambda c: _change(c, source="fax"),
    "scoring_sheet_change_request_once": lambda c: [
        _change(c, request_key="retry-1"),
        _change(c, version=2, request_key="retry-1"),
    ],
    "scoring_export_status_known": lambda c: _export(c, status="lost"),
    "scoring_export_done_has_file": lambda c: _export(
        c, status="done", finished_at=timezone.now()
    ),
    "scoring_export_file_only_when_done": lambda c: _export(c, content=b"half"),
    "scoring_export_progress_within_total": lambda c: _export(c, progress=3, total=2),
}


def test_every_named_constraint_has_a_case():
    names = {
        c.name
        for model in (Match, Deal, Penalty, SheetChange, Dispute, ExportJob)
        for c in model._meta.constraints
    }
    assert names == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_named_constraint_refuses_a_bad_row(ctx, name):
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        CASES[name](ctx)
    message = str(refused.value)
    assert name in message or "UNIQUE constraint failed" in message


@pytest.mark.parametrize(
    ("kind", "points", "warning"),
    [
        ("out_of_turn", 0, True),
        ("out_of_turn", 1, False),
        ("lead_out_of_turn", 0, True),
        ("lead_out_of_turn", 1, False),
        ("review", 1, False),
        ("conduct", 2, False),
        ("conduct", 5, False),
        ("constraining_hand", 3, False),
    ],
)
def test_penalty_points_that_the_rules_give_pass(ctx, kind, points, warning):
    _penalty(ctx, kind=kind, points=points, warning=warning)


@pytest.mark.parametrize(
    ("kind", "points", "warning"),
    [
        ("out_of_turn", 1, True),
        ("out_of_turn", 2, False),
        ("lead_out_of_turn", 2, False),
        ("review", 0, False),
        ("review", 0, True),
        ("conduct", 1, True),
        ("conduct", 6, False),
    ],
)
def test_penalty_points_that_the_rules_do_not_give_fail(ctx, kind, points, warning):
    with pytest.raises(IntegrityError), transaction.atomic():
        _penalty(ctx, kind=kind, points=points, warning=warning)


def test_a_confirmed_match_with_its_time_passes(ctx):
    _match(ctx, status="confirmed", confirmed_at=timezone.now(), winner="A")


def test_a_knockout_table_plays_the_series_games_one_after_another(ctx):
    """rules.md §6: the final's games at one table; a void sheet stays there too."""
    done = {"status": "confirmed", "confirmed_at": timezone.now(), "winner": "A"}
    _match(ctx, stage="knockout", round=5, **done)
    _match(ctx, stage="knockout", round=5, status="void")
    _match(ctx, stage="knockout", round=5)
    assert Match.objects.filter(stage="knockout", round=5, table=1).count() == 3
