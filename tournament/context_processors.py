"""What every page's template may name: the software's version (the footer)."""

from .version import VERSION


def site(request) -> dict[str, str]:
    return {"software_version": VERSION}
