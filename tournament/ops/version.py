"""The software's one version and the commit it was built from (docs/releases.md).

The version is pyproject.toml's, a Semantic Version, tagged `v<version>` by `make
release`; the commit is the image's `FIFTYSIX_COMMIT` (deploy/build passes it, and the
image refuses to build without it), or, in a git checkout (a plain server, `make run`),
the checkout's HEAD read from `.git` itself: no `git` program is needed and nothing is
run. The page footer, `GET /api/v1/health/` and `manage.py release` name both.
"""

import os
import re
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"
UNKNOWN = "unknown"
_SHA = re.compile(r"^[0-9a-f]{40}$")


def _version() -> str:
    # The checkout's own file first: an editable install's metadata keeps the
    # version it was installed with.
    if PYPROJECT.exists():
        return tomllib.loads(PYPROJECT.read_text())["project"]["version"]
    try:
        return version("fiftysix")
    except PackageNotFoundError:
        return UNKNOWN


def git_head(root: Path) -> str | None:
    """The commit a checkout's HEAD names, from its `.git` folder (a worktree's
    `.git` file points at its own): a detached HEAD's hash, or its branch's, loose or
    packed. None when there is no checkout or it cannot be read."""
    git = root / ".git"
    try:
        if git.is_file():
            pointer = git.read_text().strip()
            if not pointer.startswith("gitdir:"):
                return None
            git = (root / pointer.removeprefix("gitdir:").strip()).resolve()
        head = (git / "HEAD").read_text().strip()
        if _SHA.match(head):
            return head
        if not head.startswith("ref:"):
            return None
        ref = head.removeprefix("ref:").strip()
        # A worktree keeps its HEAD but shares the refs of the main checkout.
        common = git
        if (git / "commondir").is_file():
            common = (git / (git / "commondir").read_text().strip()).resolve()
        for folder in (git, common):
            loose = folder / ref
            if loose.is_file():
                sha = loose.read_text().strip()
                return sha if _SHA.match(sha) else None
        packed = common / "packed-refs"
        if packed.is_file():
            for line in packed.read_text().splitlines():
                sha, _, name = line.partition(" ")
                if name == ref and _SHA.match(sha):
                    return sha
    except OSError:
        return None
    return None


def _commit() -> str:
    given = os.environ.get("FIFTYSIX_COMMIT", "").strip().lower()
    if _SHA.match(given):
        return given
    return git_head(ROOT) or UNKNOWN


VERSION = _version()
COMMIT = _commit()


def described() -> str:
    """`0.4.0 (3f2c1ab)`: the version and the commit's first 7 characters."""
    short = COMMIT[:7] if COMMIT != UNKNOWN else UNKNOWN
    return f"{VERSION} ({short})"
