"""Pages of the knockout."""

from django.urls import path

from . import views

app_name = "brackets"

urlpatterns = [
    path("t/<slug:slug>/bracket/", views.bracket_page, name="bracket"),
]
