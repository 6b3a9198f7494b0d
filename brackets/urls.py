"""Pages of the knockout."""

from django.urls import path

from . import views
from .seasons import views as seasons_views

app_name = "brackets"

urlpatterns = [
    path("t/<slug:slug>/bracket/", views.bracket_page, name="bracket"),
    path("ratings/", seasons_views.ratings_page, name="ratings"),
    path("seasons/", seasons_views.seasons_page, name="seasons"),
    path("seasons/<slug:slug>/", seasons_views.season_page, name="season"),
]
