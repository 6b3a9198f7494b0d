"""Routes of /api/v1/ that belong to score sheets."""

from django.urls import path

from . import apis

app_name = "scoring-api"

urlpatterns = [
    path(
        "tournaments/<slug:slug>/matches/",
        apis.MatchListApi.as_view(),
        name="match-list",
    ),
    path("tournaments/<slug:slug>/draw/", apis.LeagueDrawApi.as_view(), name="draw"),
    path(
        "tournaments/<slug:slug>/rounds/",
        apis.RoundListApi.as_view(),
        name="round-list",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/release/",
        apis.RoundReleaseApi.as_view(),
        name="round-release",
    ),
    path(
        "tournaments/<slug:slug>/standings/",
        apis.StandingsApi.as_view(),
        name="standings",
    ),
    path(
        "tournaments/<slug:slug>/standings/lots/",
        apis.StandingsLotsApi.as_view(),
        name="standings-lots",
    ),
    path("matches/<int:pk>/", apis.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:pk>/deals/", apis.DealListApi.as_view(), name="match-deals"),
    path(
        "matches/<int:pk>/deals/<int:number>/",
        apis.DealDetailApi.as_view(),
        name="match-deal",
    ),
    path(
        "matches/<int:pk>/penalties/",
        apis.PenaltyListApi.as_view(),
        name="match-penalties",
    ),
    path(
        "matches/<int:pk>/penalties/<int:penalty>/",
        apis.PenaltyDetailApi.as_view(),
        name="match-penalty",
    ),
    path(
        "matches/<int:pk>/confirm/",
        apis.MatchConfirmApi.as_view(),
        name="match-confirm",
    ),
    path(
        "matches/<int:pk>/reopen/", apis.MatchReopenApi.as_view(), name="match-reopen"
    ),
    path("matches/<int:pk>/toss/", apis.MatchTossApi.as_view(), name="match-toss"),
    path(
        "matches/<int:pk>/history/",
        apis.MatchHistoryApi.as_view(),
        name="match-history",
    ),
]
