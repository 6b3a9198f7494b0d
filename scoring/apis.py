"""The REST API of score sheets (../shared/docs/API.md, "Score sheets").

Interfaces only: check the shape of the input and the caller's role, call one service
or selector, render. The rules (what a deal gives, what a penalty gives, when a sheet
locks) are in domain/rules.py and services.py.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, permissions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.apis_common import (
    ID_MAX,
    ReadOnlyOrAuthenticated,
    RolesMixin,
    TournamentScopedMixin,
)
from tournament.domain.types import Role

from . import services
from .domain import standings as ranking
from .domain import tiebreak
from .domain.rules import Level, PenaltyKind, Side, Stage, Trump
from .models import (
    SIDE_CHOICES,
    STAGE_CHOICES,
    Deal,
    Match,
    Penalty,
    SheetChange,
)
from .selectors import (
    DrawState,
    SheetView,
    captain_sides,
    draw_state,
    match_get_visible,
    match_list,
    round_list,
    sees_drafts,
    sheet_change_list,
    sheet_read,
    standings_get,
)

ORGANIZER, SCORER = Role.ORGANIZER, Role.SCORER


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
        ]

    def get_winner(self, obj) -> str | None:
        return obj.winner or None

    def get_difference(self, obj) -> int:
        return abs(obj.total_a - obj.total_b) if obj.winner else 0


class DealOutput(serializers.Serializer):
    number = serializers.IntegerField()
    declarer = serializers.ChoiceField(choices=SIDE_CHOICES)
    value = serializers.IntegerField()
    trump = serializers.ChoiceField(choices=_choices(Trump))
    level = serializers.ChoiceField(choices=_choices(Level))
    taken = serializers.IntegerField()
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


class SheetOutput(MatchSummary):
    confirmed_a = serializers.BooleanField(
        help_text="Team A's captain confirmed the sheet at its current version."
    )
    confirmed_b = serializers.BooleanField()
    confirmed_at = serializers.DateTimeField(allow_null=True)
    decided_by = serializers.CharField()
    missing = serializers.ListField(child=serializers.IntegerField())
    tiebreak = TiebreakOutput(
        allow_null=True, help_text="Knockout matches only; null in the league."
    )
    checkpoints = CheckpointOutput(many=True)
    deals = DealOutput(many=True)
    penalties = PenaltyOutput(many=True)

    class Meta(MatchSummary.Meta):
        fields = [
            *MatchSummary.Meta.fields,
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


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def deal_data(deal: Deal, running: tuple[int, int]) -> dict[str, Any]:
    return {
        **deal.record(),
        "awarded_by": deal.awarded_by or None,
        "running_a": running[0],
        "running_b": running[1],
        "entered_by": _username(deal.entered_by),
        "updated_at": deal.updated_at,
    }


def penalty_data(penalty: Penalty, number: int) -> dict[str, Any]:
    return {
        **penalty.record(number),
        "award_to": penalty.award_to,
        "entered_by": _username(penalty.entered_by),
        "created_at": penalty.created_at,
    }


def sheet_data(view: SheetView) -> dict[str, Any]:
    match, sheet = view.match, view.sheet
    numbers = {d.pk: d.number for d in view.deals}
    data = dict(MatchSummary(match).data)
    data.update(
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


# Access
# ----------------------------------------------------------------------------------


IDEMPOTENCY_KEY = "Idempotency-Key"


def _key_ok(key: str) -> bool:
    return 0 < len(key) <= 100 and key.isprintable() and key.isascii()


class MatchScopedMixin(RolesMixin):
    """Loads `self.match` from the URL, visible to the caller or 404, and the
    caller's roles in its tournament."""

    match: Match

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        found = match_get_visible(user=request.user, pk=kwargs["pk"])
        if found is None:
            raise Http404("No such match")
        self.match, self.roles = found

    def dispatch(self, request, *args, **kwargs):
        # Writes are done once per Idempotency-Key (docs/score-sheets.md): a retry
        # after a lost answer is answered with the sheet as it is, marked replayed.
        key = request.headers.get(IDEMPOTENCY_KEY, "")
        with services.request_key(key if _key_ok(key) else ""):
            return super().dispatch(request, *args, **kwargs)  # type: ignore[misc]

    def check_permissions(self, request):
        super().check_permissions(request)  # type: ignore[misc]
        key = request.headers.get(IDEMPOTENCY_KEY)
        unsafe = request.method not in permissions.SAFE_METHODS
        if unsafe and key is not None and not _key_ok(key):
            raise exceptions.ValidationError(
                {
                    IDEMPOTENCY_KEY: [
                        "an Idempotency-Key is 1 to 100 printable characters "
                        "(a UUID, say), the same on every retry of one request."
                    ]
                }
            )

    def handle_exception(self, exc):
        if isinstance(exc, services.Replayed):
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

    @extend_schema(responses=SheetOutput)
    def get(self, request, pk):
        return Response(sheet_data(sheet_read(match=self.match)))

    @extend_schema(responses={204: None})
    def delete(self, request, pk):
        self.require(ORGANIZER)
        services.match_delete(match=self.match, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class DealInput(serializers.Serializer):
    number = serializers.IntegerField(help_text="1 to the match's deals_scheduled.")
    declarer = serializers.ChoiceField(
        choices=SIDE_CHOICES, error_messages=_choice(Side, "team of the match")
    )
    value = serializers.IntegerField(help_text="The contract, 28 to 56.")
    trump = serializers.ChoiceField(
        choices=_choices(Trump), error_messages=_choice(Trump, "trump")
    )
    level = serializers.ChoiceField(
        choices=_choices(Level),
        default=Level.NONE.value,
        error_messages=_choice(Level, "level"),
    )
    taken = serializers.IntegerField(
        help_text="Points the declaring team took in tricks, 0 to 56."
    )
    version = serializers.IntegerField(
        help_text="The sheet's version you read; a stale one gets 409."
    )


class DealWriteOutput(DealOutput):
    version = serializers.IntegerField(help_text="The sheet's new version.")
    match = MatchSummary()


def _deal_replayed(match: Match, number) -> Response:
    """A deal request done before: the deal as the sheet now has it, or, when it has
    gone since, the sheet."""
    deal = Deal.objects.filter(match=match, number=number).first()
    if deal is None:
        return Response(sheet_data(sheet_read(match=match)))
    return _deal_answer(deal, match, status.HTTP_200_OK)


def _deal_answer(deal: Deal, match: Match, code: int) -> Response:
    sheet = match.sheet or sheet_read(match=match).sheet
    row = next(r for r in sheet.rows if r.number == deal.number)
    data = deal_data(deal, (row.total_a, row.total_b))
    data.update(version=match.version, match=MatchSummary(match).data)
    return Response(data, status=code)


class DealListApi(MatchScopedMixin, APIView):
    """Add a deal to the sheet (scorers and organizers)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(request=DealInput, responses={201: DealWriteOutput})
    def post(self, request, pk):
        self.require(ORGANIZER, SCORER)
        data = DealInput(data=request.data)
        data.is_valid(raise_exception=True)
        deal, match = services.score_sheet_deal_record(
            match_id=self.match.pk, user=request.user, **data.validated_data
        )
        return _deal_answer(deal, match, status.HTTP_201_CREATED)

    def replayed(self, match: Match) -> Response:
        return _deal_replayed(match, self.request.data.get("number"))


class DealDetailApi(MatchScopedMixin, APIView):
    """Replace or delete deal `number` (scorers and organizers)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(DealInput):
        number = serializers.IntegerField(
            required=False, help_text="If given, the same as in the address."
        )

    @extend_schema(request=InputSerializer, responses=DealWriteOutput)
    def put(self, request, pk, number):
        self.require(ORGANIZER, SCORER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if values.pop("number", number) != number:
            raise exceptions.ValidationError(
                {"number": [f"the address names deal {number}; renumber by deleting."]}
            )
        deal, match = services.score_sheet_deal_replace(
            match_id=self.match.pk, number=number, user=request.user, **values
        )
        return _deal_answer(deal, match, status.HTTP_200_OK)

    def replayed(self, match: Match) -> Response:
        if self.request.method == "PUT":
            return _deal_replayed(match, self.kwargs["number"])
        return Response(MatchSummary(match).data)

    @extend_schema(
        parameters=[OpenApiParameter("version", int, required=True)],
        responses=MatchSummary,
    )
    def delete(self, request, pk, number):
        self.require(ORGANIZER, SCORER)
        match = services.score_sheet_deal_delete(
            match_id=self.match.pk,
            number=number,
            user=request.user,
            version=_version(request),
        )
        return Response(MatchSummary(match).data)


class PenaltyListApi(MatchScopedMixin, APIView):
    """Add a penalty (scorers and organizers; conduct penalties: organizers)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(serializers.Serializer):
        deal = serializers.IntegerField(help_text="The number of the deal.")
        offender = serializers.ChoiceField(
            choices=SIDE_CHOICES, error_messages=_choice(Side, "team of the match")
        )
        kind = serializers.ChoiceField(
            choices=PENALTY_KIND_CHOICES,
            error_messages=_choice(PenaltyKind, "kind of penalty"),
        )
        points = serializers.IntegerField(
            required=False, allow_null=True, help_text="Only for conduct: 0 to 2."
        )
        note = serializers.CharField(max_length=300, required=False, allow_blank=True)
        version = serializers.IntegerField()

    class OutputSerializer(PenaltyOutput):
        version = serializers.IntegerField()
        match = MatchSummary()
        deal_award_to = serializers.ChoiceField(choices=SIDE_CHOICES)
        deal_award = serializers.IntegerField()

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request, pk):
        self.require(ORGANIZER, SCORER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        penalty, match = services.score_sheet_penalty_record(
            match_id=self.match.pk,
            user=request.user,
            by_organizer=ORGANIZER in self.roles,
            **data.validated_data,
        )
        return self._answer(penalty, match, status.HTTP_201_CREATED)

    def _answer(self, penalty: Penalty, match: Match, code: int) -> Response:
        deal = penalty.deal
        body = penalty_data(penalty, deal.number)
        body.update(
            version=match.version,
            match=MatchSummary(match).data,
            deal_award_to=deal.award_to,
            deal_award=deal.award,
        )
        return Response(body, status=code)

    def replayed(self, match: Match) -> Response:
        key = self.request.headers.get(IDEMPOTENCY_KEY, "")
        change = match.changes.filter(request_key=key).first()
        made = (change.after or {}).get("id") if change else None
        penalty = (
            Penalty.objects.select_related("deal").filter(pk=made).first()
            if made
            else None
        )
        if penalty is None:  # deleted since: the sheet says what is there now
            return Response(sheet_data(sheet_read(match=match)))
        return self._answer(penalty, match, status.HTTP_200_OK)


class PenaltyDetailApi(MatchScopedMixin, APIView):
    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("version", int, required=True)],
        responses=MatchSummary,
    )
    def delete(self, request, pk, penalty):
        self.require(ORGANIZER, SCORER)
        match = services.score_sheet_penalty_delete(
            match_id=self.match.pk,
            penalty_id=penalty,
            user=request.user,
            version=_version(request),
        )
        return Response(MatchSummary(match).data)

    def replayed(self, match: Match) -> Response:
        return Response(MatchSummary(match).data)


class MatchConfirmApi(MatchScopedMixin, APIView):
    """A captain confirms for his team; an organizer for both, which locks at once."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(request=VersionInput, responses=SheetOutput)
    def post(self, request, pk):
        data = VersionInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.score_sheet_confirm(
            match_id=self.match.pk,
            user=request.user,
            version=data.validated_data["version"],
            roles=self.roles,
            sides=captain_sides(user=request.user, match=self.match),
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
            "to (docs/knockout.md).",
        )

    @extend_schema(request=InputSerializer, responses=SheetOutput)
    def post(self, request, pk):
        self.require(ORGANIZER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.score_sheet_reopen(
            match_id=self.match.pk, user=request.user, **data.validated_data
        )
        return self.answer_sheet()


class MatchTossApi(MatchScopedMixin, APIView):
    """The toss of a knockout tie-break (rules.md §6): its winner, and the team the
    winner chose to deal the sudden-death deal (scorers and organizers)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(TossOutput):
        version = serializers.IntegerField(
            help_text="The sheet's version you read; a stale one gets 409."
        )

    @extend_schema(request=InputSerializer, responses={201: SheetOutput})
    def post(self, request, pk):
        self.require(ORGANIZER, SCORER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.score_sheet_toss_record(
            match_id=self.match.pk, user=request.user, **data.validated_data
        )
        return self.answer_sheet(status.HTTP_201_CREATED)

    @extend_schema(request=VersionInput, responses=SheetOutput)
    def delete(self, request, pk):
        self.require(ORGANIZER, SCORER)
        services.score_sheet_toss_delete(
            match_id=self.match.pk, user=request.user, version=_version(request)
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

    @extend_schema(responses=SheetChangeOutput(many=True))
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

    @extend_schema(parameters=[FilterSerializer], responses=MatchSummary(many=True))
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

    @extend_schema(request=InputSerializer, responses={201: SheetOutput})
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

    @extend_schema(parameters=[FilterSerializer], responses=RoundOutput(many=True))
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

    @extend_schema(request=None, responses=RoundOutput)
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
        "created_by": _username(draw.created_by),
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

    @extend_schema(responses=DrawOutput)
    def get(self, request, slug):
        return Response(
            DrawOutput(
                draw_data(draw_state(tournament=self.tournament), self.roles)
            ).data
        )

    @extend_schema(request=InputSerializer, responses={201: DrawOutput})
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
        return _username(obj.drawn_by)


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
        help_text="Groups of equal teams whose places a lot decides (team ids).",
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

    @extend_schema(parameters=[FilterSerializer], responses=StandingsOutput)
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
        return Response(
            standings_data(standings_get(tournament=self.tournament, section=section))
        )


class StandingsLotsApi(TournamentScopedMixin, APIView):
    """An organizer draws the lots that order equal teams where a place must be
    decided (the qualifying line, the seeding), once the league is final; the seed
    is recorded (chosen at random unless given)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(SeedInput):
        pass

    @extend_schema(request=InputSerializer, responses={201: StandingsOutput})
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
