"""Every release of the site: its commit and the last migration of each app it
shipped (docs/releases.md). `make release` adds the new one (and refuses a table
that disagrees with the migrations on disk); `manage.py migrate_release <version>`
reads it to take the database back to an earlier release's schema before that
release's code runs again (docs/deploy.md, "Rollback"); the upgrade test of CI starts
from the previous release's commit named here, tag or no tag.

A release before 0.3.0 is not here: 0.3.0 is the first whose image and compose file
the upgrade path starts from.
"""

from __future__ import annotations

from dataclasses import dataclass

APPS = ("tournament", "scoring", "brackets")


@dataclass(frozen=True)
class Release:
    version: str
    # The commit tagged v<version>; None in the release commit itself (a commit
    # cannot name its own hash): the next commit fills it in (docs/releases.md).
    commit: str | None
    # Each app's last migration in that release.
    migrations: dict[str, str]


RELEASES: tuple[Release, ...] = (
    Release(
        version="0.3.0",
        commit="bb974775369f708773fd566368813e8b2090c6f9",
        migrations={
            "tournament": "0007_language_preference",
            "scoring": "0009_deal_auction",
            "brackets": "0001_knockout",
        },
    ),
    Release(
        version="0.4.0",
        commit="c17e6b69da7089d333385c01a93d8ae0bee13687",
        migrations={
            "tournament": "0013_tournament_home_country",
            "scoring": "0016_knockout_table_series",
            "brackets": "0003_seasons",
        },
    ),
)


def release_named(version: str) -> Release | None:
    return next((r for r in RELEASES if r.version == version.removeprefix("v")), None)


def previous_release(version: str) -> Release | None:
    """The last release before `version` (a release's own version, or a
    development one such as 0.4.0.dev0): what an upgrade to it starts from."""
    earlier = [r for r in RELEASES if _key(r.version) < _key(version)]
    return max(earlier, key=lambda r: _key(r.version)) if earlier else None


def _key(version: str) -> tuple[int, int, int, int]:
    """Orders `0.4.0.dev0` before `0.4.0` and after `0.3.0`."""
    main, _, dev = version.removeprefix("v").partition(".dev")
    major, minor, patch = (int(part) for part in main.split("."))
    return (major, minor, patch, int(dev) if dev else 1 << 30)
