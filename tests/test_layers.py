"""The code depends one way (docs/architecture.md, "Who depends on whom"): brackets →
scoring → tournament between the apps; inside each app, its packages and the modules
at its root in layers, each importing only lower layers; no two files import each
other, directly or round a circle; and the pure domain modules import only the
standard library and other domain modules. Read from the source with ast, so a test
fails on the import that breaks it, wherever it is (a function's body included)."""

from __future__ import annotations

import ast
import re
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = ("tournament", "scoring", "brackets")
# What each part may not import. The project's settings and URL configuration
# (tournament/config) wire every app together, so they are not a part of an app.
FORBIDDEN = {
    "tournament": ("scoring", "brackets"),
    "scoring": ("brackets",),
    # Inside an app, LAYERS below.
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


# Inside each app: its packages, and the modules at its root, in layers from the
# lowest. A part imports its own modules and parts of lower layers, never a part of
# its own layer or a higher one. The map (docs/architecture.md) draws the same.
LAYERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "tournament": (
        ("domain",),  # the rules: plain Python
        ("db", "ops", "xlsx", "signals", "words"),  # the platform's plain parts
        ("models",),
        ("selectors", "forms", "persons"),  # reads; people across tournaments
        ("web",),  # what every page and API shares
        ("accounts", "templatetags"),  # roles, invitations, the site's people
        ("services", "admin", "admin_site"),  # the tournament's writes
        ("spreadsheets", "demo"),
        ("apis", "views"),
        ("backups",),
        ("urls", "urls_api", "receivers", "tasks", "backup_upgrades", "management"),
        ("apps", "config"),  # the wiring: the app, the project's settings and URLs
    ),
    "scoring": (
        ("domain", "signals"),
        ("words",),
        ("models", "templatetags"),
        ("sheets", "admin"),  # a match's score sheet; what a link reaches
        ("links", "statistics", "backup_upgrades"),
        ("league", "ratings"),
        ("desk", "excel"),  # the day at a glance; the workbook, which shows it all
        ("demo", "urls", "urls_api", "apps"),
        ("management",),
    ),
    "brackets": (
        ("domain",),
        ("models", "forms"),
        ("selectors", "services", "admin"),
        ("apis", "views", "receivers", "demo", "seasons"),
        ("urls", "urls_api", "apps", "management", "backup_upgrades"),
    ),
}
EVERY_SOURCE = sorted(
    p for app in APPS for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts
)


def _unit(module: str) -> str:
    """The part of its app a module is: its package, or itself at the app's root."""
    parts = module.removesuffix(".__init__").split(".")
    return parts[1] if len(parts) > 1 else ""


def _layer_of(app: str) -> dict[str, int]:
    return {unit: n for n, layer in enumerate(LAYERS[app]) for unit in layer}


def test_every_part_of_an_app_has_its_layer():
    """A new package or root module is placed in the map's order, not left out."""
    unplaced = sorted(
        f"{app}.{_unit(_module(p))}"
        for p in EVERY_SOURCE
        if (app := _module(p).split(".")[0])
        and _unit(_module(p))
        and _unit(_module(p)) not in _layer_of(app)
    )
    assert not unplaced, f"parts without a layer in LAYERS: {sorted(set(unplaced))}"


@pytest.mark.parametrize("path", EVERY_SOURCE, ids=lambda p: _module(p))
def test_each_part_imports_only_lower_layers_of_its_app(path):
    module = _module(path)
    app, unit = module.split(".")[0], _unit(module)
    if not unit:
        return  # the app's __init__
    layers = _layer_of(app)
    wrong = sorted(
        found
        for found in _imports(path)
        if found.split(".")[0] == app
        and (other := _unit(found))
        and other != unit
        and other in layers
        and layers[other] >= layers[unit]
    )
    assert not wrong, (
        f"{module} ({app}.{unit}, layer {layers[unit]}) may not import {wrong}: "
        "a part imports only lower layers (LAYERS, docs/architecture.md)"
    )


def _files_graph() -> dict[str, set[str]]:
    """Each module of the apps and the modules of the apps it imports (a name taken
    from a module counts as that module)."""
    modules = {_module(p).removesuffix(".__init__"): p for p in EVERY_SOURCE}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found = set()
        for imported in _imports(path):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                found.add(imported)
        graph[name] = found
    return graph


def test_no_two_files_import_each_other_even_round_a_circle():
    graph = _files_graph()
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as error:
        circle = " → ".join(error.args[1])
        pytest.fail(f"these files import each other round a circle: {circle}")


def test_the_circle_check_finds_a_circle():
    """The check above fails on a circle (its negative control)."""
    graph = _files_graph()
    graph["tournament.ops.health"] = {
        *graph["tournament.ops.health"],
        "tournament.web.api",
    }
    graph["tournament.web.api"] = {
        *graph["tournament.web.api"],
        "tournament.ops.health",
    }
    with pytest.raises(CycleError):
        tuple(TopologicalSorter(graph).static_order())


@pytest.mark.parametrize("app", APPS)
def test_the_map_names_every_part_of_each_app(app):
    """docs/architecture.md's table of the app names each part LAYERS places, and
    every path the map names exists: the map stays true as parts come and go."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split(f"## {app}/", 1)[1].split("\n## ", 1)[0]
    unnamed = [
        unit
        for layer in LAYERS[app]
        for unit in layer
        if f"`{unit}/`" not in section and f"`{unit}.py`" not in section
    ]
    assert not unnamed, f"docs/architecture.md's {app}/ table does not name {unnamed}"
    # Its rows run from the top layer down, as LAYERS (lowest first) reversed: each
    # part at the row whose "where" cell names it.
    rows = [line.split("|") for line in section.splitlines() if line.startswith("| ")]
    row_of = {
        unit: n
        for n, cells in reversed(list(enumerate(rows)))
        for layer in LAYERS[app]
        for unit in layer
        if len(cells) > 2 and (f"`{unit}/`" in cells[2] or f"`{unit}.py`" in cells[2])
    }
    layer_of = _layer_of(app)
    rowless = sorted(set(layer_of) - set(row_of))
    assert not rowless, f"the map's {app}/ table gives {rowless} no row of its own"
    late = sorted(
        (higher, lower)
        for higher in row_of
        for lower in row_of
        if layer_of[higher] > layer_of[lower] and row_of[higher] > row_of[lower]
    )
    assert not late, f"the map's {app}/ table names a lower part first: {late}"
    named = re.findall(r"`((?:tournament|scoring|brackets)/[\w./]*)", text)
    gone = sorted({p for p in named if not (ROOT / p).exists()})
    assert not gone, f"docs/architecture.md names what does not exist: {gone}"
