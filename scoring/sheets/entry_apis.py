"""The REST API of a sheet's entries (API.md "Score sheets"): adding, replacing and
deleting its deals and penalties, by scorers, organizers and the table's link. Each
request is one service call (services.py); an `Idempotency-Key` sent again is answered
with what the first request made (locking.py).

Interfaces only, like apis.py, whose sheet output and access checks these share.
"""

from __future__ import annotations

from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.web.api import ReadOnlyOrAuthenticated

from ..domain.auction import TEXT_MAX as AUCTION_TEXT_MAX
from ..domain.rules import Level, PenaltyKind, Side, Trump
from ..models import SIDE_CHOICES, Deal, Match, Penalty
from . import services
from .apis import (
    IDEMPOTENCY_KEY,
    ORGANIZER,
    PENALTY_KIND_CHOICES,
    SCORER,
    TABLE,
    DealOutput,
    MatchScopedMixin,
    MatchSummary,
    PenaltyOutput,
    SheetOutput,
    _choice,
    _choices,
    _version,
    deal_data,
    match_summary_data,
    penalty_data,
    replay_answer,
    sheet_data,
)
from .selectors import sheet_read


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
    bidder = serializers.CharField(
        max_length=80,
        required=False,
        allow_blank=True,
        default="",
        help_text="Optional: the declaring team's player who won the auction, one of "
        "the players of that team in this match (its roster).",
    )
    auction = serializers.CharField(
        max_length=AUCTION_TEXT_MAX,
        required=False,
        allow_blank=True,
        default="",
        help_text="Optional: the auction, e.g. 'A: 28S 30H P P X P P P P P' (the lead "
        "player's team, then every call). It must end on the deal's "
        "declarer, value, trump and level.",
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
    data.update(version=match.version, match=match_summary_data(match))
    return Response(data, status=code)


class DealListApi(MatchScopedMixin, APIView):
    """Add a deal to the sheet (scorers, organizers and the table's link)."""

    permission_classes = [ReadOnlyOrAuthenticated]
    link_kinds = (TABLE,)

    @extend_schema(
        operation_id="deal_create",
        request=DealInput,
        responses={
            201: DealWriteOutput,
            200: replay_answer("DealReplayed", DealWriteOutput, SheetOutput),
        },
    )
    def post(self, request, pk):
        self.require(ORGANIZER, SCORER, link=TABLE)
        data = DealInput(data=request.data)
        data.is_valid(raise_exception=True)
        deal, match = services.score_sheet_deal_record(
            match_id=self.match.pk,
            user=request.user,
            idempotency_key=self.idempotency_key,
            **data.validated_data,
        )
        return _deal_answer(deal, match, status.HTTP_201_CREATED)

    def replayed(self, match: Match) -> Response:
        return _deal_replayed(match, self.request.data.get("number"))


class DealDetailApi(MatchScopedMixin, APIView):
    """Replace or delete deal `number` (scorers, organizers and the table's link)."""

    permission_classes = [ReadOnlyOrAuthenticated]
    link_kinds = (TABLE,)

    class InputSerializer(DealInput):
        number = serializers.IntegerField(
            required=False, help_text="If given, the same as in the address."
        )

    @extend_schema(
        operation_id="deal_update",
        request=InputSerializer,
        responses={
            200: OpenApiResponse(
                PolymorphicProxySerializer(
                    component_name="DealReplaced",
                    serializers=[DealWriteOutput, SheetOutput],
                    resource_type_field_name=None,
                ),
                description="The deal as it is now; the sheet, when the request "
                "repeats an Idempotency-Key whose deal has gone since.",
            )
        },
    )
    def put(self, request, pk, number):
        self.require(ORGANIZER, SCORER, link=TABLE)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if values.pop("number", number) != number:
            raise exceptions.ValidationError(
                {"number": [f"the address names deal {number}; renumber by deleting."]}
            )
        deal, match = services.score_sheet_deal_replace(
            match_id=self.match.pk,
            number=number,
            user=request.user,
            idempotency_key=self.idempotency_key,
            **values,
        )
        return _deal_answer(deal, match, status.HTTP_200_OK)

    def replayed(self, match: Match) -> Response:
        if self.request.method == "PUT":
            return _deal_replayed(match, self.kwargs["number"])
        return Response(MatchSummary(match).data)

    @extend_schema(
        operation_id="deal_delete",
        parameters=[OpenApiParameter("version", int, required=True)],
        responses={200: MatchSummary},
    )
    def delete(self, request, pk, number):
        self.require(ORGANIZER, SCORER, link=TABLE)
        match = services.score_sheet_deal_delete(
            match_id=self.match.pk,
            number=number,
            user=request.user,
            version=_version(request),
            idempotency_key=self.idempotency_key,
        )
        return Response(MatchSummary(match).data)


class PenaltyListApi(MatchScopedMixin, APIView):
    """Add a penalty (scorers, organizers and the table's link; conduct penalties:
    organizers)."""

    permission_classes = [ReadOnlyOrAuthenticated]
    link_kinds = (TABLE,)

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
            required=False,
            allow_null=True,
            help_text="Only for conduct: 0 to 2 under gcka, 0 to 5 under the other "
            "rule sets (RULES.md §3).",
        )
        note = serializers.CharField(max_length=300, required=False, allow_blank=True)
        version = serializers.IntegerField()

    class OutputSerializer(PenaltyOutput):
        version = serializers.IntegerField()
        match = MatchSummary()
        deal_award_to = serializers.ChoiceField(choices=SIDE_CHOICES)
        deal_award = serializers.IntegerField()

    @extend_schema(
        operation_id="penalty_create",
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            200: replay_answer("PenaltyReplayed", OutputSerializer, SheetOutput),
        },
    )
    def post(self, request, pk):
        self.require(ORGANIZER, SCORER, link=TABLE)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        penalty, match = services.score_sheet_penalty_record(
            match_id=self.match.pk,
            user=request.user,
            by_organizer=ORGANIZER in self.roles,
            idempotency_key=self.idempotency_key,
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
    link_kinds = (TABLE,)

    @extend_schema(
        operation_id="penalty_delete",
        parameters=[OpenApiParameter("version", int, required=True)],
        responses={200: MatchSummary},
    )
    def delete(self, request, pk, penalty):
        self.require(ORGANIZER, SCORER, link=TABLE)
        match = services.score_sheet_penalty_delete(
            match_id=self.match.pk,
            penalty_id=penalty,
            user=request.user,
            version=_version(request),
            idempotency_key=self.idempotency_key,
        )
        return Response(MatchSummary(match).data)

    def replayed(self, match: Match) -> Response:
        return Response(MatchSummary(match).data)
