"""Pages of the tournament app."""

from django.urls import path

from . import views

app_name = "tournament"

urlpatterns = [
    path("", views.home, name="home"),
    path("t/<slug:slug>/", views.tournament_detail, name="detail"),
    path("t/<slug:slug>/teams/", views.teams_by_section_page, name="teams"),
    path("t/<slug:slug>/registration/", views.registration, name="registration"),
]
