"""Routes of /api/v1/ that belong to the knockout."""

from django.urls import path

from . import apis
from .seasons import apis as seasons_apis

app_name = "brackets-api"

urlpatterns = [
    path(
        "tournaments/<slug:slug>/knockout/",
        apis.KnockoutSeedApi.as_view(),
        name="knockout",
    ),
    path("tournaments/<slug:slug>/bracket/", apis.BracketApi.as_view(), name="bracket"),
    path("seasons/", seasons_apis.SeasonListApi.as_view(), name="season-list"),
    path(
        "seasons/<slug:slug>/standings/",
        seasons_apis.SeasonStandingsApi.as_view(),
        name="season-standings",
    ),
    path("seasons/<slug:slug>/", seasons_apis.SeasonDetailApi.as_view(), name="season"),
    path(
        "seasons/<slug:slug>/standings.xlsx",
        seasons_apis.SeasonWorkbookApi.as_view(),
        name="season-workbook",
    ),
    path("ratings/", seasons_apis.RatingListApi.as_view(), name="rating-list"),
]
