"""The knockout's REST API: seed it, read the bracket (API.md, Knockout)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.domain import tiebreak
from scoring.sheets.apis import TossOutput, toss_data
from tournament.domain.types import Role
from tournament.web.api import ReadOnlyOrAuthenticated, TournamentScopedMixin

from . import services
from .domain.progression import Feed, Kind
from .domain.seeding import QUALIFIERS_MAX, QUALIFIERS_MIN
from .selectors import BracketView, MatchView, bracket_get, final_places_get

SIDE_CHOICES = ["A", "B"]
FEED_CHOICES = [f.value for f in Feed]
KIND_CHOICES = [k.value for k in Kind]


class BracketTiebreakOutput(serializers.Serializer):
    phase = serializers.ChoiceField(choices=[p.value for p in tiebreak.Phase])
    decided_by = serializers.CharField(allow_null=True)
    toss = TossOutput(allow_null=True)


class GameOutput(serializers.Serializer):
    number = serializers.IntegerField()
    match = serializers.IntegerField(help_text="The game's score sheet.")
    status = serializers.CharField()
    total_a = serializers.IntegerField()
    total_b = serializers.IntegerField()
    tiebreak = BracketTiebreakOutput(allow_null=True)
    winner = serializers.ChoiceField(choices=SIDE_CHOICES, allow_null=True)


class BracketMatchOutput(serializers.Serializer):
    id = serializers.IntegerField(
        help_text="The bracket match (from_a/from_b name it)."
    )
    number = serializers.IntegerField(help_text="In the order of play.")
    round = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    stage = serializers.CharField()
    seed_a = serializers.IntegerField(allow_null=True)
    seed_b = serializers.IntegerField(allow_null=True)
    team_a = serializers.IntegerField(allow_null=True)
    team_b = serializers.IntegerField(allow_null=True)
    team_a_name = serializers.CharField(allow_null=True)
    team_b_name = serializers.CharField(allow_null=True)
    from_a = serializers.IntegerField(allow_null=True)
    from_b = serializers.IntegerField(allow_null=True)
    feed_a = serializers.ChoiceField(choices=FEED_CHOICES)
    feed_b = serializers.ChoiceField(choices=FEED_CHOICES)
    deals_scheduled = serializers.IntegerField(allow_null=True)
    best_of = serializers.IntegerField()
    match = serializers.IntegerField(
        allow_null=True, help_text="The score sheet being played (the latest game)."
    )
    status = serializers.ChoiceField(
        choices=["waiting", "scheduled", "in_progress", "completed", "decided"]
    )
    total_a = serializers.IntegerField(
        allow_null=True, help_text="The sheet's total; in the final, games won."
    )
    total_b = serializers.IntegerField(allow_null=True)
    tiebreak = BracketTiebreakOutput(allow_null=True)
    games = GameOutput(many=True)
    voided_sheets = serializers.IntegerField()
    winner = serializers.ChoiceField(choices=SIDE_CHOICES, allow_null=True)
    winner_team = serializers.IntegerField(allow_null=True)


class ByeOutput(serializers.Serializer):
    seed = serializers.IntegerField()
    team = serializers.IntegerField()
    team_name = serializers.CharField()


class BracketRoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    stage = serializers.CharField()
    deals_scheduled = serializers.IntegerField(allow_null=True)
    matches = BracketMatchOutput(many=True)
    byes = ByeOutput(many=True)


class PlaceOutput(serializers.Serializer):
    team = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField()


class FinalPlaceOutput(serializers.Serializer):
    team = serializers.IntegerField()
    team_name = serializers.CharField()
    final_place = serializers.IntegerField(
        help_text="Shared places repeat the number: 5, 5, 5, 5, 9, …"
    )
    league_rank = serializers.IntegerField()


class BracketOutput(serializers.Serializer):
    seeded = serializers.BooleanField()
    qualifiers = serializers.IntegerField()
    size = serializers.IntegerField(allow_null=True)
    deals = serializers.DictField(child=serializers.IntegerField(allow_null=True))
    lot_seed = serializers.IntegerField(allow_null=True)
    seeds = ByeOutput(many=True)
    rounds = BracketRoundOutput(many=True)
    champion = PlaceOutput(allow_null=True)
    runner_up = PlaceOutput(allow_null=True)
    second_runner_up = PlaceOutput(allow_null=True)
    third_runner_up = PlaceOutput(allow_null=True)
    places = FinalPlaceOutput(
        many=True,
        allow_null=True,
        help_text="Every team's final place once the final is decided (RULES.md "
        "§6), best first: the knockout's, then the teams that did not qualify in "
        "league order, then the teams that withdrew; null before.",
    )


def tiebreak_summary(sheet) -> dict[str, Any] | None:
    """Where a knockout sheet's tie-break stands, from its stored row."""
    if not sheet.tiebreak or sheet.deals_scheduled is None:
        return None
    return {
        "phase": sheet.tiebreak,
        "decided_by": sheet.tiebreak_decided_by,
        "toss": toss_data(sheet.toss),
    }


def _game_data(game) -> dict[str, Any]:
    sheet = game.sheet
    return {
        "number": game.number,
        "match": sheet.pk,
        "status": sheet.status,
        "total_a": sheet.total_a,
        "total_b": sheet.total_b,
        "tiebreak": tiebreak_summary(sheet),
        "winner": sheet.winner or None,
    }


def _match_data(view: MatchView) -> dict[str, Any]:
    m = view.match
    sheet = view.sheet
    total_a, total_b = view.totals
    return {
        "id": m.pk,
        "number": m.number,
        "round": m.round,
        "kind": m.kind,
        "stage": m.stage,
        "seed_a": view.seed_a,
        "seed_b": view.seed_b,
        "team_a": m.team_a_id,
        "team_b": m.team_b_id,
        "team_a_name": m.team_a.name if m.team_a_id else None,
        "team_b_name": m.team_b.name if m.team_b_id else None,
        "from_a": m.from_a_id,
        "from_b": m.from_b_id,
        "feed_a": m.feed_a,
        "feed_b": m.feed_b,
        "deals_scheduled": m.deals_scheduled,
        "best_of": m.best_of,
        "match": sheet.pk if sheet else None,
        "status": view.status,
        "total_a": total_a,
        "total_b": total_b,
        "tiebreak": tiebreak_summary(sheet) if sheet and m.best_of == 1 else None,
        "games": [_game_data(g) for g in view.games] if m.best_of > 1 else [],
        "voided_sheets": view.voided,
        "winner": m.winner or None,
        "winner_team": m.team_id(m.winner) if m.winner else None,
    }


def _place(team, seeds: dict[int, int]) -> dict[str, Any] | None:
    if team is None:
        return None
    return {"team": team.pk, "name": team.name, "seed": seeds[team.pk]}


def places_data(places) -> list[dict[str, Any]] | None:
    if places is None:
        return None
    return [
        {
            "team": row.team.id,
            "team_name": row.team.name,
            "final_place": row.final_place,
            "league_rank": row.league_rank,
        }
        for row in places
    ]


def bracket_data(view: BracketView | None, *, qualifiers: int) -> dict[str, Any]:
    """The bracket as the API gives it; `places` once the final is decided (the
    standings' six queries more, then only)."""
    if view is None:
        return {
            "seeded": False,
            "qualifiers": qualifiers,
            "size": None,
            "deals": {},
            "lot_seed": None,
            "seeds": [],
            "rounds": [],
            "champion": None,
            "runner_up": None,
            "second_runner_up": None,
            "third_runner_up": None,
            "places": None,
        }
    seeds = {s.team_id: s.number for s in view.seeds}
    podium = view.podium
    return {
        "seeded": True,
        "qualifiers": view.bracket.qualifiers,
        "size": view.bracket.size,
        "deals": view.bracket.deals,
        "lot_seed": view.bracket.lot.seed if view.bracket.lot else None,
        "seeds": [
            {"seed": s.number, "team": s.team_id, "team_name": s.team.name}
            for s in view.seeds
        ],
        "rounds": [
            {
                "number": r.number,
                "name": r.name,
                "stage": r.stage,
                "deals_scheduled": r.deals_scheduled,
                "matches": [_match_data(m) for m in r.matches],
                "byes": [
                    {"seed": s.number, "team": s.team_id, "team_name": s.team.name}
                    for s in r.byes
                ],
            }
            for r in view.rounds
        ],
        "champion": _place(podium.champion, seeds),
        "runner_up": _place(podium.runner_up, seeds),
        "second_runner_up": _place(podium.second_runner_up, seeds),
        "third_runner_up": _place(podium.third_runner_up, seeds),
        "places": places_data(final_places_get(tournament=view.tournament, view=view)),
    }


class BracketApi(TournamentScopedMixin, APIView):
    """The knockout bracket: rounds in order, first knockout round first, each match
    with its seeds, teams (null until known), where each place comes from, scores,
    tie-break and the final's games; and the podium once known."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(operation_id="bracket_get", responses=BracketOutput)
    def get(self, request, slug):
        view = bracket_get(tournament=self.tournament)
        return Response(bracket_data(view, qualifiers=self.tournament.qualifiers))


class KnockoutSeedApi(TournamentScopedMixin, APIView):
    """An organizer seeds the knockout from the final league standings (rules.md
    §6); 409 while any league sheet is unconfirmed. Equal teams where a seed depends
    on their order are ordered by lot, drawn and recorded now if not drawn yet."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(serializers.Serializer):
        qualifiers = serializers.IntegerField(
            required=False,
            min_value=QUALIFIERS_MIN,
            max_value=QUALIFIERS_MAX,
            help_text="How many teams qualify; the tournament's setting by default.",
        )
        deals = serializers.DictField(
            child=serializers.IntegerField(),
            required=False,
            help_text="Deals per match by stage (round_of_32, round_of_16, "
            "quarter_final, semi_final, second_runner_up, final); the rules' "
            "defaults for the others.",
        )

    @extend_schema(
        operation_id="knockout_seed",
        request=InputSerializer,
        responses={201: BracketOutput},
    )
    def post(self, request, slug):
        self.require(Role.ORGANIZER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.knockout_seed(
            tournament=self.tournament, user=request.user, **data.validated_data
        )
        view = bracket_get(tournament=self.tournament)
        return Response(
            bracket_data(view, qualifiers=self.tournament.qualifiers),
            status=status.HTTP_201_CREATED,
        )
