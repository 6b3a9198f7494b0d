"""The rules of the game import nothing from Django (STYLE.md: domain/ is pure)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOMAIN_MODULES = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts)
    for app in ("tournament", "scoring", "brackets")
    for p in (ROOT / app / "domain").glob("*.py")
)


def test_domain_modules_exist():
    assert "tournament.domain.sections" in DOMAIN_MODULES


def test_domain_modules_load_without_django_or_celery():
    code = (
        "import importlib, sys\n"
        f"for name in {DOMAIN_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'rest_framework', 'celery', 'openpyxl'})\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
