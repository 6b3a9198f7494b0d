"""The REST API of score sheets (API.md "Score sheets"): a match's sheet, its
confirmation, reopening, the knockout toss, its history, and the matches of a
tournament; the output and access checks the entries' API shares (entry_apis.py adds
and changes deals and penalties).

Interfaces only: check the shape of the input and the caller's role, call one service
or selector, render. The rules (what a deal gives, what a penalty gives, when a sheet
locks) are in domain/rules.py and services.py.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import (
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.domain.types import Role
from tournament.models import LinkKind
from tournament.selectors import match_roster
from tournament.web.api import (
    ID_MAX,
    ReadOnlyOrAuthenticated,
    RolesMixin,
    TournamentScopedMixin,
)
from tournament.web.links import request_link

from ..domain import tiebreak
from ..domain.forfeits import Absent
from ..domain.rules import Level, PenaltyKind, Side, Stage, Trump
from ..models import (
    SIDE_CHOICES,
    STAGE_CHOICES,
    Deal,
    Match,
    Penalty,
    SheetChange,
)
from . import locking, services, toss
from .reach import link_side, match_reached
from .selectors import (
    SheetView,
    captain_sides,
    match_access,
    match_get_visible,
    match_list,
    sees_drafts,
    sheet_change_list,
    sheet_read,
)

ORGANIZER, SCORER = Role.ORGANIZER, Role.SCORER
TABLE, TEAM = LinkKind.TABLE, LinkKind.TEAM


def _choice(enum, what: str) -> dict:
    known = ", ".join(m.value for m in enum)
    return {"invalid_choice": f'"{{input}}" is not a {what}; use one of {known}.'}


def _choices(enum) -> list[str]:
    return [m.value for m in enum]


PENALTY_KIND_CHOICES = _choices(PenaltyKind)


# Output
# ----------------------------------------------------------------------------------


class MatchSummary(serializers.ModelSerializer):
    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    team_a_name = serializers.CharField(source="team_a.name", read_only=True)
    team_b_name = serializers.CharField(source="team_b.name", read_only=True)
    winner = serializers.SerializerMethodField()
    difference = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "tournament",
            "stage",
            "round",
            "table",
            "team_a",
            "team_a_name",
            "team_b",
            "team_b_name",
            "deals_scheduled",
            "status",
            "total_a",
            "total_b",
            "deals_won_a",
            "deals_won_b",
            "winner",
            "difference",
            "version",
            "open_disputes",
        ]

    def get_winner(self, obj) -> str | None:
        return obj.winner or None

    def get_difference(self, obj) -> int:
        return abs(obj.total_a - obj.total_b) if obj.winner else 0


def match_summary_data(match: Match) -> dict[str, Any]:
    """MatchSummary's answer as a plain dict: every sheet write answers with it, and
    the serializer costs more than the write's own queries (docs/performance.md).
    tests/scoring/apis/test_sheet.py holds the two to the same answer."""
    return {
        "id": match.pk,
        "tournament": match.tournament.slug,
        "stage": match.stage,
        "round": match.round,
        "table": match.table,
        "team_a": match.team_a_id,
        "team_a_name": match.team_a.name,
        "team_b": match.team_b_id,
        "team_b_name": match.team_b.name,
        "deals_scheduled": match.deals_scheduled,
        "status": match.status,
        "total_a": match.total_a,
        "total_b": match.total_b,
        "deals_won_a": match.deals_won_a,
        "deals_won_b": match.deals_won_b,
        "winner": match.winner or None,
        "difference": abs(match.total_a - match.total_b) if match.winner else 0,
        "version": match.version,
        "open_disputes": match.open_disputes,
    }


class DealOutput(serializers.Serializer):
    number = serializers.IntegerField()
    declarer = serializers.ChoiceField(choices=SIDE_CHOICES)
    value = serializers.IntegerField()
    trump = serializers.ChoiceField(choices=_choices(Trump))
    level = serializers.ChoiceField(choices=_choices(Level))
    taken = serializers.IntegerField()
    bidder = serializers.CharField(
        allow_null=True,
        help_text="The declaring team's player who won the auction, when recorded.",
    )
    auction = serializers.CharField(
        allow_null=True,
        help_text="The auction that ended on this contract, in the auction notation "
        "('A: 28S 30H P P X P P P P P'), when recorded.",
    )
    made = serializers.BooleanField()
    award_to = serializers.ChoiceField(choices=SIDE_CHOICES)
    award = serializers.IntegerField()
    awarded_by = serializers.CharField(
        allow_null=True, help_text="The penalty that gave the deal away, if any."
    )
    running_a = serializers.IntegerField(help_text="Team A's total after this deal.")
    running_b = serializers.IntegerField(help_text="Team B's total after this deal.")
    entered_by = serializers.CharField(allow_null=True)
    updated_at = serializers.DateTimeField()


class PenaltyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    deal = serializers.IntegerField(help_text="The deal number.")
    offender = serializers.ChoiceField(choices=SIDE_CHOICES)
    kind = serializers.ChoiceField(choices=PENALTY_KIND_CHOICES)
    points = serializers.IntegerField()
    award_to = serializers.ChoiceField(choices=SIDE_CHOICES)
    warning = serializers.BooleanField()
    note = serializers.CharField(allow_blank=True)
    entered_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()


class CheckpointOutput(serializers.Serializer):
    after_deal = serializers.IntegerField()
    total_a = serializers.IntegerField()
    total_b = serializers.IntegerField()


class TossOutput(serializers.Serializer):
    winner = serializers.ChoiceField(
        choices=SIDE_CHOICES,
        error_messages=_choice(Side, "team of the match"),
        help_text="The team whose captain pulled the higher card "
        f"({tiebreak.TOSS_CARDS}).",
    )
    first_dealer = serializers.ChoiceField(
        choices=SIDE_CHOICES,
        error_messages=_choice(Side, "team of the match"),
        help_text="The team the toss winner chose to deal the sudden-death deal.",
    )


class TiebreakOutput(serializers.Serializer):
    """Where a knockout match's tie-break stands (rules.md §6)."""

    phase = serializers.ChoiceField(choices=[p.value for p in tiebreak.Phase])
    decided_by = serializers.ChoiceField(
        choices=[d.value for d in tiebreak.DecidedBy], allow_null=True
    )
    deals_allowed = serializers.IntegerField(
        help_text="The highest deal number the sheet accepts now."
    )
    equal_at = serializers.IntegerField(
        allow_null=True, help_text="The deal after which the totals were equal."
    )
    toss = TossOutput(allow_null=True)
    reason = serializers.CharField(help_text="Why no later deal is accepted now.")


def toss_data(toss: tiebreak.Toss | None) -> dict[str, str] | None:
    if toss is None:
        return None
    return {"winner": toss.winner.value, "first_dealer": toss.first_dealer.value}


def tiebreak_data(settled: tiebreak.Tiebreak | None) -> dict[str, Any] | None:
    if settled is None:
        return None
    return {
        "phase": settled.phase.value,
        "decided_by": settled.decided_by.value if settled.decided_by else None,
        "deals_allowed": settled.deals_allowed,
        "equal_at": settled.equal_at,
        "toss": toss_data(settled.toss),
        "reason": settled.reason,
    }


class ForfeitOutput(serializers.Serializer):
    absent = serializers.ChoiceField(choices=[a.value for a in Absent])
    reason = serializers.CharField()


class RosterOutput(serializers.Serializer):
    A = serializers.ListField(child=serializers.CharField())
    B = serializers.ListField(child=serializers.CharField())


class SheetOutput(MatchSummary):
    forfeit = ForfeitOutput(allow_null=True, help_text="Who did not come, and why.")
    roster = RosterOutput(help_text="Who played for each team in this match.")
    confirmed_a = serializers.BooleanField(
        help_text=(
            "Team A's captain confirmed the sheet at its current version (a "
            "locked sheet: at the version it locked at)."
        )
    )
    confirmed_b = serializers.BooleanField()
    confirmed_at = serializers.DateTimeField(allow_null=True)
    decided_by = serializers.CharField()
    missing = serializers.ListField(child=serializers.IntegerField())
    tiebreak = TiebreakOutput(
        allow_null=True, help_text="Knockout matches only; null in the league."
    )
    checkpoints = CheckpointOutput(
        many=True,
        help_text="The totals the scorer announces, for the deals on the sheet: after "
        "every sixth deal and after each of the last six scheduled deals, and after "
        "each tie-break deal (000 §5.3: an 18-deal match after deals 6, 12 and 13 to "
        "18); in the tables format after every sixth deal.",
    )
    deals = DealOutput(many=True)
    penalties = PenaltyOutput(many=True)

    class Meta(MatchSummary.Meta):
        fields = [
            *MatchSummary.Meta.fields,
            "forfeit",
            "roster",
            "confirmed_a",
            "confirmed_b",
            "confirmed_at",
            "decided_by",
            "missing",
            "tiebreak",
            "checkpoints",
            "deals",
            "penalties",
        ]


def username_of(user) -> str | None:
    return user.get_username() if user is not None else None


def deal_data(deal: Deal, running: tuple[int, int]) -> dict[str, Any]:
    return {
        **deal.record(),
        "bidder": deal.bidder or None,
        "auction": deal.auction or None,
        "awarded_by": deal.awarded_by or None,
        "running_a": running[0],
        "running_b": running[1],
        "entered_by": username_of(deal.entered_by),
        "updated_at": deal.updated_at,
    }


def penalty_data(penalty: Penalty, number: int) -> dict[str, Any]:
    return {
        **penalty.record(number),
        "award_to": penalty.award_to,
        "entered_by": username_of(penalty.entered_by),
        "created_at": penalty.created_at,
    }


def sheet_data(view: SheetView) -> dict[str, Any]:
    match, sheet = view.match, view.sheet
    numbers = {d.pk: d.number for d in view.deals}
    data = match_summary_data(match)
    data.update(
        forfeit=match.forfeit,
        roster=match_roster(
            team_a=match.team_a_id,
            team_b=match.team_b_id,
            stage=match.stage,
            round=match.round,
            absent=match.forfeit_absent,
        ),
        confirmed_a=view.confirmed(Side.A),
        confirmed_b=view.confirmed(Side.B),
        confirmed_at=match.confirmed_at,
        decided_by=sheet.decided_by,
        missing=list(sheet.missing),
        tiebreak=tiebreak_data(view.tiebreak),
        checkpoints=[
            {"after_deal": r.number, "total_a": r.total_a, "total_b": r.total_b}
            for r in view.checkpoints()
        ],
        deals=[deal_data(d, (r.total_a, r.total_b)) for d, r, _ in view.rows()],
        penalties=[penalty_data(p, numbers[p.deal_id]) for p in view.penalties],
    )
    return data


def replay_answer(name: str, *answers: type[serializers.Serializer]) -> OpenApiResponse:
    """The schema's 200 of a write that may be a repeat of its Idempotency-Key
    (`MatchScopedMixin.replayed`): what the first request made, as it is now, or the
    sheet when that has gone since."""
    described = (
        "A repeat of an Idempotency-Key already done (`Idempotent-Replayed: true`): "
        "what the first request made, as it is now"
    )
    if len(answers) == 1:
        return OpenApiResponse(answers[0], description=described + ".")
    return OpenApiResponse(
        PolymorphicProxySerializer(
            component_name=name,
            serializers=list(answers),
            resource_type_field_name=None,
        ),
        description=described + "; the sheet, when that has gone since.",
    )


# Access
# ----------------------------------------------------------------------------------


IDEMPOTENCY_KEY = locking.IDEMPOTENCY_KEY


class MatchScopedMixin(RolesMixin):
    """Loads `self.match` from the URL, visible to the caller or 404, and the
    caller's roles in its tournament. A link that reaches the match sees it (its
    tournament published or not) and sets `link_reaches`; anywhere else its holder
    is a stranger."""

    match: Match
    sides: frozenset[Side] = frozenset()  # the sides a team link speaks for

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        held = request_link(request)
        reached = match_reached(held, kwargs["pk"]) if held is not None else None
        if held is not None and reached is not None:
            self.match, self.roles, self.link_reaches = reached, frozenset(), True
            self.sides = link_side(held, reached)
            return
        # A write reads the match again, locked, in its service: its access check
        # needs the match's own row only.
        read = request.method in permissions.SAFE_METHODS
        found = (match_get_visible if read else match_access)(
            user=request.user, pk=kwargs["pk"]
        )
        if found is None:
            raise Http404("No such match")
        self.match, self.roles = found

    @property
    def idempotency_key(self) -> str | None:
        """The request's Idempotency-Key, for its write's service: writes are done
        once per key (docs/score-sheets.md), a retry after a lost answer is answered
        with the sheet as it is, marked replayed. None without a usable key (a
        write's unusable one is refused in check_permissions)."""
        return locking.request_key(self.request)  # type: ignore[attr-defined]

    def check_permissions(self, request):
        super().check_permissions(request)  # type: ignore[misc]
        key = request.headers.get(IDEMPOTENCY_KEY)
        unsafe = request.method not in permissions.SAFE_METHODS
        if unsafe and key is not None and not locking.key_ok(key):
            raise exceptions.ValidationError(
                {
                    IDEMPOTENCY_KEY: [
                        "an Idempotency-Key is 1 to 100 printable characters "
                        "(a UUID, say), the same on every retry of one request."
                    ]
                }
            )

    def handle_exception(self, exc):
        if isinstance(exc, locking.Replayed):
            response = self.replayed(exc.match)
            response["Idempotent-Replayed"] = "true"
            return response
        return super().handle_exception(exc)  # type: ignore[misc]

    def replayed(self, match: Match) -> Response:
        """The answer to a request already done: by default the sheet as it is."""
        return self.answer_sheet()

    def answer_sheet(self, code: int = status.HTTP_200_OK) -> Response:
        match = match_get_visible(user=self.request.user, pk=self.match.pk)  # type: ignore[attr-defined]
        assert match is not None  # noqa: S101 - it was visible a moment ago
        return Response(sheet_data(sheet_read(match=match[0])), status=code)


class VersionInput(serializers.Serializer):
    version = serializers.IntegerField(
        help_text="The sheet's version you read; a stale one gets 409."
    )


def _version(request) -> int:
    """The version of a DELETE: from the body, or the query string."""
    data = request.data if request.data else request.query_params
    checked = VersionInput(data=data)
    checked.is_valid(raise_exception=True)
    return checked.validated_data["version"]


# Score sheets
# ----------------------------------------------------------------------------------


class MatchDetailApi(MatchScopedMixin, APIView):
    """A match's score sheet: every deal and penalty, running totals, the totals
    after every sixth deal, the result and the sheet's version."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(operation_id="match_get", responses=SheetOutput)
    def get(self, request, pk):
        return Response(sheet_data(sheet_read(match=self.match)))

    @extend_schema(operation_id="match_delete", responses={204: None})
    def delete(self, request, pk):
        self.require(ORGANIZER)
        services.match_delete(match=self.match, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MatchConfirmApi(MatchScopedMixin, APIView):
    """A captain (or the team's link) confirms for his team; an organizer for
    both, which locks at once."""

    permission_classes = [ReadOnlyOrAuthenticated]
    link_kinds = (TEAM,)

    @extend_schema(
        operation_id="match_confirm", request=VersionInput, responses=SheetOutput
    )
    def post(self, request, pk):
        if request_link(request) is not None:
            self.require(link=TEAM)
        data = VersionInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.score_sheet_confirm(
            match_id=self.match.pk,
            user=request.user,
            version=data.validated_data["version"],
            roles=self.roles,
            sides=self.sides or captain_sides(user=request.user, match=self.match),
            idempotency_key=self.idempotency_key,
        )
        return self.answer_sheet()


class MatchReopenApi(MatchScopedMixin, APIView):
    """An organizer unlocks a confirmed sheet, saying why."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=500, allow_blank=True)
        version = serializers.IntegerField(required=False)
        reset_next = serializers.BooleanField(
            default=False,
            help_text="Knockout: also void the sheet of the match the winner went on "
            "to.",
        )

    @extend_schema(
        operation_id="match_reopen", request=InputSerializer, responses=SheetOutput
    )
    def post(self, request, pk):
        self.require(ORGANIZER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.score_sheet_reopen(
            match_id=self.match.pk,
            user=request.user,
            idempotency_key=self.idempotency_key,
            **data.validated_data,
        )
        return self.answer_sheet()


class MatchTossApi(MatchScopedMixin, APIView):
    """The toss of a knockout tie-break (rules.md §6): its winner, and the team the
    winner chose to deal the sudden-death deal (scorers, organizers and the table's
    link)."""

    permission_classes = [ReadOnlyOrAuthenticated]
    link_kinds = (TABLE,)

    class InputSerializer(TossOutput):
        version = serializers.IntegerField(
            help_text="The sheet's version you read; a stale one gets 409."
        )

    @extend_schema(
        operation_id="toss_create",
        request=InputSerializer,
        responses={201: SheetOutput, 200: replay_answer("TossReplayed", SheetOutput)},
    )
    def post(self, request, pk):
        self.require(ORGANIZER, SCORER, link=TABLE)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        toss.score_sheet_toss_record(
            match_id=self.match.pk,
            user=request.user,
            idempotency_key=self.idempotency_key,
            **data.validated_data,
        )
        return self.answer_sheet(status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="toss_delete", request=VersionInput, responses={200: SheetOutput}
    )
    def delete(self, request, pk):
        self.require(ORGANIZER, SCORER, link=TABLE)
        toss.score_sheet_toss_delete(
            match_id=self.match.pk,
            user=request.user,
            version=_version(request),
            idempotency_key=self.idempotency_key,
        )
        return self.answer_sheet()


class SheetChangeOutput(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField()
    action = serializers.CharField()
    actor = serializers.CharField(source="actor_name")
    at = serializers.DateTimeField()
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    source = serializers.ChoiceField(
        choices=["app", "file"],
        help_text="file: recorded by importing a filled score sheet (the reason names "
        "the file and row).",
    )


class MatchHistoryApi(MatchScopedMixin, GenericAPIView):
    """Every change of the sheet, oldest first: who, when, before, after."""

    permission_classes = [ReadOnlyOrAuthenticated]
    serializer_class = SheetChangeOutput
    queryset = SheetChange.objects.none()  # for the schema; the selector gives rows

    @extend_schema(
        operation_id="match_history_list", responses=SheetChangeOutput(many=True)
    )
    def get(self, request, pk):
        page = self.paginate_queryset(sheet_change_list(match=self.match))
        return self.get_paginated_response(SheetChangeOutput(page, many=True).data)


# Matches of a tournament
# ----------------------------------------------------------------------------------


class MatchListApi(TournamentScopedMixin, GenericAPIView):
    """A tournament's matches; `round`, `team` and `stage` filter. Organizers set one
    up by hand with POST (the league draw makes them too)."""

    permission_classes = [ReadOnlyOrAuthenticated]
    serializer_class = MatchSummary
    queryset = Match.objects.none()  # for the schema; the selector gives the rows

    class FilterSerializer(serializers.Serializer):
        round = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)
        team = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)
        stage = serializers.ChoiceField(choices=STAGE_CHOICES, required=False)

    class InputSerializer(serializers.Serializer):
        team_a = serializers.IntegerField(min_value=1, max_value=ID_MAX)
        team_b = serializers.IntegerField(min_value=1, max_value=ID_MAX)
        stage = serializers.ChoiceField(
            choices=STAGE_CHOICES,
            default=Stage.LEAGUE.value,
            error_messages=_choice(Stage, "stage"),
        )
        round = serializers.IntegerField(min_value=1, max_value=50)
        table = serializers.IntegerField(min_value=1, max_value=999)
        deals_scheduled = serializers.IntegerField(
            min_value=1,
            max_value=99,
            required=False,
            help_text="The tournament's league_deals unless given.",
        )

    @extend_schema(
        operation_id="match_list",
        parameters=[FilterSerializer],
        responses=MatchSummary(many=True),
    )
    def get(self, request, slug):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        matches = match_list(
            tournament=self.tournament,
            drafts=sees_drafts(self.roles),
            **filters.validated_data,
        )
        page = self.paginate_queryset(matches)
        return self.get_paginated_response(MatchSummary(page, many=True).data)

    @extend_schema(
        operation_id="match_create",
        request=InputSerializer,
        responses={201: SheetOutput},
    )
    def post(self, request, slug):
        self.require(ORGANIZER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = services.match_create(
            tournament=self.tournament, user=request.user, **data.validated_data
        )
        found = match_get_visible(user=request.user, pk=match.pk)
        assert found is not None  # noqa: S101 - the organizer sees it
        return Response(
            sheet_data(sheet_read(match=found[0])), status=status.HTTP_201_CREATED
        )
