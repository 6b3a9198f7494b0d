"""Settings from the environment: production values pass Django's deploy check."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "x7" * 30 + "-not-used-anywhere-but-this-test",
    "DJANGO_ALLOWED_HOSTS": "fiftysix.example.org",
    "DATABASE_URL": "postgres://fiftysix@127.0.0.1:5432/fiftysix",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
    "DJANGO_SETTINGS_MODULE": "tournament.config.settings",
}


def _manage(*args, env):
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE"))
    }
    clean.pop("CELERY_BROKER_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean | env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_deploy_check_is_clean_with_production_values():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = PRODUCTION | {"DJANGO_SECRET_KEY": ""}
    result = _manage("check", env=env)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_embedded_default_is_sqlite_and_eager_celery(tmp_path):
    code = (
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.DEBUG)"
    )
    result = _manage(
        "shell", "-v", "0", "-c", code, env={"FIFTYSIX_VAR_DIR": str(tmp_path)}
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.sqlite3", "True", "True"]
    assert (
        tmp_path / "secret_key"
    ).exists()  # a random key of this checkout, not the repo's
