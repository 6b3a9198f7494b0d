"""Every named constraint of the knockout refuses a bad row at the database."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from brackets.models import Bracket, Game, KnockoutMatch, Seed
from tests.brackets.knockout import final_league
from tests.conftest import as_user
from tournament.models import Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def ctx(api):
    tournament, organizer = final_league(2, 4, qualifiers=4, slug="rows-cup")
    as_user(api, organizer)
    answer = api.post("/api/v1/tournaments/rows-cup/knockout/", {}, "json")
    assert answer.status_code == 201
    bracket = Bracket.objects.get(tournament=tournament)
    semi = KnockoutMatch.objects.get(bracket=bracket, number=1)
    seeded = Seed.objects.values("team")
    outside = Team.objects.filter(tournament=tournament).exclude(pk__in=seeded)
    return {
        "bracket": bracket,
        "semi": semi,
        "seed": Seed.objects.first(),
        "unseeded": outside.first(),
    }


def _bracket(c, **kw):
    b = c["bracket"]
    values = {"tournament": b.tournament, "qualifiers": 4, "size": 4, "deals": {}}
    Bracket.objects.filter(pk=b.pk).update(**(values | kw))


def _seed(c, **kw):
    values = {"bracket": c["bracket"], "number": 9, "team": c["seed"].team}
    Seed(**(values | kw)).save()


def _match(c, **kw):
    semi = c["semi"]
    values = {
        "bracket": c["bracket"],
        "number": 9,
        "round": 1,
        "position": 3,
        "kind": "main",
        "stage": "semi_final",
        "feed_a": "seed",
        "seed_a": 1,
        "feed_b": "winner",
        "from_b": semi,
    }
    KnockoutMatch(**(values | kw)).save()


def _game(c, **kw):
    game = c["semi"].games.get()
    values = {"knockout_match": c["semi"], "number": 1, "sheet": game.sheet}
    if kw.pop("new_sheet", False):
        game.sheet.pk = None
        game.sheet.table = 9
        game.sheet.save()
        values["sheet"] = game.sheet
    Game(**(values | kw)).save()


CASES = {
    "brackets_bracket_qualifiers_range": lambda c: _bracket(c, qualifiers=1, size=1),
    "brackets_bracket_size_fits": lambda c: _bracket(c, size=8),
    "brackets_bracket_final_best_of_odd": lambda c: _bracket(c, final_best_of=2),
    "brackets_seed_number_once": lambda c: _seed(c, number=1, team=c["unseeded"]),
    "brackets_seed_team_once": lambda c: _seed(c),
    "brackets_seed_number_positive": lambda c: _seed(c, number=0, team=c["unseeded"]),
    "brackets_match_number_once": lambda c: _match(c, number=1),
    "brackets_match_kind_known": lambda c: _match(c, kind="plate"),
    "brackets_match_feed_known": lambda c: _match(c, feed_b="bye", from_b=None),
    "brackets_match_place_has_one_source": lambda c: _match(c, seed_b=2),
    "brackets_match_teams_differ": lambda c: _match(
        c, team_a=c["semi"].team_a, team_b=c["semi"].team_a
    ),
    "brackets_match_winner_known": lambda c: _match(
        c,
        team_a=c["semi"].team_a,
        team_b=c["semi"].team_b,
        winner="C",
        decided_at=timezone.now(),
    ),
    "brackets_match_winner_with_both_teams": lambda c: _match(
        c, winner="A", decided_at=timezone.now()
    ),
    "brackets_match_best_of_odd": lambda c: _match(c, best_of=2),
    "brackets_game_number_once_live": lambda c: _game(c, new_sheet=True),
    "brackets_game_number_1_5": lambda c: _game(c, number=6, new_sheet=True),
}


def test_every_named_constraint_has_a_case():
    names = {
        c.name
        for model in (Bracket, Seed, KnockoutMatch, Game)
        for c in model._meta.constraints
    }
    assert names == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_named_constraint_refuses_a_bad_row(ctx, name):
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        CASES[name](ctx)
    message = str(refused.value)
    assert name in message or "UNIQUE constraint failed" in message


def test_a_voided_game_leaves_its_number_free(ctx):
    game = ctx["semi"].games.get()
    game.voided_at = timezone.now()
    game.save()
    _game(ctx, new_sheet=True)
    assert ctx["semi"].games.count() == 2
