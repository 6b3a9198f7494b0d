"""Pages of score sheets."""

from django.urls import path

from .desk import views as desk_views
from .excel import views as excel_views
from .league import views as league_views
from .links import views as links_views
from .ratings import views as ratings_views
from .sheets import views as sheets_views
from .statistics import views as statistics_views

app_name = "scoring"

urlpatterns = [
    path("people/", ratings_views.people_page, name="people"),
    path("people/<id:pk>/", ratings_views.person_page, name="person"),
    path("t/<slug:slug>/matches/", league_views.matches_page, name="matches"),
    path("t/<slug:slug>/draw/", league_views.draw_page, name="draw"),
    path("t/<slug:slug>/desk/", desk_views.desk_page, name="desk"),
    path("t/<slug:slug>/screen/", desk_views.screen_page, name="screen"),
    path("t/<slug:slug>/where/", desk_views.where_page, name="where"),
    path("t/<slug:slug>/standings/", league_views.standings_page, name="standings"),
    path("t/<slug:slug>/teams/<id:pk>/", league_views.team_page, name="team"),
    path(
        "t/<slug:slug>/statistics/",
        statistics_views.statistics_page,
        name="statistics",
    ),
    path(
        "t/<slug:slug>/teams/<id:pk>/players/<path:name>/",
        statistics_views.player_page,
        name="player",
    ),
    path("matches/<id:pk>/", sheets_views.match_page, name="match"),
    path("matches/<id:pk>/score/", sheets_views.score_page, name="score"),
    path(
        "matches/<id:pk>/score/preview/",
        sheets_views.score_preview,
        name="score-preview",
    ),
    path(
        "matches/<id:pk>/score/manifest.webmanifest",
        links_views.score_manifest,
        name="score-manifest",
    ),
    path("sw.js", links_views.service_worker, name="service-worker"),
    path("t/<slug:slug>/links/", links_views.links_page, name="links"),
    path("t/<slug:slug>/links/cards/", links_views.link_cards_page, name="link-cards"),
    path("l/<str:key>/", links_views.link_page, name="link"),
    path("l/<str:key>/qr.svg", links_views.link_qr, name="link-qr"),
    path(
        "l/<str:key>/manifest.webmanifest",
        links_views.link_manifest,
        name="link-manifest",
    ),
    path(
        "l/<str:key>/sheets/<id:pk>/",
        links_views.link_sheet_page,
        name="link-sheet",
    ),
    path(
        "l/<str:key>/sheets/<id:pk>/preview/",
        links_views.link_preview,
        name="link-preview",
    ),
    path("t/<slug:slug>/excel/", excel_views.excel_page, name="excel"),
    path(
        "t/<slug:slug>/excel/exports/<id:pk>/",
        excel_views.export_job_page,
        name="export-job",
    ),
    path(
        "t/<slug:slug>/excel/exports/<id:pk>/download/",
        excel_views.export_download,
        name="export-download",
    ),
    path("t/<slug:slug>/print/", excel_views.round_print_page, name="round-print"),
    path("matches/<id:pk>/print/", excel_views.match_print_page, name="match-print"),
]
