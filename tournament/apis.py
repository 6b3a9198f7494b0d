"""The REST API of tournaments, sections, teams and roles (../shared/docs/API.md).

Interfaces only: validate the shape of the input, call one service or selector, render.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.db.raw import django_request
from tournament.web.api import (
    ID_MAX,
    XLSX,
    ReadOnlyOrAuthenticated,
    TournamentScopedMixin,
    xlsx_response,
)
from tournament.web.links import request_link
from tournament.web.security import locked_out
from tournament.xlsx.uploads import upload_content, xlsx_limits

from . import services
from .accounts import services as account_services
from .accounts.selectors import (
    may_create_tournaments,
    may_rate_tournament,
    membership_list,
)
from .domain.errors import RuleError, marked
from .domain.rulesets import RuleSetCode
from .domain.types import Role
from .domain.usernames import username_form
from .models import (
    SUBSTITUTIONS_MAX,
    LinkKind,
    Membership,
    Section,
    Team,
    Tournament,
)
from .selectors import (
    captain_team_ids,
    section_list,
    team_list,
    tournament_list_visible,
    tournament_team_count,
)
from .spreadsheets import field_column, team_rows_read, team_template_build

ORGANIZER, CAPTAIN = Role.ORGANIZER, Role.CAPTAIN


def _choice(enum, what: str) -> dict:
    known = ", ".join(m.value for m in enum)
    return {"invalid_choice": f'"{{input}}" is not a known {what}; use one of {known}.'}


# Tournaments
# ----------------------------------------------------------------------------


class TournamentOutput(serializers.ModelSerializer):
    team_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "slug",
            "name",
            "ruleset",
            "players_per_team",
            "league_rounds",
            "league_deals",
            "qualifiers",
            "published",
            "rated",
            "status",
            "venue",
            "starts_on",
            "ends_on",
            "check_in_required",
            "substitutions_allowed",
            "time_zone",
            "home_country",
            "team_count",
            "created_at",
        ]


class TournamentInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=60)
    ruleset = serializers.ChoiceField(
        choices=Tournament._meta.get_field("ruleset").choices,
        default=RuleSetCode.INTERNATIONAL.value,
        error_messages=_choice(RuleSetCode, "rule set"),
    )
    players_per_team = serializers.IntegerField(
        min_value=2, max_value=4, required=False
    )
    league_rounds = serializers.IntegerField(min_value=1, max_value=50, required=False)
    league_deals = serializers.IntegerField(
        min_value=1, max_value=99, required=False, allow_null=True
    )
    qualifiers = serializers.IntegerField(min_value=2, max_value=512, required=False)
    published = serializers.BooleanField(default=False)
    rated = serializers.BooleanField(
        required=False,
        help_text="Its confirmed matches count for the site's ratings once "
        "published (docs/ratings.md): set by a site administrator, or by a trusted "
        "creator (one given `rate_tournament`) for the tournaments they organize; "
        "403 `rating_not_trusted` for anyone else.",
    )
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    starts_on = serializers.DateField(required=False, allow_null=True)
    ends_on = serializers.DateField(required=False, allow_null=True)
    check_in_required = serializers.BooleanField(
        required=False,
        help_text="The draw takes the teams checked in only; fixed by the draw.",
    )
    substitutions_allowed = serializers.IntegerField(
        min_value=0,
        max_value=SUBSTITUTIONS_MAX,
        required=False,
        help_text="Player substitutions per team; 1 unless set.",
    )
    time_zone = serializers.CharField(
        max_length=64,
        required=False,
        help_text="An IANA time zone name (America/New_York) in which the pages, "
        "printouts and workbook tell the tournament's times; the site's unless set; "
        "fixed by the draw. The API's own times stay in UTC.",
    )
    home_country = serializers.CharField(
        max_length=60,
        required=False,
        help_text="The country whose captains are placed by city or state/region "
        "(rules.md §5); a team from anywhere else plays in International. A name as "
        "`captain.country` takes it (USA, India; common spellings normalised); USA "
        "unless set; fixed by the draw (409 `draw_locked`).",
    )


class TournamentListApi(GenericAPIView):
    """Published tournaments, and the ones you have a role in; the site's tournament
    creators and administrators create new ones."""

    permission_classes = [ReadOnlyOrAuthenticated]
    serializer_class = TournamentOutput

    def get_queryset(self):
        return tournament_list_visible(user=self.request.user)

    @extend_schema(
        operation_id="tournament_list", responses=TournamentOutput(many=True)
    )
    def get(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(TournamentOutput(page, many=True).data)

    @extend_schema(
        operation_id="tournament_create",
        request=TournamentInput,
        responses={201: TournamentOutput},
    )
    def post(self, request):
        if not may_create_tournaments(request.user):
            raise exceptions.PermissionDenied(
                "Creating tournaments is for the site's tournament creators: a site "
                "administrator invites you as one (POST /api/v1/site/invitations/)."
            )
        data = TournamentInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_create(
            user=request.user, **data.validated_data
        )
        tournament = tournament_list_visible(user=request.user).get(pk=tournament.pk)
        return Response(
            TournamentOutput(tournament).data, status=status.HTTP_201_CREATED
        )


class TournamentDetailApi(TournamentScopedMixin, APIView):
    permission_classes = [ReadOnlyOrAuthenticated]

    class OutputSerializer(TournamentOutput):
        roles = serializers.SerializerMethodField()

        class Meta(TournamentOutput.Meta):
            fields = [*TournamentOutput.Meta.fields, "roles"]

        def get_roles(self, obj) -> list[str]:
            return sorted(self.context["roles"])

    class InputSerializer(TournamentInput):
        slug = None  # the address of a tournament does not change

    @extend_schema(operation_id="tournament_get", responses=OutputSerializer)
    def get(self, request, slug):
        self.tournament.team_count = tournament_team_count(tournament=self.tournament)
        return Response(
            self.OutputSerializer(self.tournament, context={"roles": self.roles}).data
        )

    @extend_schema(
        operation_id="tournament_update",
        request=InputSerializer,
        responses=OutputSerializer,
    )
    def patch(self, request, slug):
        # A site administrator marks any tournament rated, organizer or not.
        if not (
            isinstance(request.data, dict)
            and set(request.data) == {"rated"}
            and may_rate_tournament(request.user, self.tournament)
        ):
            self.require(ORGANIZER)
        data = self.InputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        services.tournament_update(
            tournament=self.tournament, user=request.user, **data.validated_data
        )
        tournament = tournament_list_visible(user=request.user).get(
            pk=self.tournament.pk
        )
        return Response(
            self.OutputSerializer(tournament, context={"roles": self.roles}).data
        )


# Sections
# -------------------------------------------------------------------------------


class SectionOutput(serializers.ModelSerializer):
    team_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Section
        fields = ["id", "name", "states", "cities", "is_international", "team_count"]


class SectionInput(serializers.Serializer):
    name = serializers.CharField(max_length=80)
    states = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, max_length=60
    )
    cities = serializers.ListField(
        child=serializers.CharField(max_length=80), required=False, max_length=500
    )


class SectionListApi(TournamentScopedMixin, APIView):
    """The sections of a tournament; "International" exists from the start."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(operation_id="section_list", responses=SectionOutput(many=True))
    def get(self, request, slug):
        return Response(
            SectionOutput(section_list(tournament=self.tournament), many=True).data
        )

    @extend_schema(
        operation_id="section_create",
        request=SectionInput,
        responses={201: SectionOutput},
    )
    def post(self, request, slug):
        self.require(ORGANIZER)
        data = SectionInput(data=request.data)
        data.is_valid(raise_exception=True)
        section = services.section_create(
            tournament=self.tournament, **data.validated_data
        )
        section = section_list(tournament=self.tournament).get(pk=section.pk)
        return Response(SectionOutput(section).data, status=status.HTTP_201_CREATED)


class SectionDetailApi(TournamentScopedMixin, APIView):
    permission_classes = [ReadOnlyOrAuthenticated]

    def _section(self, pk: int) -> Section:
        return get_object_or_404(section_list(tournament=self.tournament), pk=pk)

    @extend_schema(operation_id="section_get", responses=SectionOutput)
    def get(self, request, slug, pk):
        return Response(SectionOutput(self._section(pk)).data)

    @extend_schema(
        operation_id="section_update", request=SectionInput, responses=SectionOutput
    )
    def patch(self, request, slug, pk):
        self.require(ORGANIZER)
        section = self._section(pk)
        data = SectionInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        services.section_update(section=section, **data.validated_data)
        return Response(SectionOutput(self._section(pk)).data)

    @extend_schema(operation_id="section_delete", responses={204: None})
    def delete(self, request, slug, pk):
        self.require(ORGANIZER)
        services.section_delete(section=self._section(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


# Teams
# ----------------------------------------------------------------------------------


class CaptainSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80, allow_blank=True)
    city = serializers.CharField(
        max_length=80, required=False, allow_blank=True, default=""
    )
    state = serializers.CharField(
        max_length=80, required=False, allow_blank=True, default=""
    )
    country = serializers.CharField(max_length=60, allow_blank=True)


class CaptainPatchSerializer(CaptainSerializer):
    """A partial captain: only the fields sent change."""

    name = serializers.CharField(max_length=80, required=False)
    city = serializers.CharField(max_length=80, required=False, allow_blank=True)
    state = serializers.CharField(max_length=80, required=False, allow_blank=True)
    country = serializers.CharField(max_length=60, required=False)


class CaptainOutput(serializers.Serializer):
    name = serializers.CharField(source="captain_name")
    city = serializers.CharField(source="captain_city")
    state = serializers.CharField(source="captain_state")
    country = serializers.CharField(source="captain_country")


class TeamOutput(serializers.ModelSerializer):
    section_name = serializers.CharField(source="section.name", read_only=True)
    captain = CaptainOutput(source="*", read_only=True)
    players = serializers.SlugRelatedField(many=True, read_only=True, slug_field="name")

    class Meta:
        model = Team
        fields = [
            "id",
            "name",
            "section",
            "section_name",
            "placement",
            "captain",
            "players",
            "checked_in",
            "checked_in_at",
            "status",
            "withdrawn_from_round",
            "withdrawn_reason",
            "created_at",
        ]

    checked_in = serializers.SerializerMethodField()

    def get_checked_in(self, obj) -> bool:
        return obj.checked_in_at is not None


class TeamInput(serializers.Serializer):
    # Blank names pass the shape check so that registration names every wrong field at
    # once.
    name = serializers.CharField(max_length=80, allow_blank=True)
    captain = CaptainSerializer()
    players = serializers.ListField(
        child=serializers.CharField(max_length=80),
        max_length=4,
        required=False,
        default=list,
    )


class TeamListApi(TournamentScopedMixin, GenericAPIView):
    """Teams of a tournament, by name; `section` and `search` (name, captain, city)
    filter."""

    permission_classes = [ReadOnlyOrAuthenticated]
    serializer_class = TeamOutput
    queryset = Team.objects.none()  # for the schema; the selector gives the rows

    class FilterSerializer(serializers.Serializer):
        section = serializers.IntegerField(
            required=False, min_value=1, max_value=ID_MAX
        )
        search = serializers.CharField(required=False, max_length=80)

    @extend_schema(
        operation_id="team_list",
        parameters=[FilterSerializer],
        responses=TeamOutput(many=True),
    )
    def get(self, request, slug):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        teams = team_list(tournament=self.tournament, **filters.validated_data)
        page = self.paginate_queryset(teams)
        return self.get_paginated_response(TeamOutput(page, many=True).data)

    @extend_schema(
        operation_id="team_create", request=TeamInput, responses={201: TeamOutput}
    )
    def post(self, request, slug):
        self.require(ORGANIZER)
        data = TeamInput(data=request.data)
        data.is_valid(raise_exception=True)
        team = services.team_register(tournament=self.tournament, **data.validated_data)
        return Response(
            TeamOutput(team_list(tournament=self.tournament).get(pk=team.pk)).data,
            status=status.HTTP_201_CREATED,
        )


class TeamDetailApi(TournamentScopedMixin, APIView):
    """One team. PATCH with `section` is the organizer's move: the team stays there."""

    permission_classes = [ReadOnlyOrAuthenticated]

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=80, required=False)
        captain = CaptainPatchSerializer(required=False)
        players = serializers.ListField(
            child=serializers.CharField(max_length=80), max_length=4, required=False
        )
        section = serializers.IntegerField(
            required=False, min_value=1, max_value=ID_MAX, source="section_id"
        )

    def _team(self, pk: int) -> Team:
        return get_object_or_404(team_list(tournament=self.tournament), pk=pk)

    @extend_schema(operation_id="team_get", responses=TeamOutput)
    def get(self, request, slug, pk):
        return Response(TeamOutput(self._team(pk)).data)

    @extend_schema(
        operation_id="team_update", request=InputSerializer, responses=TeamOutput
    )
    def patch(self, request, slug, pk):
        self.require(ORGANIZER)
        team = self._team(pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.team_update(team=team, **data.validated_data)
        return Response(TeamOutput(self._team(pk)).data)

    @extend_schema(operation_id="team_delete", responses={204: None})
    def delete(self, request, slug, pk):
        self.require(ORGANIZER)
        services.team_delete(team=self._team(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamCheckInApi(TournamentScopedMixin, APIView):
    """Check a team in as it arrives (an organizer, or the team's captain); DELETE
    undoes it before the draw (rules.md §9)."""

    permission_classes = [ReadOnlyOrAuthenticated]
    link_kinds = (LinkKind.TEAM,)

    def _team(self, pk: int) -> Team:
        held = request_link(self.request)
        self.link_reaches = held is not None and held.team_id == pk
        team = get_object_or_404(team_list(tournament=self.tournament), pk=pk)
        if held is not None:
            self.require(link=LinkKind.TEAM)
        elif ORGANIZER not in self.roles:
            self.require(ORGANIZER, CAPTAIN)
            if pk not in captain_team_ids(
                user=self.request.user, tournament=self.tournament
            ):
                raise exceptions.PermissionDenied(
                    f"Only {team.name}'s captain, or an organizer, checks it in."
                )
        return team

    @extend_schema(operation_id="team_check_in", request=None, responses=TeamOutput)
    def post(self, request, slug, pk):
        services.team_check_in(team=self._team(pk), user=request.user)
        return Response(
            TeamOutput(team_list(tournament=self.tournament).get(pk=pk)).data
        )

    @extend_schema(
        operation_id="team_check_in_undo", request=None, responses={200: TeamOutput}
    )
    def delete(self, request, slug, pk):
        services.team_check_in_undo(team=self._team(pk))
        return Response(
            TeamOutput(team_list(tournament=self.tournament).get(pk=pk)).data
        )


class TeamImportApi(TournamentScopedMixin, APIView):
    """Register the teams of an .xlsx team list, all or none (docs/team-import.md)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]  # an upload: multipart only (API.md)

    class InputSerializer(serializers.Serializer):
        file = serializers.FileField()

    class ProblemSerializer(serializers.Serializer):
        row = serializers.IntegerField()
        field = serializers.CharField()
        column = serializers.SerializerMethodField()
        message = serializers.CharField()

        def get_column(self, problem) -> str:
            """The template's column, as the file shows it ("State")."""
            return field_column(problem.field, self.context["players_per_team"])

    class OutputSerializer(serializers.Serializer):
        created = serializers.IntegerField()
        errors = serializers.ListField(child=serializers.DictField())
        teams = TeamOutput(many=True, required=False)

    class RefusedSerializer(serializers.Serializer):
        """Bad rows (`created` 0, every row's problem in `errors`), or a file that is
        not a team list at all (`file`)."""

        created = serializers.IntegerField(required=False)
        errors = serializers.ListField(child=serializers.DictField(), required=False)
        detail = serializers.CharField(required=False)
        file = serializers.ListField(child=serializers.CharField(), required=False)

    @extend_schema(
        operation_id="team_import",
        request={"multipart/form-data": InputSerializer},
        responses={201: OutputSerializer, 400: RefusedSerializer},
    )
    def post(self, request, slug):
        self.require(ORGANIZER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rows = team_rows_read(
            upload_content(data.validated_data["file"]), xlsx_limits()
        )
        try:
            teams = services.team_import(tournament=self.tournament, rows=rows)
        except services.TeamImportRefused as refused:
            problems = self.ProblemSerializer(
                refused.problems,
                many=True,
                context={"players_per_team": self.tournament.players_per_team},
            ).data
            return Response(
                {"created": 0, "errors": problems, "detail": refused.message},
                status=status.HTTP_400_BAD_REQUEST,
            )
        listed = team_list(tournament=self.tournament).filter(
            pk__in=[t.pk for t in teams]
        )
        return Response(
            {
                "created": len(teams),
                "errors": [],
                "teams": TeamOutput(listed, many=True).data,
            },
            status=status.HTTP_201_CREATED,
        )


class TeamImportTemplateApi(TournamentScopedMixin, APIView):
    """An empty team list in the layout the import reads."""

    permission_classes = [ReadOnlyOrAuthenticated]

    @extend_schema(
        operation_id="team_template_download", responses={(200, XLSX): bytes}
    )
    def get(self, request, slug):
        content = team_template_build(
            tournament_name=self.tournament.name,
            players_per_team=self.tournament.players_per_team,
            home_country=self.tournament.home_country,
        )
        return xlsx_response(content, f"{slug}-teams.xlsx")


# Roles
# ----------------------------------------------------------------------------------


class MemberOutput(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")
    team_name = serializers.CharField(source="team.name", default=None, allow_null=True)

    class Meta:
        model = Membership
        fields = ["id", "username", "role", "team", "team_name", "created_at"]


class MemberListApi(TournamentScopedMixin, APIView):
    """Who holds which role; organizers give roles; a new username creates a user."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(
            required=False,
            allow_blank=True,
            write_only=True,
            style={"input_type": "password"},
        )
        role = serializers.ChoiceField(
            choices=Membership._meta.get_field("role").choices,
            error_messages=_choice(Role, "role"),
        )
        team = serializers.IntegerField(
            required=False, allow_null=True, min_value=1, max_value=ID_MAX
        )

    @extend_schema(operation_id="member_list", responses=MemberOutput(many=True))
    def get(self, request, slug):
        self.require(ORGANIZER)
        return Response(
            MemberOutput(membership_list(tournament=self.tournament), many=True).data
        )

    @extend_schema(
        operation_id="member_create",
        request=InputSerializer,
        responses={201: MemberOutput},
    )
    def post(self, request, slug):
        self.require(ORGANIZER)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        team_id = values.pop("team", None)
        team = None
        if team_id is not None:
            team = Team.objects.filter(tournament=self.tournament, pk=team_id).first()
            if team is None:
                raise RuleError(
                    "unknown_team",
                    marked("no such team in this tournament"),
                    field="team",
                )
        membership = account_services.membership_create(
            tournament=self.tournament, team=team, **values
        )
        membership = membership_list(tournament=self.tournament).get(pk=membership.pk)
        return Response(MemberOutput(membership).data, status=status.HTTP_201_CREATED)


class MemberDetailApi(TournamentScopedMixin, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="member_delete", responses={204: None})
    def delete(self, request, slug, pk):
        self.require(ORGANIZER)
        membership = get_object_or_404(
            membership_list(tournament=self.tournament), pk=pk
        )
        account_services.membership_delete(membership=membership)
        return Response(status=status.HTTP_204_NO_CONTENT)


# Auth
# -----------------------------------------------------------------------------------


class TokenApi(APIView):
    """POST: a token for `username` and `password` (429 after 5 failures for one
    username from one address: docs/security.md). DELETE: revoke your token."""

    permission_classes = []

    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField()

    def get_authenticators(self):
        # Getting a token takes none: a stale one sent along is ignored, not 401.
        if self.request is not None and self.request.method == "POST":
            return []
        return super().get_authenticators()

    @extend_schema(
        operation_id="token_create",
        request=AuthTokenSerializer,
        responses=OutputSerializer,
        auth=[],
    )
    def post(self, request):
        given = request.data
        if isinstance(given, dict) and isinstance(given.get("username"), str):
            given = dict(given)
            # As the login page reads it (Django's UsernameField): a fullwidth
            # "ＲＯＯＴ" is "ROOT", for the account and for the lockout's count alike.
            given["username"] = username_form(given["username"])
        data = AuthTokenSerializer(data=given, context={"request": request})
        valid = data.is_valid()
        if getattr(request, "axes_locked_out", False):
            # django-axes marks DRF's request, which its middleware does not see.
            return locked_out(django_request(request))
        if not valid:
            raise exceptions.ValidationError(data.errors)
        token, _ = Token.objects.get_or_create(user=data.validated_data["user"])
        return Response({"token": token.key})

    @extend_schema(operation_id="token_delete", request=None, responses={204: None})
    def delete(self, request):
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


# Health
# ---------------------------------------------------------------------------------


class HealthCheckOutput(serializers.Serializer):
    ok = serializers.BooleanField()
    ms = serializers.FloatField(help_text="How long the check took.")


class HealthApi(APIView):
    """Whether the site can serve, for the proxy, compose and people: 200 while the
    database answers and its migrations are applied, 503 in the same shape when not
    (docs/deploy.md). No account, no secret, one query."""

    authentication_classes = []
    permission_classes = []

    class OutputSerializer(serializers.Serializer):
        status = serializers.ChoiceField(
            choices=["ok", "degraded"],
            help_text="ok when every check is; degraded when one is not.",
        )
        version = serializers.CharField(
            help_text="The software's release (Semantic Versioning; CHANGELOG.md)."
        )
        commit = serializers.CharField(
            help_text="The commit it was built from (40 hex digits), or `unknown`."
        )
        checks = inline_serializer(
            "HealthChecks",
            {
                name: HealthCheckOutput()
                for name in ("database", "migrations", "cache", "broker", "worker")
            },
        )

    @extend_schema(
        operation_id="health_get",
        responses={200: OutputSerializer, 503: OutputSerializer},
        auth=[],
    )
    def get(self, request):
        from tournament.ops.health import health_checks
        from tournament.ops.version import COMMIT, VERSION

        serving, checks = health_checks()
        body = {
            "status": "ok" if all(c["ok"] for c in checks.values()) else "degraded",
            "version": VERSION,
            "commit": COMMIT,
            "checks": checks,
        }
        answer = Response(body, status=200 if serving else 503)
        answer["Cache-Control"] = "no-store"
        return answer
