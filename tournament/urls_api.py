"""Routes of /api/v1/ that belong to the tournament app."""

from django.urls import path

from . import apis
from .accounts import apis as account_apis

app_name = "tournament-api"

urlpatterns = [
    path("auth/token/", apis.TokenApi.as_view(), name="auth-token"),
    path("health/", apis.HealthApi.as_view(), name="health"),
    path("tournaments/", apis.TournamentListApi.as_view(), name="tournament-list"),
    path(
        "tournaments/<slug:slug>/",
        apis.TournamentDetailApi.as_view(),
        name="tournament-detail",
    ),
    path(
        "tournaments/<slug:slug>/sections/",
        apis.SectionListApi.as_view(),
        name="section-list",
    ),
    path(
        "tournaments/<slug:slug>/sections/<id:pk>/",
        apis.SectionDetailApi.as_view(),
        name="section-detail",
    ),
    path(
        "tournaments/<slug:slug>/teams/", apis.TeamListApi.as_view(), name="team-list"
    ),
    path(
        "tournaments/<slug:slug>/teams/import/",
        apis.TeamImportApi.as_view(),
        name="team-import",
    ),
    path(
        "tournaments/<slug:slug>/teams/import/template.xlsx",
        apis.TeamImportTemplateApi.as_view(),
        name="team-import-template",
    ),
    path(
        "tournaments/<slug:slug>/teams/<id:pk>/",
        apis.TeamDetailApi.as_view(),
        name="team-detail",
    ),
    path(
        "tournaments/<slug:slug>/teams/<id:pk>/check-in/",
        apis.TeamCheckInApi.as_view(),
        name="team-check-in",
    ),
    path(
        "tournaments/<slug:slug>/members/",
        apis.MemberListApi.as_view(),
        name="member-list",
    ),
    path(
        "tournaments/<slug:slug>/members/<id:pk>/",
        apis.MemberDetailApi.as_view(),
        name="member-detail",
    ),
    path(
        "site/invitations/",
        account_apis.SiteInvitationListApi.as_view(),
        name="site-invitation-list",
    ),
    path(
        "site/invitations/<id:pk>/",
        account_apis.SiteInvitationDetailApi.as_view(),
        name="site-invitation-detail",
    ),
    path("site/roles/", account_apis.SiteRoleListApi.as_view(), name="site-role-list"),
    path(
        "site/roles/<id:pk>/",
        account_apis.SiteRoleDetailApi.as_view(),
        name="site-role-detail",
    ),
]
