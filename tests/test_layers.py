"""The code depends one way (docs/architecture.md): brackets → scoring → tournament
between the apps, and inside scoring excel → league → sheets between its capability
packages; the pure domain modules import only the standard library and other domain
modules. Read from the source with ast, so a test fails on the import that breaks it,
wherever it is (a function's body included)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = ("tournament", "scoring", "brackets")
# What each part may not import. The project's settings and URL configuration
# (tournament/config) wire every app together, so they are not a part of an app.
FORBIDDEN = {
    "tournament": ("scoring", "brackets"),
    "scoring": ("brackets",),
    "scoring.sheets": ("scoring.league", "scoring.excel", "scoring.ratings"),
    "scoring.league": ("scoring.excel", "scoring.ratings"),
    # The ratings follow the sheets by their signals, and are read by the pages and
    # seasons above them; the workbook may show them.
    "scoring.ratings": ("scoring.excel",),
}


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, relative imports made absolute."""
    package = _module(path).rsplit(".", 1)[0]
    if path.name == "__init__.py":
        package = _module(path).removesuffix(".__init__")
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found |= {f"{base}.{a.name}" for a in node.names}
    return found


SOURCES = sorted(
    p
    for app in APPS
    for p in (ROOT / app).rglob("*.py")
    if "migrations" not in p.parts and "config" not in p.parts
)


def _part(module: str) -> str:
    """The most specific part of FORBIDDEN that `module` belongs to."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in FORBIDDEN:
            return ".".join(parts[:n])
    return parts[0]


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_every_capability_package_is_read():
    modules = {_module(p) for p in SOURCES}
    for name in (
        "scoring.sheets.services",
        "scoring.ratings.services",
        "tournament.persons.services",
        "brackets.seasons.selectors",
        "scoring.league.selectors",
        "scoring.excel.workbook",
        "scoring.excel.paper",
        "brackets.services",
        "tournament.services",
    ):
        assert name in modules


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: _module(p))
def test_the_code_depends_one_way(path):
    module = _module(path)
    # A part's rules are its own and its parents' (scoring.sheets keeps scoring's).
    parts = module.split(".")
    rules = [
        bad
        for n in range(1, len(parts) + 1)
        for bad in FORBIDDEN.get(".".join(parts[:n]), ())
    ]
    wrong = sorted(
        found
        for found in _imports(path)
        for bad in rules
        if _within(found, bad) and not _within(module, bad)
    )
    assert not wrong, f"{module} ({_part(module)}) may not import {wrong}"


# Libraries a rule of the game may wrap: made for the job, pure, imported by one
# domain module each (scoring/domain/ratings.py).
PURE_LIBRARIES = {"openskill"}


@pytest.mark.parametrize(
    "path",
    [p for p in SOURCES if "domain" in p.parts],
    ids=lambda p: _module(p),
)
def test_the_domain_imports_only_the_standard_library_and_the_domain(path):
    """And the one rating library the ratings' rule wraps (issue 44): pure Python,
    no Django, no I/O."""
    allowed = set(sys.stdlib_module_names) | {"__future__"} | PURE_LIBRARIES
    wrong = sorted(
        found
        for found in _imports(path)
        if found.split(".")[0] not in allowed
        and ".domain" not in f".{found}"
        and not found.startswith(tuple(f"{app}.domain" for app in APPS))
    )
    assert not wrong, f"{_module(path)} imports {wrong}"
