"""The REST API of the tournament day on a score sheet (API.md "The tournament day"):
a forfeit, the sheet's disputes, and an organizer's ruling. Interfaces only, as
apis.py's."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.web.api import ReadOnlyOrAuthenticated
from tournament.web.links import request_link

from ..domain.forfeits import Absent
from ..models import Dispute, Match
from . import day
from .apis import (
    IDEMPOTENCY_KEY,
    ORGANIZER,
    TEAM,
    MatchScopedMixin,
    SheetOutput,
    _choice,
    replay_answer,
    sheet_data,
)
from .selectors import captain_sides, dispute_list, sheet_read


class MatchForfeitApi(MatchScopedMixin, APIView):
    """An organizer records a forfeit: the team that did not come (A, B, or both)
    and why; the sheet locks with status `forfeited` (rules.md §9)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(serializers.Serializer):
        absent = serializers.ChoiceField(
            choices=[a.value for a in Absent],
            error_messages=_choice(Absent, "team of the match (or both)"),
        )
        reason = serializers.CharField(max_length=300, allow_blank=True)
        version = serializers.IntegerField(
            help_text="The sheet's version you read; a stale one gets 409."
        )

    @extend_schema(
        operation_id="match_forfeit", request=InputSerializer, responses=SheetOutput
    )
    def post(self, request, pk):
        self.require(ORGANIZER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        day.score_sheet_forfeit(
            match_id=self.match.pk,
            user=request.user,
            idempotency_key=self.idempotency_key,
            **data.validated_data,
        )
        return self.answer_sheet()


class DisputeOutput(serializers.Serializer):
    id = serializers.IntegerField()
    deal = serializers.IntegerField(allow_null=True)
    text = serializers.CharField()
    raised_by = serializers.CharField(source="raised_by_name")
    raised_as = serializers.CharField()
    raised_at = serializers.DateTimeField()
    open = serializers.BooleanField()
    ruling = serializers.CharField(allow_blank=True)
    ruled_by = serializers.CharField(source="ruled_by_name", allow_blank=True)
    ruled_at = serializers.DateTimeField(allow_null=True)


class MatchDisputeListApi(MatchScopedMixin, GenericAPIView):
    """The sheet's disputes, oldest first; a captain of either team, a scorer or an
    organizer raises one, on a deal or the whole match (rules.md §9); so does the
    link of either team (not a table's)."""

    permission_classes = [ReadOnlyOrAuthenticated]
    link_kinds = (TEAM,)
    serializer_class = DisputeOutput
    queryset = Dispute.objects.none()  # for the schema; the selector gives rows

    class InputSerializer(serializers.Serializer):
        deal = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=1,
            max_value=99,
            help_text="The deal's number; leave it out to dispute the whole match.",
        )
        text = serializers.CharField(max_length=2000, allow_blank=True)

    @extend_schema(operation_id="dispute_list", responses=DisputeOutput(many=True))
    def get(self, request, pk):
        page = self.paginate_queryset(dispute_list(match=self.match))
        return self.get_paginated_response(DisputeOutput(page, many=True).data)

    @extend_schema(
        operation_id="dispute_create",
        request=InputSerializer,
        responses={
            201: DisputeOutput,
            200: replay_answer("DisputeReplayed", DisputeOutput, SheetOutput),
        },
    )
    def post(self, request, pk):
        if request_link(request) is not None:
            self.require(link=TEAM)
        elif not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        dispute = day.score_sheet_dispute_raise(
            match_id=self.match.pk,
            user=request.user,
            roles=self.roles,
            sides=self.sides or captain_sides(user=request.user, match=self.match),
            idempotency_key=self.idempotency_key,
            **data.validated_data,
        )
        return Response(DisputeOutput(dispute).data, status=status.HTTP_201_CREATED)

    def replayed(self, match: Match) -> Response:
        key = self.request.headers.get(IDEMPOTENCY_KEY, "")
        change = match.changes.filter(request_key=key).first()
        made = (change.after or {}).get("dispute") if change else None
        dispute = Dispute.objects.filter(pk=made).first() if made else None
        if dispute is None:
            return Response(sheet_data(sheet_read(match=match)))
        return Response(DisputeOutput(dispute).data)


class MatchDisputeRuleApi(MatchScopedMixin, APIView):
    """An organizer rules on a dispute, in words; that closes it (rules.md §9)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(serializers.Serializer):
        ruling = serializers.CharField(max_length=2000, allow_blank=True)

    @extend_schema(
        operation_id="dispute_rule", request=InputSerializer, responses=DisputeOutput
    )
    def post(self, request, pk, dispute):
        self.require(ORGANIZER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            ruled = day.score_sheet_dispute_rule(
                match_id=self.match.pk,
                dispute_id=dispute,
                user=request.user,
                idempotency_key=self.idempotency_key,
                **data.validated_data,
            )
        except Dispute.DoesNotExist as missing:
            raise Http404("No such dispute on this sheet") from missing
        return Response(DisputeOutput(ruled).data)

    def replayed(self, match: Match) -> Response:
        found = Dispute.objects.filter(match=match, pk=self.kwargs["dispute"]).first()
        if found is None:
            raise Http404("No such dispute on this sheet")
        return Response(DisputeOutput(found).data)
