"""tournament/ops/releases.py against the history: each release's commit is in the
repository, and the last migration it names for each app is the last that commit
shipped (docs/releases.md)."""

import subprocess
from pathlib import Path

import pytest

from tournament.ops.releases import APPS, RELEASES, previous_release, release_named
from tournament.ops.version import VERSION

ROOT = Path(__file__).resolve().parents[2]


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args],  # noqa: S607
        capture_output=True,
        text=True,
        check=True,
    ).stdout


@pytest.mark.parametrize("release", RELEASES, ids=lambda r: r.version)
def test_each_release_names_its_commits_last_migrations(release):
    if release.commit is None:
        # The release commit itself, which cannot name its own hash (.ci/release
        # checks its migrations against the disk's).
        assert release.version == VERSION
        return
    assert _git("cat-file", "-t", release.commit).strip() == "commit"
    shipped = _git("show", f"{release.commit}:pyproject.toml")
    assert f'version = "{release.version}"' in shipped
    for app in APPS:
        files = _git("ls-tree", "--name-only", release.commit, f"{app}/migrations/")
        names = sorted(
            Path(f).stem for f in files.split() if Path(f).stem[:4].isdigit()
        )
        assert names[-1] == release.migrations[app], app


def test_the_previous_release_of_a_development_version_and_of_a_release():
    assert previous_release("0.4.0.dev0").version == "0.3.0"
    assert previous_release("0.3.1").version == "0.3.0"
    assert previous_release("0.3.0") is None
    assert release_named("v0.3.0") is release_named("0.3.0") is not None
    assert release_named("0.3.9") is None
