"""The release a site runs (docs/releases.md): its version and commit as the footer,
the health answer and `manage.py release` name them, read from a checkout's `.git`
without running git, or from the image's FIFTYSIX_COMMIT; and whether the database's
migrations are this code's."""

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from django.core.management import execute_from_command_line
from django.db.migrations.recorder import MigrationRecorder

from tournament.ops.version import COMMIT, VERSION, git_head

ROOT = Path(__file__).resolve().parents[2]
A = "a" * 40
B = "b" * 40


def test_the_version_is_pyprojects_and_semantic():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert declared["version"] == VERSION
    # A release is MAJOR.MINOR.PATCH; between releases the next one with `.dev0`
    # (docs/releases.md), never the last release's own number.
    release, _, dev = VERSION.partition(".dev")
    assert [part.isdigit() for part in release.split(".")] == [True] * 3
    assert dev in ("", "0")


def test_the_commit_is_the_checkouts_head():
    if not (ROOT / ".git").exists():
        pytest.fail("the suite runs in a git checkout (make test clones one)")
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"],  # noqa: S607
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert head == COMMIT or os.environ.get("FIFTYSIX_COMMIT")


def _git(tmp_path: Path, head: str, **files: str) -> Path:
    git = tmp_path / ".git"
    git.mkdir(parents=True)
    (git / "HEAD").write_text(head + "\n")
    for name, text in files.items():
        path = git / name.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_head_on_a_branch_a_packed_branch_or_detached(tmp_path):
    loose = _git(tmp_path / "loose", "ref: refs/heads/main", refs__heads__main=A + "\n")
    assert git_head(loose) == A
    packed = _git(
        tmp_path / "packed",
        "ref: refs/heads/main",
        **{"packed-refs": f"# pack-refs\n{B} refs/heads/other\n{A} refs/heads/main\n"},
    )
    assert git_head(packed) == A
    assert git_head(_git(tmp_path / "detached", B)) == B


def test_head_of_a_worktree_reads_the_main_checkouts_refs(tmp_path):
    main = _git(tmp_path / "main", "ref: refs/heads/main", refs__heads__topic=B + "\n")
    worktree_git = main / ".git" / "worktrees" / "w"
    worktree_git.mkdir(parents=True)
    (worktree_git / "HEAD").write_text("ref: refs/heads/topic\n")
    (worktree_git / "commondir").write_text("../..\n")
    checkout = tmp_path / "w"
    checkout.mkdir()
    (checkout / ".git").write_text(f"gitdir: {worktree_git}\n")
    assert git_head(checkout) == B


def test_no_checkout_or_a_broken_one_is_none(tmp_path):
    assert git_head(tmp_path) is None
    assert git_head(_git(tmp_path / "r", "ref: refs/heads/gone")) is None
    assert (
        git_head(_git(tmp_path / "s", "ref: refs/heads/main", refs__heads__main="zz"))
        is None
    )


def _python(code: str, **env: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_the_images_commit_wins_and_nonsense_is_ignored():
    read = "from tournament.ops.version import COMMIT; print(COMMIT)"
    assert _python(read, FIFTYSIX_COMMIT=A.upper()) == A
    assert _python(read, FIFTYSIX_COMMIT="unknown") == COMMIT


def test_manage_py_release_through_the_command_line_on_an_empty_database(tmp_path):
    """`manage.py release` as a volunteer types it (Django answers `manage.py version`
    itself, so the command has its own name): on a database with no migrations it
    names them missing and exits 3."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}",
        "FIFTYSIX_COMMIT": A,
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    said = subprocess.run(
        [sys.executable, "manage.py", "release", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert said.returncode == 3, said.stderr
    body = json.loads(said.stdout)
    assert body["name"] == "fiftysix" and body["version"] == VERSION
    assert body["commit"] == A and body["database"] == "behind"
    assert "tournament.0001_initial" in body["missing"] and body["ahead"] == []


@pytest.mark.django_db
def test_manage_py_release_on_a_migrated_database_exits_0(capsys):
    execute_from_command_line(["manage.py", "release"])
    said = capsys.readouterr().out.splitlines()
    assert said == [f"fiftysix {VERSION} (commit {COMMIT})", "the database: matches"]


@pytest.mark.django_db
def test_manage_py_release_on_a_database_a_newer_release_migrated_exits_4(capsys):
    MigrationRecorder.Migration.objects.create(app="tournament", name="9999_later")
    with pytest.raises(SystemExit) as exited:
        execute_from_command_line(["manage.py", "release"])
    assert exited.value.code == 4
    said = capsys.readouterr().out
    assert "the database: ahead" in said and "tournament.9999_later" in said
