"""Pages of score sheets."""

from django.urls import path

from . import views, views_excel

app_name = "scoring"

urlpatterns = [
    path("t/<slug:slug>/matches/", views.matches_page, name="matches"),
    path("t/<slug:slug>/draw/", views.draw_page, name="draw"),
    path("t/<slug:slug>/standings/", views.standings_page, name="standings"),
    path("t/<slug:slug>/teams/<id:pk>/", views.team_page, name="team"),
    path("matches/<id:pk>/", views.match_page, name="match"),
    path("matches/<id:pk>/score/", views.score_page, name="score"),
    path("matches/<id:pk>/score/preview/", views.score_preview, name="score-preview"),
    path("t/<slug:slug>/excel/", views_excel.excel_page, name="excel"),
    path(
        "t/<slug:slug>/excel/exports/<id:pk>/",
        views_excel.export_job_page,
        name="export-job",
    ),
    path(
        "t/<slug:slug>/excel/exports/<id:pk>/download/",
        views_excel.export_download,
        name="export-download",
    ),
    path("t/<slug:slug>/print/", views_excel.round_print_page, name="round-print"),
    path("matches/<id:pk>/print/", views_excel.match_print_page, name="match-print"),
]
