"""Pages of the tournament app."""

from django.urls import path

from . import views
from .accounts import views as account_views
from .backups import views as backup_views

app_name = "tournament"

urlpatterns = [
    path("", views.home, name="home"),
    path("tournaments/new/", views.tournament_create_page, name="create"),
    path("t/<slug:slug>/", views.tournament_detail, name="detail"),
    path("t/<slug:slug>/settings/", views.tournament_settings_page, name="settings"),
    path("t/<slug:slug>/rated/", views.tournament_rated_page, name="rated"),
    path("t/<slug:slug>/people/", account_views.people_page, name="people"),
    path("invitations/<str:key>/", account_views.invitation_page, name="invitation"),
    path("t/<slug:slug>/teams/", views.teams_by_section_page, name="teams"),
    path("t/<slug:slug>/registration/", views.registration, name="registration"),
    path("t/<slug:slug>/backups/", backup_views.backup_list_page, name="backups"),
    path(
        "t/<slug:slug>/backups/<int:pk>/download/",
        backup_views.backup_download,
        name="backup-download",
    ),
    path(
        "t/<slug:slug>/backups/<int:pk>/restore/",
        backup_views.backup_restore_page,
        name="backup-restore",
    ),
    path("import/", backup_views.tournament_import_page, name="import"),
    path("site/", account_views.site_page, name="site"),
    path(
        "site/invitations/<str:key>/",
        account_views.site_invitation_page,
        name="site-invitation",
    ),
]
