import re

from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from tournament import receivers  # noqa: F401 - their signal receivers
        from tournament.web import language  # noqa: F401

        usernames_of_every_script()


def usernames_of_every_script() -> None:
    """Django's username validator (`^[\\w.@+-]+\\Z`) refuses every mark, since
    Python's \\w takes none: "അനില", whose Malayalam vowel sign is one, could not
    be a username. Its pattern is widened to the marks of every script, so that
    Django's own checks (a user's full_clean, the admin's forms, createsuperuser,
    a backup's people) let through what the site's rules accept; those rules
    (tournament/domain/usernames.py) say which names are made. The validator is the
    user model's own instance: its deconstruction, and so the migrations, do not
    change (a user model of our own would take a migration of every user)."""
    from django.contrib.auth import get_user_model

    from .domain.usernames import django_pattern

    validator = get_user_model().username_validator
    validator.regex = re.compile(django_pattern())


class SiteAdministrationConfig(admin_apps.AdminConfig):
    """The Django admin, for the site's administrators only: INSTALLED_APPS names
    this instead of django.contrib.admin (tournament/admin_site.py)."""

    default = False  # "tournament" in INSTALLED_APPS is TournamentConfig
    default_site = "tournament.admin_site.SiteAdministration"
