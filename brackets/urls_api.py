"""Routes of /api/v1/ that belong to the knockout."""

from django.urls import path

from . import apis

app_name = "brackets-api"

urlpatterns = [
    path(
        "tournaments/<slug:slug>/knockout/",
        apis.KnockoutSeedApi.as_view(),
        name="knockout",
    ),
    path("tournaments/<slug:slug>/bracket/", apis.BracketApi.as_view(), name="bracket"),
]
