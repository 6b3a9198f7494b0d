from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from . import language, receivers  # noqa: F401 - their signal receivers


class SiteAdministrationConfig(admin_apps.AdminConfig):
    """The Django admin, for the site's administrators only: INSTALLED_APPS names
    this instead of django.contrib.admin (tournament/admin_site.py)."""

    default = False  # "tournament" in INSTALLED_APPS is TournamentConfig
    default_site = "tournament.admin_site.SiteAdministration"
