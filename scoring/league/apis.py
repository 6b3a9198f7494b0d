"""The REST API of the league (API.md "League"): the draw, its rounds and their
release, the standings with their lots.

Interfaces only: check the shape of the input and the caller's role, call one service
or selector, render.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.apis import TeamOutput
from tournament.domain.types import Role, RoundStage
from tournament.models import Substitution
from tournament.selectors import substitution_list, team_list
from tournament.web.api import (
    ID_MAX,
    NOT_MODIFIED,
    ReadOnlyOrAuthenticated,
    TournamentScopedMixin,
    if_none_match,
)
from tournament.web.etags import etag_sent

from ..domain import standings as ranking
from ..domain.rules import Stage
from ..models import STAGE_CHOICES
from ..sheets.apis import username_of
from ..sheets.fingerprints import standings_fingerprint
from ..sheets.selectors import (
    sees_drafts,
)
from . import services
from .selectors import (
    DrawState,
    draw_state,
    round_list,
    standings_get,
)

ORGANIZER = Role.ORGANIZER

# The league draw and its rounds
# ----------------------------------------------------------------------------------


class RoundMatchOutput(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    team_a = serializers.IntegerField(source="team_a_id")
    team_a_name = serializers.CharField(source="team_a.name")
    team_a_section = serializers.CharField(source="team_a.section.name")
    team_b = serializers.IntegerField(source="team_b_id")
    team_b_name = serializers.CharField(source="team_b.name")
    team_b_section = serializers.CharField(source="team_b.section.name")
    status = serializers.CharField()
    total_a = serializers.IntegerField()
    total_b = serializers.IntegerField()
    winner = serializers.SerializerMethodField()

    def get_winner(self, obj) -> str | None:
        return obj.winner or None


class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    stage = serializers.ChoiceField(choices=STAGE_CHOICES)
    released = serializers.BooleanField(
        help_text="False: a draft only organizers and scorers see."
    )
    matches = RoundMatchOutput(many=True)
    byes = serializers.SerializerMethodField(help_text="Ids of the teams with a bye.")

    def get_byes(self, obj) -> list[int]:
        return [team.pk for team in obj.byes]


class RoundListApi(TournamentScopedMixin, APIView):
    """The rounds in order, each with its matches and byes. Rounds the organizer has
    not released are shown to organizers and scorers only."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class FilterSerializer(serializers.Serializer):
        team = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)

    @extend_schema(
        operation_id="round_list",
        parameters=[FilterSerializer],
        responses=RoundOutput(many=True),
    )
    def get(self, request, slug):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        rounds = round_list(
            tournament=self.tournament,
            drafts=sees_drafts(self.roles),
            **filters.validated_data,
        )
        return Response(RoundOutput(rounds, many=True).data)


class RoundReleaseApi(TournamentScopedMixin, APIView):
    """An organizer releases a drafted round: its pairings become public."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(operation_id="round_release", request=None, responses=RoundOutput)
    def post(self, request, slug, number):
        self.require(ORGANIZER)
        services.league_round_release(
            tournament=self.tournament, user=request.user, number=number
        )
        rounds = round_list(tournament=self.tournament, drafts=True)
        found = next(
            r for r in rounds if r.stage == Stage.LEAGUE and r.number == number
        )
        return Response(RoundOutput(found).data)


class SeedInput(serializers.Serializer):
    """A draw's or a lot's seed: chosen at random when not given, recorded either
    way."""

    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=services.SEED_LIMIT - 1,
        help_text="Chosen at random when not given; recorded either way.",
    )


class ProblemOutput(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class SectionSizeOutput(serializers.Serializer):
    section = serializers.CharField()
    teams = serializers.IntegerField()


class SpreadOutput(serializers.Serializer):
    most_from_one_section = serializers.IntegerField(
        help_text="The most opponents any team meets from one section."
    )
    mean_sections_met = serializers.FloatField(
        help_text="How many sections a team's opponents come from, on average."
    )
    best_mean_sections = serializers.FloatField(
        help_text="The same if every match were against a new section."
    )
    meetings = serializers.SerializerMethodField(
        help_text="Per section: how often a team outside it meets it, on average "
        "(large sections are met more often; that is forced by their size)."
    )

    def get_meetings(self, obj) -> list[dict[str, Any]]:
        return [{"section": name, "mean": mean} for name, mean in obj.meetings]


class DrawRecordOutput(serializers.Serializer):
    number = serializers.IntegerField(
        help_text="1 for the first draw, 2 after a redraw…"
    )
    seed = serializers.IntegerField(
        allow_null=True,
        help_text="With the algorithm and the teams, reproduces the draw. Hidden "
        "from the public until every round is released (it would reveal them).",
    )
    algorithm = serializers.CharField()
    rounds = serializers.IntegerField()
    teams = serializers.IntegerField()
    restarts = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    created_by = serializers.CharField(allow_null=True)


class DrawOutput(serializers.Serializer):
    status = serializers.CharField(help_text="The tournament's status.")
    sections = SectionSizeOutput(many=True)
    problems = ProblemOutput(
        many=True, help_text="Why no draw can be made now; empty when one can."
    )
    locked = serializers.BooleanField()
    locked_reason = serializers.CharField(allow_null=True)
    draw = DrawRecordOutput(allow_null=True)
    valid = serializers.BooleanField(
        allow_null=True, help_text="The checker's verdict on the stored draw."
    )
    check_problems = serializers.ListField(child=serializers.CharField())
    spread = SpreadOutput(allow_null=True)
    released_rounds = serializers.IntegerField()
    earlier = DrawRecordOutput(many=True, help_text="Draws this one replaced.")
    rounds = RoundOutput(many=True, required=False)


def _draw_record(draw, *, show_seed: bool) -> dict[str, Any]:
    return {
        "number": draw.number,
        "seed": draw.seed if show_seed else None,
        "algorithm": draw.algorithm,
        "rounds": draw.rounds,
        "teams": draw.teams,
        "restarts": draw.restarts,
        "created_at": draw.created_at,
        "created_by": username_of(draw.created_by),
    }


def draw_data(state: DrawState, roles: frozenset[Role]) -> dict[str, Any]:
    show_seed = sees_drafts(roles) or state.all_released
    return {
        "status": state.tournament.status,
        "sections": [{"section": s.section, "teams": s.teams} for s in state.sections],
        "problems": [{"code": p.code, "message": p.message} for p in state.problems],
        "locked": state.locked_reason is not None,
        "locked_reason": state.locked_reason,
        "draw": _draw_record(state.draw, show_seed=show_seed) if state.draw else None,
        "valid": None if state.draw is None else not state.check,
        "check_problems": state.check,
        "spread": state.spread,
        "released_rounds": state.released,
        "earlier": [_draw_record(d, show_seed=show_seed) for d in state.earlier],
    }


class LeagueDrawApi(TournamentScopedMixin, APIView):
    """The league draw (rules.md §5). GET: the field, why no draw can be made (if
    so), the current draw with the checker's verdict and its spread. POST (organizers):
    draw every round at once, or redraw while no league result is entered."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(SeedInput):
        pass

    @extend_schema(operation_id="draw_get", responses=DrawOutput)
    def get(self, request, slug):
        return Response(
            DrawOutput(
                draw_data(draw_state(tournament=self.tournament), self.roles)
            ).data
        )

    @extend_schema(
        operation_id="draw_create", request=InputSerializer, responses={201: DrawOutput}
    )
    def post(self, request, slug):
        self.require(ORGANIZER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.league_draw_generate(
            tournament=self.tournament,
            user=request.user,
            seed=data.validated_data.get("seed"),
        )
        self.tournament.refresh_from_db()
        body = draw_data(draw_state(tournament=self.tournament), self.roles)
        body["rounds"] = round_list(tournament=self.tournament, drafts=True)
        return Response(DrawOutput(body).data, status=status.HTTP_201_CREATED)


# Standings
# ----------------------------------------------------------------------------------


class StandingRowOutput(serializers.Serializer):
    """The shape of a standings row, for the schema; `standing_row_data` builds it
    (a plain dict: 500 rows through a serializer cost more than the ranking)."""

    rank = serializers.IntegerField(help_text="Shared by teams equal on R1..R4.")
    place = serializers.IntegerField(
        help_text="1..n, never shared: equal teams in the order a lot gave them "
        "(`lot`), or by team id where no place had to be decided."
    )
    team = serializers.IntegerField(min_value=1, max_value=ID_MAX)
    team_name = serializers.CharField()
    section = serializers.IntegerField(min_value=1, max_value=ID_MAX)
    section_name = serializers.CharField()
    played = serializers.IntegerField(help_text="Decided league matches; byes apart.")
    won = serializers.IntegerField()
    tied = serializers.IntegerField()
    lost = serializers.IntegerField()
    byes = serializers.IntegerField()
    r1 = serializers.IntegerField(help_text="Match points.")
    r2 = serializers.FloatField(help_text="Sum of min(5, difference) over won matches.")
    r3 = serializers.FloatField(help_text="Sum of differences over won matches.")
    r4 = serializers.FloatField(
        help_text="Sum of the own match totals over all league matches."
    )
    provisional = serializers.BooleanField(
        help_text="A match it counts is completed but not confirmed yet."
    )
    shared = serializers.BooleanField(help_text="Another team has the same rank.")
    lot = serializers.BooleanField(
        help_text="Its place among equal teams was settled by lot."
    )
    qualifies = serializers.BooleanField(
        allow_null=True,
        help_text="Inside the qualifying line; null while equal with teams across "
        "it and no lot is drawn.",
    )
    forfeits_won = serializers.IntegerField(
        help_text="Matches won because the opponent did not come (counted as byes)."
    )
    forfeits_lost = serializers.IntegerField(
        help_text="Matches lost by not coming (played, with a total of 0)."
    )
    withdrawn = serializers.BooleanField(
        help_text="The team withdrew: ranked as its numbers say, never qualifying."
    )


def standing_row_data(row) -> dict[str, Any]:
    s, team = row.standing, row.team
    return {
        "rank": s.rank,
        "place": s.place,
        "team": team.id,
        "team_name": team.name,
        "section": team.section_id,
        "section_name": team.section,
        "played": s.played,
        "won": s.won,
        "tied": s.tied,
        "lost": s.lost,
        "byes": s.byes,
        "r1": s.r1,
        "r2": ranking.shown(s.r2),
        "r3": ranking.shown(s.r3),
        "r4": ranking.shown(s.r4),
        "provisional": s.provisional,
        "shared": row.shared,
        "lot": s.lot,
        "qualifies": row.qualifies,
        "forfeits_won": s.forfeits_won,
        "forfeits_lost": s.forfeits_lost,
        "withdrawn": s.withdrawn,
    }


class LotOutput(serializers.Serializer):
    seed = serializers.IntegerField()
    algorithm = serializers.CharField()
    places = serializers.IntegerField()
    decided = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="The groups of equal teams the lot ordered when drawn.",
    )
    drawn_at = serializers.DateTimeField()
    drawn_by = serializers.SerializerMethodField()

    def get_drawn_by(self, obj) -> str | None:
        return username_of(obj.drawn_by)


class ProgressOutput(serializers.Serializer):
    matches = serializers.IntegerField()
    decided = serializers.IntegerField(
        help_text="Completed or confirmed; counted once their round is released."
    )
    confirmed = serializers.IntegerField()
    live = serializers.IntegerField(help_text="Sheets in progress now.")
    draft_rounds = serializers.IntegerField(
        help_text="Rounds not released: their matches and byes do not count yet."
    )


class StandingsOutput(serializers.Serializer):
    final = serializers.BooleanField(
        help_text="Every league sheet confirmed and every round released."
    )
    provisional = serializers.BooleanField(
        help_text="Some counted match is not confirmed yet."
    )
    qualifiers = serializers.IntegerField()
    section = serializers.IntegerField(allow_null=True)
    progress = ProgressOutput()
    lot = LotOutput(allow_null=True)
    to_decide = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text=(
            "Groups of equal teams whose places a lot decides (team ids); empty "
            "until `final`: lots wait for the end."
        ),
    )
    rows = StandingRowOutput(many=True)


def standings_data(standings) -> dict[str, Any]:
    progress = standings.progress
    return {
        "final": standings.final,
        "provisional": standings.provisional,
        "qualifiers": standings.qualifiers,
        "section": standings.section,
        "progress": {
            "matches": progress.matches,
            "decided": progress.decided,
            "confirmed": progress.confirmed,
            "live": progress.live,
            "draft_rounds": progress.draft_rounds,
        },
        "lot": LotOutput(standings.lot).data if standings.lot else None,
        "to_decide": standings.to_decide,
        "rows": [standing_row_data(row) for row in standings.rows],
    }


class StandingsApi(TournamentScopedMixin, APIView):
    """The league standings (rules.md §5): every team ranked by R1..R4, with its
    overall rank also when `section` narrows the rows. Computed on every request from
    the sheets: a reopened sheet counts as it is now. Not paginated: one table."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class FilterSerializer(serializers.Serializer):
        section = serializers.IntegerField(
            required=False, min_value=1, max_value=ID_MAX
        )

    @extend_schema(
        operation_id="standings_get",
        parameters=[
            FilterSerializer,
            if_none_match("standings"),
        ],
        responses={
            200: StandingsOutput,
            304: NOT_MODIFIED,
        },
    )
    def get(self, request, slug):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        section = filters.validated_data.get("section")
        if (
            section is not None
            and not self.tournament.sections.filter(pk=section).exists()
        ):
            raise exceptions.ValidationError(
                {"section": [f"{self.tournament.name} has no section {section}."]}
            )
        # A poll that finds nothing changed is answered 304 from the fingerprint,
        # before anything is ranked; the fingerprint is the database's, so every
        # worker answers alike.
        etag = standings_fingerprint(tournament=self.tournament, section=section)
        headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
        if etag_sent(request, etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
        return Response(
            standings_data(standings_get(tournament=self.tournament, section=section)),
            headers=headers,
        )


class StandingsLotsApi(TournamentScopedMixin, APIView):
    """An organizer draws the lots that order equal teams where a place must be
    decided (the qualifying line, the seeding), once the league is final; the seed
    is recorded (chosen at random unless given)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(SeedInput):
        pass

    @extend_schema(
        operation_id="standings_lots_draw",
        request=InputSerializer,
        responses={201: StandingsOutput},
    )
    def post(self, request, slug):
        self.require(ORGANIZER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.standings_lots_draw(
            tournament=self.tournament,
            user=request.user,
            seed=data.validated_data.get("seed"),
        )
        return Response(
            standings_data(standings_get(tournament=self.tournament)),
            status=status.HTTP_201_CREATED,
        )


# The tournament day: withdrawals and substitutions (rules.md §9)
# ----------------------------------------------------------------------------------


class TeamWithdrawApi(TournamentScopedMixin, APIView):
    """An organizer withdraws a team from a league round on: its later matches with
    no deal become forfeits its opponents win; the standings mark it."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(serializers.Serializer):
        from_round = serializers.IntegerField(min_value=1, max_value=50)
        reason = serializers.CharField(max_length=300, allow_blank=True)

    @extend_schema(
        operation_id="team_withdraw", request=InputSerializer, responses=TeamOutput
    )
    def post(self, request, slug, pk):
        self.require(ORGANIZER)
        team = get_object_or_404(team_list(tournament=self.tournament), pk=pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.team_withdraw(team=team, user=request.user, **data.validated_data)
        return Response(
            TeamOutput(team_list(tournament=self.tournament).get(pk=pk)).data
        )


class SubstitutionOutput(serializers.ModelSerializer):
    out = serializers.CharField(source="player_out")
    # "in" is a Python keyword: declared through the class body's namespace, which
    # DRF's serializer metaclass reads as any other declared field.
    vars()["in"] = serializers.CharField(source="player_in")
    approved_by = serializers.SerializerMethodField()

    class Meta:
        model = Substitution
        fields = [
            "id",
            "number",
            "out",
            "in",
            "stage",
            "from_round",
            "reason",
            "approved_by",
            "approved_at",
        ]

    def get_approved_by(self, obj) -> str | None:
        return username_of(obj.approved_by)


class SubstitutionInput(serializers.Serializer):
    out = serializers.CharField(max_length=80, allow_blank=True)
    from_round = serializers.IntegerField(min_value=1, max_value=50)
    stage = serializers.ChoiceField(
        choices=[s.value for s in RoundStage],
        default=RoundStage.LEAGUE.value,
        help_text="The stage of from_round: league (unless given) or knockout.",
    )
    reason = serializers.CharField(max_length=300, allow_blank=True)
    # "in", a Python keyword, by name (as SubstitutionOutput's), last as it was.
    vars()["in"] = serializers.CharField(max_length=80, allow_blank=True)


class TeamSubstitutionListApi(TournamentScopedMixin, GenericAPIView):
    """A team's approved substitutions; an organizer approves one (rules.md §9)."""

    permission_classes = [ReadOnlyOrAuthenticated]
    serializer_class = SubstitutionOutput
    queryset = Substitution.objects.none()  # for the schema

    @extend_schema(
        operation_id="substitution_list", responses=SubstitutionOutput(many=True)
    )
    def get(self, request, slug, pk):
        team = get_object_or_404(team_list(tournament=self.tournament), pk=pk)
        page = self.paginate_queryset(substitution_list(team=team))
        return self.get_paginated_response(SubstitutionOutput(page, many=True).data)

    @extend_schema(
        operation_id="substitution_create",
        request=SubstitutionInput,
        responses={201: SubstitutionOutput},
    )
    def post(self, request, slug, pk):
        self.require(ORGANIZER)
        team = get_object_or_404(team_list(tournament=self.tournament), pk=pk)
        data = SubstitutionInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        made = services.substitution_approve(
            team=team,
            user=request.user,
            out=values["out"],
            into=values["in"],
            stage=values["stage"],
            from_round=values["from_round"],
            reason=values["reason"],
        )
        return Response(SubstitutionOutput(made).data, status=status.HTTP_201_CREATED)
