"""Routes of /api/v1/ that belong to score sheets."""

from django.urls import path

from . import apis, apis_excel

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
        "tournaments/<slug:slug>/rounds/<id:number>/release/",
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
    path("matches/<id:pk>/", apis.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<id:pk>/deals/", apis.DealListApi.as_view(), name="match-deals"),
    path(
        "matches/<id:pk>/deals/<id:number>/",
        apis.DealDetailApi.as_view(),
        name="match-deal",
    ),
    path(
        "matches/<id:pk>/penalties/",
        apis.PenaltyListApi.as_view(),
        name="match-penalties",
    ),
    path(
        "matches/<id:pk>/penalties/<id:penalty>/",
        apis.PenaltyDetailApi.as_view(),
        name="match-penalty",
    ),
    path(
        "matches/<id:pk>/confirm/",
        apis.MatchConfirmApi.as_view(),
        name="match-confirm",
    ),
    path("matches/<id:pk>/reopen/", apis.MatchReopenApi.as_view(), name="match-reopen"),
    path("matches/<id:pk>/toss/", apis.MatchTossApi.as_view(), name="match-toss"),
    path(
        "matches/<id:pk>/history/",
        apis.MatchHistoryApi.as_view(),
        name="match-history",
    ),
    # Excel (docs/exports.md)
    path(
        "tournaments/<slug:slug>/export.xlsx",
        apis_excel.TournamentExportApi.as_view(),
        name="export",
    ),
    path(
        "tournaments/<slug:slug>/exports/",
        apis_excel.ExportListApi.as_view(),
        name="export-list",
    ),
    path(
        "exports/<id:pk>/", apis_excel.ExportDetailApi.as_view(), name="export-detail"
    ),
    path(
        "exports/<id:pk>/export.xlsx",
        apis_excel.ExportFileApi.as_view(),
        name="export-file",
    ),
    path(
        "matches/<id:pk>/sheet.xlsx",
        apis_excel.MatchSheetFileApi.as_view(),
        name="match-sheet-xlsx",
    ),
    path(
        "tournaments/<slug:slug>/score-sheets.xlsx",
        apis_excel.RoundSheetsFileApi.as_view(),
        name="round-sheets-xlsx",
    ),
    path(
        "tournaments/<slug:slug>/score-sheets/import/",
        apis_excel.ScoreSheetImportApi.as_view(),
        name="score-sheets-import",
    ),
]
