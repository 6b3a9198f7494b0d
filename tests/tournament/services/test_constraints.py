"""Every named constraint refuses a bad row at the database, past the services."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.models import Announcement, Bye, LeagueDraw, LeagueRound
from tests.factories import SectionFactory, TeamFactory, TournamentFactory, UserFactory
from tournament.models import (
    Invitation,
    Membership,
    Player,
    Section,
    Substitution,
    Team,
    Tournament,
)

pytestmark = pytest.mark.django_db


def _tournament(**kw):
    return Tournament(name="T", slug="t", league_deals=18, **kw)


def _team(section, **kw):
    values = {
        "tournament": section.tournament,
        "section": section,
        "name": "X",
        "captain_name": "Jose",
        "captain_city": "Edison",
        "captain_state": "NJ",
        "captain_country": "USA",
        "placement": "state",
    } | kw
    return Team(**values)


def _bad_tournament(**kw):
    return lambda ctx: _tournament(**kw).save()


def _draw(ctx, **kw):
    values = {
        "tournament": ctx["section"].tournament,
        "number": 1,
        "seed": 1,
        "algorithm": "56-draw/1",
        "rounds": 8,
        "teams": 10,
        "most_from_one_section": 2,
        "mean_sections_met": 3.0,
    } | kw
    return LeagueDraw(**values)


def _bye(ctx, round, team=None):
    return Bye.objects.create(
        tournament=ctx["section"].tournament, round=round, team=team or ctx["team"]
    )


def _substitution(ctx, **kw):
    values = {
        "team": ctx["team"],
        "number": 1,
        "player_out": "Ann",
        "player_in": "Bea",
        "from_round": 2,
        "reason": "a late flight",
        "approved_at": timezone.now(),
    } | kw
    return Substitution(**values).save()


def _invitation(ctx, **kw):
    values = {
        "tournament": ctx["section"].tournament,
        "role": "scorer",
        "key_digest": "a" * 64,
        "expires_at": timezone.now(),
    } | kw
    return Invitation(**values).save()


def _round(ctx, number):
    return LeagueRound.objects.create(
        tournament=ctx["section"].tournament, number=number
    )


CASES = {
    "tournament_slug_unique": lambda ctx: (
        TournamentFactory(slug="dup"),
        _tournament().__class__(name="B", slug="dup", league_deals=18).save(),
    ),
    "tournament_ruleset_known": _bad_tournament(ruleset="bridge"),
    "tournament_status_known": _bad_tournament(status="paused"),
    "tournament_players_per_team_2_4": _bad_tournament(players_per_team=5),
    "tournament_league_rounds_1_50": _bad_tournament(league_rounds=0),
    "tournament_league_deals_1_99": lambda ctx: Tournament(
        name="T", slug="t", league_deals=None, ruleset="international"
    ).save(),
    "tournament_qualifiers_at_least_2": _bad_tournament(qualifiers=1),
    "tournament_name_present": lambda ctx: Tournament(
        name="", slug="t", league_deals=18
    ).save(),
    "tournament_time_zone_present": _bad_tournament(time_zone=""),
    "tournament_home_country_present": _bad_tournament(home_country=""),
    "tournament_ends_on_or_after_start": _bad_tournament(
        starts_on=timezone.now().date(),
        ends_on=timezone.now().date() - timedelta(days=1),
    ),
    "invitation_key_once": lambda ctx: [_invitation(ctx) for _ in range(2)],
    "invitation_role_known": lambda ctx: _invitation(ctx, role="referee"),
    "invitation_team_only_for_captain": lambda ctx: _invitation(ctx, role="captain"),
    "invitation_accepted_or_withdrawn_not_both": lambda ctx: _invitation(
        ctx, accepted_at=timezone.now(), withdrawn_at=timezone.now()
    ),
    "invitation_key_digest_sha256": lambda ctx: _invitation(ctx, key_digest="secret"),
    "announcement_text_present": lambda ctx: Announcement.objects.create(
        tournament=ctx["section"].tournament, text=""
    ),
    "section_name_once_per_tournament": lambda ctx: Section.objects.create(
        tournament=ctx["section"].tournament, name=ctx["section"].name.upper()
    ),
    "section_one_international": lambda ctx: Section.objects.create(
        tournament=ctx["section"].tournament, name="Abroad", is_international=True
    ),
    "section_name_present": lambda ctx: Section.objects.create(
        tournament=ctx["section"].tournament, name=""
    ),
    "team_name_once_per_tournament": lambda ctx: _team(
        ctx["section"], name=ctx["team"].name.lower()
    ).save(),
    "team_name_present": lambda ctx: _team(ctx["section"], name="").save(),
    "team_captain_name_present": lambda ctx: _team(
        ctx["section"], captain_name=""
    ).save(),
    "team_placement_known": lambda ctx: _team(ctx["section"], placement="luck").save(),
    "player_position_once_per_team": lambda ctx: Player.objects.create(
        team=ctx["team"], position=1, name="Someone Else"
    ),
    "player_name_once_per_team": lambda ctx: Player.objects.create(
        team=ctx["team"], position=4, name=ctx["team"].captain_name.upper()
    ),
    "player_position_1_4": lambda ctx: Player.objects.create(
        team=ctx["team"], position=5, name="Fifth"
    ),
    "player_name_present": lambda ctx: Player.objects.create(
        team=ctx["team"], position=4, name=""
    ),
    "membership_role_known": lambda ctx: Membership.objects.create(
        tournament=ctx["section"].tournament, user=ctx["user"], role="referee"
    ),
    "membership_team_only_for_captain": lambda ctx: Membership.objects.create(
        tournament=ctx["section"].tournament,
        user=ctx["user"],
        role="scorer",
        team=ctx["team"],
    ),
    "membership_role_once": lambda ctx: [
        Membership.objects.create(
            tournament=ctx["section"].tournament, user=ctx["user"], role="scorer"
        )
        for _ in range(2)
    ],
    "membership_one_captain_per_team": lambda ctx: [
        Membership.objects.create(
            tournament=ctx["section"].tournament,
            user=UserFactory(),
            role="captain",
            team=ctx["team"],
        )
        for _ in range(2)
    ],
    "tournament_draw_number_once": lambda ctx: [
        _draw(ctx, current=False).save() for _ in range(2)
    ],
    "tournament_draw_one_current": lambda ctx: [
        _draw(ctx, number=n).save() for n in (1, 2)
    ],
    "tournament_draw_seed_not_negative": lambda ctx: _draw(ctx, seed=-1).save(),
    "tournament_draw_counts_positive": lambda ctx: _draw(ctx, teams=1).save(),
    "tournament_round_once": lambda ctx: [_round(ctx, 1) for _ in range(2)],
    "tournament_round_number_positive": lambda ctx: _round(ctx, 0),
    "tournament_bye_once_per_round": lambda ctx: [
        _bye(ctx, 1),
        _bye(ctx, 1, TeamFactory(section=ctx["section"])),
    ],
    "tournament_bye_once_per_team": lambda ctx: [_bye(ctx, 1), _bye(ctx, 2)],
    "tournament_bye_round_positive": lambda ctx: _bye(ctx, 0),
    "tournament_substitutions_0_10": _bad_tournament(substitutions_allowed=11),
    "team_status_known": lambda ctx: _team(ctx["section"], status="late").save(),
    "team_withdrawn_has_round_and_reason": lambda ctx: _team(
        ctx["section"], status="withdrawn", withdrawn_from_round=3
    ).save(),
    "substitution_number_once_per_team": lambda ctx: [
        _substitution(ctx) for _ in range(2)
    ],
    "substitution_numbers_positive": lambda ctx: _substitution(ctx, from_round=0),
    "substitution_names_and_reason_present": lambda ctx: _substitution(ctx, reason=""),
    "substitution_players_differ": lambda ctx: _substitution(ctx, player_in="Ann"),
    "substitution_stage_known": lambda ctx: _substitution(ctx, stage="final"),
}


@pytest.fixture
def ctx():
    tournament = TournamentFactory()
    section = SectionFactory(tournament=tournament, name="Tri-State", states=["NJ"])
    return {
        "section": section,
        "team": TeamFactory(section=section),
        "user": UserFactory(),
    }


def test_every_named_constraint_has_a_case():
    names = {
        c.name
        for model in (
            Tournament,
            Section,
            Team,
            Player,
            Membership,
            LeagueDraw,
            LeagueRound,
            Bye,
            Substitution,
            Invitation,
            Announcement,
        )
        for c in model._meta.constraints
    }
    assert names == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_named_constraint_refuses_a_bad_row(ctx, name):
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        CASES[name](ctx)
    message = str(refused.value)
    # PostgreSQL names the constraint; SQLite names it for CHECK, the columns for
    # UNIQUE.
    assert name in message or "UNIQUE constraint failed" in message


def test_good_rows_pass_the_same_constraints(ctx):
    team = ctx["team"]
    Player.objects.create(team=team, position=4, name="Fourth Player")
    Membership.objects.create(
        tournament=team.tournament, user=ctx["user"], role="captain", team=team
    )
    assert team.players.count() == 4
    _draw(ctx).save()
    _draw(ctx, number=2, current=False).save()
    _round(ctx, 1)
    _bye(ctx, 1)
    _bye(ctx, 2, TeamFactory(section=ctx["section"]))
    assert Bye.objects.count() == 2
    _substitution(ctx)
    _team(
        ctx["section"],
        name="Gone",
        status="withdrawn",
        withdrawn_from_round=3,
        withdrawn_reason="flight home",
        withdrawn_at=timezone.now(),
    ).save()
