"""Routes of /api/v1/ that belong to score sheets."""

from django.urls import path

from .excel import apis as excel_apis
from .league import apis as league_apis
from .links import apis as links_apis
from .ratings import apis as ratings_apis
from .sheets import apis as sheets_apis
from .sheets import day_apis, entry_apis
from .statistics import apis as statistics_apis

app_name = "scoring-api"

urlpatterns = [
    path("people/", ratings_apis.PersonListApi.as_view(), name="person-list"),
    path(
        "people/<id:pk>/", ratings_apis.PersonDetailApi.as_view(), name="person-detail"
    ),
    path(
        "people/<id:pk>/merge/",
        ratings_apis.PersonMergeApi.as_view(),
        name="person-merge",
    ),
    path(
        "people/<id:pk>/split/",
        ratings_apis.PersonSplitApi.as_view(),
        name="person-split",
    ),
    path(
        "people/suggestions/",
        ratings_apis.NamesakeSuggestionListApi.as_view(),
        name="namesake-list",
    ),
    path(
        "people/suggestions/<id:pk>/accept/",
        ratings_apis.NamesakeAcceptApi.as_view(),
        name="namesake-accept",
    ),
    path(
        "people/suggestions/<id:pk>/dismiss/",
        ratings_apis.NamesakeDismissApi.as_view(),
        name="namesake-dismiss",
    ),
    path(
        "tournaments/<slug:slug>/links/",
        links_apis.LinkListApi.as_view(),
        name="link-list",
    ),
    path(
        "tournaments/<slug:slug>/links/renew/",
        links_apis.LinkRenewApi.as_view(),
        name="link-renew",
    ),
    path(
        "tournaments/<slug:slug>/matches/",
        sheets_apis.MatchListApi.as_view(),
        name="match-list",
    ),
    path(
        "tournaments/<slug:slug>/draw/",
        league_apis.LeagueDrawApi.as_view(),
        name="draw",
    ),
    path(
        "tournaments/<slug:slug>/rounds/",
        league_apis.RoundListApi.as_view(),
        name="round-list",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<id:number>/release/",
        league_apis.RoundReleaseApi.as_view(),
        name="round-release",
    ),
    path(
        "tournaments/<slug:slug>/standings/",
        league_apis.StandingsApi.as_view(),
        name="standings",
    ),
    path(
        "tournaments/<slug:slug>/statistics/",
        statistics_apis.StatisticsApi.as_view(),
        name="statistics",
    ),
    path(
        "tournaments/<slug:slug>/standings/lots/",
        league_apis.StandingsLotsApi.as_view(),
        name="standings-lots",
    ),
    path(
        "tournaments/<slug:slug>/teams/<id:pk>/withdraw/",
        league_apis.TeamWithdrawApi.as_view(),
        name="team-withdraw",
    ),
    path(
        "tournaments/<slug:slug>/teams/<id:pk>/substitutions/",
        league_apis.TeamSubstitutionListApi.as_view(),
        name="team-substitutions",
    ),
    path("matches/<id:pk>/", sheets_apis.MatchDetailApi.as_view(), name="match-detail"),
    path(
        "matches/<id:pk>/forfeit/",
        day_apis.MatchForfeitApi.as_view(),
        name="match-forfeit",
    ),
    path(
        "matches/<id:pk>/disputes/",
        day_apis.MatchDisputeListApi.as_view(),
        name="match-disputes",
    ),
    path(
        "matches/<id:pk>/disputes/<id:dispute>/rule/",
        day_apis.MatchDisputeRuleApi.as_view(),
        name="match-dispute-rule",
    ),
    path(
        "matches/<id:pk>/deals/", entry_apis.DealListApi.as_view(), name="match-deals"
    ),
    path(
        "matches/<id:pk>/deals/<id:number>/",
        entry_apis.DealDetailApi.as_view(),
        name="match-deal",
    ),
    path(
        "matches/<id:pk>/penalties/",
        entry_apis.PenaltyListApi.as_view(),
        name="match-penalties",
    ),
    path(
        "matches/<id:pk>/penalties/<id:penalty>/",
        entry_apis.PenaltyDetailApi.as_view(),
        name="match-penalty",
    ),
    path(
        "matches/<id:pk>/confirm/",
        sheets_apis.MatchConfirmApi.as_view(),
        name="match-confirm",
    ),
    path(
        "matches/<id:pk>/reopen/",
        sheets_apis.MatchReopenApi.as_view(),
        name="match-reopen",
    ),
    path(
        "matches/<id:pk>/toss/", sheets_apis.MatchTossApi.as_view(), name="match-toss"
    ),
    path(
        "matches/<id:pk>/history/",
        sheets_apis.MatchHistoryApi.as_view(),
        name="match-history",
    ),
    # Excel (docs/exports.md)
    path(
        "tournaments/<slug:slug>/export.xlsx",
        excel_apis.TournamentExportApi.as_view(),
        name="export",
    ),
    path(
        "tournaments/<slug:slug>/exports/",
        excel_apis.ExportListApi.as_view(),
        name="export-list",
    ),
    path(
        "exports/<id:pk>/", excel_apis.ExportDetailApi.as_view(), name="export-detail"
    ),
    path(
        "exports/<id:pk>/export.xlsx",
        excel_apis.ExportFileApi.as_view(),
        name="export-file",
    ),
    path(
        "matches/<id:pk>/sheet.xlsx",
        excel_apis.MatchSheetFileApi.as_view(),
        name="match-sheet-xlsx",
    ),
    path(
        "tournaments/<slug:slug>/score-sheets.xlsx",
        excel_apis.RoundSheetsFileApi.as_view(),
        name="round-sheets-xlsx",
    ),
    path(
        "tournaments/<slug:slug>/score-sheets/import/",
        excel_apis.ScoreSheetImportApi.as_view(),
        name="score-sheets-import",
    ),
]
