"""What every page's template may name: the software's version (the footer), and
whether the visitor administers the site (the header's link to the site's page)."""

from functools import partial

from .site.selectors import is_site_administrator
from .version import VERSION


def site(request) -> dict[str, object]:
    return {
        "software_version": VERSION,
        # Called only where a template names it: a page without it reads nothing.
        "site_administrator": partial(
            is_site_administrator, getattr(request, "user", None)
        ),
    }
