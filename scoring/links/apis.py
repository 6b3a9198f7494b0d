"""The REST API of table and team links (API.md "Table and team links"): the
organizer's list and renewal. Interfaces only."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.links import services
from tournament.domain.types import Role
from tournament.models import Link, LinkKind
from tournament.web.api import (
    ID_MAX,
    ReadOnlyOrAuthenticated,
    TournamentScopedMixin,
)

from .selectors import link_list, table_links, tables_needed


class TableLinkOutput(serializers.Serializer):
    table = serializers.IntegerField()
    key = serializers.CharField(help_text="The secret inside the link.")
    url = serializers.URLField(help_text="The link: the table's score page.")
    qr = serializers.URLField(help_text="The address of the link's QR code (SVG).")


class TeamLinkOutput(serializers.Serializer):
    team = serializers.IntegerField()
    team_name = serializers.CharField()
    key = serializers.CharField(help_text="The secret inside the link.")
    url = serializers.URLField(help_text="The link: the team's page.")
    qr = serializers.URLField(help_text="The address of the link's QR code (SVG).")


class RenewedOutput(serializers.Serializer):
    table = serializers.IntegerField(allow_null=True)
    team = serializers.IntegerField(allow_null=True)
    team_name = serializers.CharField(allow_null=True)
    key = serializers.CharField(help_text="The new secret inside the link.")
    url = serializers.URLField()
    qr = serializers.URLField()


class LinksOutput(serializers.Serializer):
    tables = TableLinkOutput(many=True)
    teams = TeamLinkOutput(many=True)


def link_data(request, link: Link) -> dict:
    data = {
        "key": link.key,
        "url": request.build_absolute_uri(reverse("scoring:link", args=[link.key])),
        "qr": request.build_absolute_uri(reverse("scoring:link-qr", args=[link.key])),
    }
    if link.kind == LinkKind.TABLE:
        return {"table": link.table, **data}
    return {"team": link.team_id, "team_name": link.team.name, **data}


class LinkListApi(TournamentScopedMixin, APIView):
    """Every table's and team's link, made on first request (organizers only)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(operation_id="link_list", responses=LinksOutput)
    def get(self, request, slug):
        self.require(Role.ORGANIZER)
        needed = tables_needed(self.tournament)
        services.links_ensure(tournament=self.tournament, tables=needed)
        tables, teams = link_list(tournament=self.tournament)
        tables = table_links(tables, needed)
        response = Response(
            {
                "tables": [link_data(request, k) for k in tables],
                "teams": [link_data(request, k) for k in teams],
            }
        )
        response["Cache-Control"] = "private, no-store"
        return response


class LinkRenewApi(TournamentScopedMixin, APIView):
    """A new key for one table's or team's link; the old one stops at once."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(serializers.Serializer):
        table = serializers.IntegerField(
            required=False, min_value=1, max_value=services.TABLES_MAX
        )
        team = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)

        def validate(self, attrs):
            if ("table" in attrs) == ("team" in attrs):
                raise exceptions.ValidationError(
                    {"table": ["name either a table or a team (its id), not both."]}
                )
            return attrs

    @extend_schema(
        operation_id="link_renew",
        request=InputSerializer,
        responses=RenewedOutput,
    )
    def post(self, request, slug):
        self.require(Role.ORGANIZER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.links_ensure(
            tournament=self.tournament, tables=tables_needed(self.tournament)
        )
        link = services.link_renew(
            tournament=self.tournament, user=request.user, **data.validated_data
        )
        body = {"table": None, "team": None, "team_name": None}
        body.update(link_data(request, link))
        response = Response(body, status=status.HTTP_200_OK)
        response["Cache-Control"] = "private, no-store"
        return response
