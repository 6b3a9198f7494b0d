"""What every page's template may name: the software's version (the footer), and
whether the visitor administers the site (the header's link to the site's page)."""

from functools import partial

from tournament.ops.version import COMMIT, VERSION

from .selectors import is_site_administrator


def _administers(user) -> bool:
    """For the header of every page, with no query for nearly everyone: an
    administrator is a superuser, or staff (the standing sets the flag) holding the
    permission."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_superuser or (user.is_staff and is_site_administrator(user))


def site(request) -> dict[str, object]:
    return {
        "software_version": VERSION,
        "software_commit": COMMIT,
        # Called only where a template names it.
        "site_administrator": partial(_administers, getattr(request, "user", None)),
    }
