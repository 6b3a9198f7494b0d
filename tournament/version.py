"""The software's one version: pyproject.toml's (shown in the page footer, the health
answer and `manage.py version`)."""

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def _version() -> str:
    # The checkout's own file first: an editable install's metadata keeps the
    # version it was installed with.
    if PYPROJECT.exists():
        return tomllib.loads(PYPROJECT.read_text())["project"]["version"]
    try:
        return version("fiftysix")
    except PackageNotFoundError:
        return "unknown"


VERSION = _version()
