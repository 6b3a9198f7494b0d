"""The API of the site's people: invitations that make tournament creators and site
administrators, and their standing (API.md, "Site administration"; docs/people.md).
Site administrators only.

Interfaces only: check the input's shape and the caller's standing, call one service
or selector, render.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from ..models import SiteInvitation, SiteRole
from . import services
from .invitations import INVITATION_DAYS_MAX, link_state
from .selectors import (
    is_site_administrator,
    site_invitation_list,
    site_people_list,
    site_person_get,
)

ONLY_ADMINISTRATORS = (
    "Only the site's administrators invite creators and administrators; a superuser "
    "is one (manage.py createsuperuser)."
)


class SiteAdministratorsOnly(IsAuthenticated):
    message = ONLY_ADMINISTRATORS

    def has_permission(self, request, view) -> bool:
        if not super().has_permission(request, view):
            return False
        if not is_site_administrator(request.user):
            raise exceptions.PermissionDenied(ONLY_ADMINISTRATORS)
        return True


class SiteInvitationOutput(serializers.ModelSerializer):
    state = serializers.SerializerMethodField(
        help_text="waiting, accepted, withdrawn or expired."
    )
    created_by = serializers.CharField(
        source="created_by.username", default=None, allow_null=True
    )
    accepted_by = serializers.CharField(
        source="accepted_by.username", default=None, allow_null=True
    )

    class Meta:
        model = SiteInvitation
        fields = [
            "id",
            "role",
            "name",
            "email",
            "state",
            "created_at",
            "created_by",
            "expires_at",
            "accepted_at",
            "accepted_by",
            "withdrawn_at",
        ]

    def get_state(self, obj) -> str:
        return link_state(obj)


class NewSiteInvitationOutput(SiteInvitationOutput):
    url = serializers.SerializerMethodField(
        help_text="The one-time link: shown in this answer only (the site keeps a "
        "digest of its key)."
    )

    class Meta(SiteInvitationOutput.Meta):
        fields = [*SiteInvitationOutput.Meta.fields, "url"]

    def get_url(self, obj) -> str:
        return self.context["url"]


class SiteInvitationListApi(GenericAPIView):
    """The site's invitations, newest first; POST makes one (its `url` is in this
    answer only, and is mailed to `email` when given)."""

    permission_classes = [SiteAdministratorsOnly]
    serializer_class = SiteInvitationOutput
    queryset = SiteInvitation.objects.none()  # for the schema; the selector reads

    class InputSerializer(serializers.Serializer):
        role = serializers.ChoiceField(
            choices=SiteRole.choices,
            help_text="creator: may create tournaments; administrator: may also "
            "invite creators and administrators.",
            error_messages={
                "invalid_choice": '"{input}" is not a site role; use creator or '
                "administrator."
            },
        )
        email = serializers.EmailField(
            required=False,
            allow_blank=True,
            help_text="The link is mailed there when the site sends mail "
            "(EMAIL_URL); either way it is in this answer only.",
        )
        name = serializers.CharField(
            max_length=80, required=False, allow_blank=True, help_text="Who it is for."
        )
        days = serializers.IntegerField(
            min_value=1,
            max_value=INVITATION_DAYS_MAX,
            required=False,
            help_text="How many days it works (the site's INVITATION_DAYS unless "
            "given).",
        )

    @extend_schema(
        operation_id="site_invitation_list", responses=SiteInvitationOutput(many=True)
    )
    def get(self, request):
        page = self.paginate_queryset(site_invitation_list())
        return self.get_paginated_response(SiteInvitationOutput(page, many=True).data)

    @extend_schema(
        operation_id="site_invitation_create",
        request=InputSerializer,
        responses={201: NewSiteInvitationOutput},
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        made = services.site_invitation_create(user=request.user, **data.validated_data)
        url = request.build_absolute_uri(
            reverse("tournament:site-invitation", args=[made.key])
        )
        services.site_invitation_mail(invitation=made.invitation, link=url)
        invitation = site_invitation_list().get(pk=made.invitation.pk)
        return Response(
            NewSiteInvitationOutput(invitation, context={"url": url}).data,
            status=status.HTTP_201_CREATED,
        )


class SiteInvitationDetailApi(GenericAPIView):
    permission_classes = [SiteAdministratorsOnly]
    queryset = SiteInvitation.objects.none()

    @extend_schema(operation_id="site_invitation_delete", responses={204: None})
    def delete(self, request, pk):
        """Withdraw the invitation: its link stops working (409 `invitation_used`
        once accepted)."""
        invitation = get_object_or_404(site_invitation_list(), pk=pk)
        services.site_invitation_withdraw(invitation=invitation, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SiteRoleOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="The user's id.")
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=SiteRole.choices)
    superuser = serializers.BooleanField(
        help_text="An administrator as a superuser: not withdrawn here."
    )


class SiteRoleListApi(GenericAPIView):
    """Who may create tournaments (creators) and who administers the site
    (administrators), administrators first."""

    permission_classes = [SiteAdministratorsOnly]
    serializer_class = SiteRoleOutput
    queryset = get_user_model().objects.none()  # for the schema; the selector reads

    @extend_schema(operation_id="site_role_list", responses=SiteRoleOutput(many=True))
    def get(self, request):
        page = self.paginate_queryset(site_people_list())
        return self.get_paginated_response(SiteRoleOutput(page, many=True).data)


class SiteRoleDetailApi(GenericAPIView):
    permission_classes = [SiteAdministratorsOnly]
    serializer_class = SiteRoleOutput
    queryset = get_user_model().objects.none()

    @extend_schema(operation_id="site_role_delete", responses={204: None})
    def delete(self, request, pk):
        """Withdraw the person's standing: neither creator nor administrator any
        more (409 `superuser`, `last_administrator` or `role_from_group` when it
        cannot be)."""
        person = site_person_get(pk=pk)
        if person is None:
            raise Http404("No creator or administrator has this id.")
        services.site_role_withdraw(user=person.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
