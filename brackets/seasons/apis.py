"""The API of seasons and of the ratings list (API.md, "People, seasons and
ratings"; docs/ratings.md). Interfaces only: check the input's shape and the
caller's standing, call one service or selector, render."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.ratings.apis import SiteAdministratorsOnly
from scoring.ratings.selectors import rating_list
from tournament.domain.errors import RuleError
from tournament.domain.types import TournamentStatus
from tournament.web.api import XLSX, ReadOnlyOrAuthenticated, xlsx_response

from ..domain.seasons import SeasonRow, points_read, whole_number
from ..models import Season
from . import selectors, services


class WholeNumberField(serializers.IntegerField):
    """A whole number as JSON writes it, or as text of the digits 0 to 9: DRF's
    IntegerField reads text with int(), which also takes "١", "𝟙" and "1_0"."""

    default_error_messages = {
        "invalid": "A whole number, in the digits 0 to 9, is required."
    }

    def to_internal_value(self, data):
        if isinstance(data, str) and whole_number(data) is None:
            self.fail("invalid")
        return super().to_internal_value(data)


class SeasonOutput(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()
    tournaments = serializers.ListField(
        child=serializers.CharField(), help_text="Slugs, in the order played."
    )
    points = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="{place: points}: from this final place on, these points.",
    )


def season_data(season: Season, user=None) -> dict[str, Any]:
    return {
        "name": season.name,
        "slug": season.slug,
        "tournaments": [t.slug for t in selectors.season_tournaments(season, user)],
        "points": season.points,
    }


class SeasonAdministrators(ReadOnlyOrAuthenticated):
    """Reads for everyone; a season is made by a site administrator."""

    def has_permission(self, request, view) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        return SiteAdministratorsOnly().has_permission(request, view)


class SeasonListApi(GenericAPIView):
    """Seasons, newest first; POST makes one (site administrators): its tournaments
    (running or finished) and its table of points by final place (the default,
    docs/ratings.md, when left out)."""

    permission_classes = [SeasonAdministrators]
    serializer_class = SeasonOutput
    queryset = Season.objects.none()  # for the schema; the selector reads

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120)
        slug = serializers.SlugField(max_length=60, required=False, allow_blank=True)
        tournaments = serializers.ListField(
            child=serializers.SlugField(max_length=60),
            min_length=1,
            max_length=200,
            help_text="The tournaments' slugs.",
        )
        points = serializers.DictField(
            child=WholeNumberField(min_value=0, max_value=100_000),
            required=False,
            help_text="{place: points}: from this place on, these points; places "
            "from 1, a worse place never more.",
        )

        def validate_points(self, value: dict) -> dict[int, int]:
            try:
                table = points_read(value.items())  # "01" is "1": a place once
            except RuleError as error:
                raise serializers.ValidationError(error.message) from None
            if len(table) > 500 or any(not 1 <= p <= 10_000 for p in table):
                raise serializers.ValidationError(
                    "places are from 1 to 10000, at most 500 of them"
                )
            return table

    @extend_schema(operation_id="season_list", responses=SeasonOutput(many=True))
    def get(self, request):
        page = self.paginate_queryset(selectors.season_list())
        return self.get_paginated_response([season_data(s, request.user) for s in page])

    @extend_schema(
        operation_id="season_create",
        request=InputSerializer,
        responses={201: SeasonOutput},
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = services.season_create(user=request.user, **data.validated_data)
        return Response(season_data(season), status=status.HTTP_201_CREATED)


class SeasonDetailApi(APIView):
    """One season; PATCH changes its name, its tournaments or its table (site
    administrators): its standings follow at once."""

    permission_classes = [SeasonAdministrators]

    class InputSerializer(SeasonListApi.InputSerializer):
        slug = None  # a season keeps its address

    @extend_schema(operation_id="season_get", responses=SeasonOutput)
    def get(self, request, slug: str):
        return Response(season_data(_season(slug), request.user))

    @extend_schema(
        operation_id="season_update", request=InputSerializer, responses=SeasonOutput
    )
    def patch(self, request, slug: str):
        season = _season(slug)
        data = self.InputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        services.season_update(season=season, **data.validated_data)
        return Response(season_data(_season(slug), request.user))


class SeasonRowOutput(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Equal totals share a rank.")
    id = serializers.IntegerField(
        help_text="A player: the person's id; a team: its row's number."
    )
    name = serializers.CharField()
    city = serializers.CharField()
    points = serializers.DictField(
        child=serializers.IntegerField(), help_text="{tournament slug: points}"
    )
    total = serializers.IntegerField()


class SeasonTournamentOutput(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    provisional = serializers.BooleanField(
        help_text="Still running (not finished): its points are its teams' places "
        "if it ended now, and may change."
    )


class SeasonStandingsOutput(serializers.Serializer):
    season = SeasonOutput()
    tournaments = SeasonTournamentOutput(
        many=True, help_text="The season's tournaments, in the order played."
    )
    players = SeasonRowOutput(many=True)
    teams = SeasonRowOutput(many=True)


def rows_data(rows: list[SeasonRow], cities: dict[int, str]) -> list[dict]:
    return [
        {
            "rank": r.rank,
            "id": r.key,
            "name": r.name,
            "city": cities.get(r.key, ""),
            "points": r.points,
            "total": r.total,
        }
        for r in rows
    ]


def _season(slug: str) -> Season:
    season = selectors.season_get(slug=slug)
    if season is None:
        raise Http404
    return season


class SeasonStandingsApi(APIView):
    """The season's standings of players and of teams: points per tournament (by
    each one's final place and the season's table) and in total, best first."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(operation_id="season_standings_get", responses=SeasonStandingsOutput)
    def get(self, request, slug: str):
        found = selectors.season_standings_get(season=_season(slug), user=request.user)
        return Response(
            {
                "season": season_data(found.season, request.user),
                "tournaments": [
                    {
                        "slug": t.slug,
                        "name": t.name,
                        "provisional": t.status != TournamentStatus.FINISHED,
                    }
                    for t in found.tournaments
                ],
                "players": rows_data(found.players, found.cities),
                "teams": rows_data(found.teams, found.team_cities),
            }
        )


class RatingRowOutput(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Equal displays share a rank.")
    person = serializers.IntegerField()
    name = serializers.CharField()
    city = serializers.CharField()
    display = serializers.IntegerField()
    uncertainty = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField()


class RatingListOutput(serializers.Serializer):
    rows = RatingRowOutput(many=True)


class RatingListApi(APIView):
    """Everyone with a rated match, best first; `season` keeps those who played in
    one of its tournaments (rated by every match up to now)."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class FilterSerializer(serializers.Serializer):
        season = serializers.SlugField(
            max_length=60,
            required=False,
            help_text="A season's slug; one that does not exist is bad input (400).",
        )

        def validate_season(self, slug: str) -> Season:
            # Bad input, as the schema says of a query (a 404 is for an address).
            season = selectors.season_get(slug=slug)
            if season is None:
                raise serializers.ValidationError(
                    f"there is no season {slug}; GET /api/v1/seasons/ lists them"
                )
            return season

    @extend_schema(
        operation_id="rating_list",
        parameters=[FilterSerializer],
        responses=RatingListOutput,
    )
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        tournaments = None
        if season := filters.validated_data.get("season"):
            tournaments = [
                t.pk for t in selectors.season_tournaments(season, request.user)
            ]
        rows = rating_list(user=request.user, tournaments=tournaments)
        return Response(
            {
                "rows": [
                    {
                        "rank": row.rank,
                        "person": row.person.pk,
                        "name": row.person.name,
                        "city": row.person.city,
                        "display": row.rating.display,
                        "uncertainty": row.rating.uncertainty,
                        "mu": row.rating.mu,
                        "sigma": row.rating.sigma,
                        "matches": row.rating.matches,
                        "provisional": row.rating.provisional,
                    }
                    for row in rows
                ]
            }
        )


class SeasonWorkbookApi(APIView):
    """The season's standings as a workbook (.xlsx): a Teams and a Players sheet."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(
        operation_id="season_workbook_download",
        responses={(200, XLSX): OpenApiResponse(bytes)},
    )
    def get(self, request, slug: str):
        season = _season(slug)
        return xlsx_response(
            selectors.season_workbook(season=season, user=request.user),
            f"season-{season.slug}.xlsx",
        )
