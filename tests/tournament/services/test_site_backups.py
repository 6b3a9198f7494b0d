"""Backups of the whole site by hand: `manage.py backup` and `restore` bring the site
back as it was, without API tokens ever and without password hashes unless asked
for; files are readable by their owner only; a file that is not a whole backup of
this site is refused with nothing changed."""

import gzip
import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token

from scoring.models import Match, SheetChange
from scoring.sheets import services
from tests.brackets.knockout import final_league
from tests.conftest import as_user
from tests.factories import TeamFactory
from tests.tournament.services.test_backups import seen
from tournament.backups import site
from tournament.models import Team

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def backup_dir(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR


def _tables():
    return {
        model._meta.label_lower: list(model._default_manager.order_by("pk").values())
        for model in site.backup_models()
    }


def test_a_restore_brings_the_whole_site_back_without_its_secrets(api, tmp_path):
    tournament, organizer = final_league(2, 3, qualifiers=4, slug="backup-cup")
    organizer.set_password("the-organizer-password-1")
    organizer.save()
    as_user(api, organizer)
    assert api.post("/api/v1/tournaments/backup-cup/knockout/").status_code == 201
    key = Token.objects.create(user=organizer).key
    before, tables = seen(api, "backup-cup"), _tables()
    out = StringIO()
    path = tmp_path / "site.json.gz"
    call_command("backup", output=path, stdout=out)
    assert "Backup written" in out.getvalue()
    assert path.stat().st_mode & 0o777 == 0o600
    document = json.loads(gzip.decompress(path.read_bytes()))
    assert (document["passwords"], document["tokens"]) == (False, False)
    assert key not in json.dumps(document)
    assert organizer.password not in json.dumps(document)

    # The site moves on: a sheet reopened and changed, a team added, a token gone.
    match = Match.objects.filter(tournament=tournament, stage="league").first()
    services.score_sheet_reopen(match_id=match.pk, user=organizer, reason="typo")
    services.score_sheet_deal_delete(
        match_id=match.pk, number=6, user=organizer, version=None
    )
    TeamFactory(section=Team.objects.first().section, name="Late Entry")
    Token.objects.filter(key=key).delete()
    assert seen(api, "backup-cup") != before

    out = StringIO()
    call_command("restore", path, yes=True, stdout=out)
    assert "Restored" in out.getvalue()
    assert _tables() == tables  # password hashes too: the site's own were kept
    assert seen(api, "backup-cup") == before
    assert not Token.objects.filter(key=key).exists()  # a token never comes back
    organizer.refresh_from_db()
    assert organizer.check_password("the-organizer-password-1")
    # Numbering goes on after the restored rows (sequences are reset).
    services.score_sheet_reopen(match_id=match.pk, user=organizer, reason="again")
    assert SheetChange.objects.order_by("pk").last().reason == "again"


def test_password_hashes_only_when_asked_for(tmp_path):
    user = get_user_model().objects.create_user("keeper", password="a-password-77")
    path = tmp_path / "with.json.gz"
    out = StringIO()
    call_command("backup", "--with-passwords", output=path, stdout=out)
    assert "password hashes" in out.getvalue()
    document = json.loads(gzip.decompress(path.read_bytes()))
    assert document["passwords"] is True
    assert document["secrets"].startswith("password hashes")
    assert user.password in json.dumps(document)


def test_the_history_keeps_its_times_through_a_restore(api, tmp_path):
    final_league(2, 3, qualifiers=2, slug="times-cup")
    times = list(SheetChange.objects.order_by("pk").values_list("at", flat=True))
    site.backup_write(reason="test", path=tmp_path / "b.json.gz")
    site.backup_restore(tmp_path / "b.json.gz")
    assert (
        list(SheetChange.objects.order_by("pk").values_list("at", flat=True)) == times
    )


def test_a_damaged_or_foreign_file_is_refused_and_nothing_changes(tmp_path):
    final_league(2, 3, qualifiers=2, slug="safe-cup")
    path = tmp_path / "b.json.gz"
    site.backup_write(reason="test", path=path)
    tables = _tables()
    document = json.loads(gzip.decompress(path.read_bytes()))

    damaged = dict(document, rows=document["rows"][:-1])
    (tmp_path / "damaged.json.gz").write_bytes(
        gzip.compress(json.dumps(damaged).encode())
    )
    other = dict(
        document, migrations={**document["migrations"], "scoring": "0001_sheets"}
    )
    (tmp_path / "old.json.gz").write_bytes(gzip.compress(json.dumps(other).encode()))
    (tmp_path / "plain.json").write_text("{}")
    foreign = {"format": "something-else", "version": 1}
    (tmp_path / "foreign.json.gz").write_bytes(
        gzip.compress(json.dumps(foreign).encode())
    )

    for name, said in [
        ("damaged.json.gz", "damaged"),
        ("old.json.gz", "migrations"),
        ("plain.json", "not gzip-compressed"),
        ("foreign.json.gz", "not a backup of this site"),
    ]:
        with pytest.raises(CommandError, match=said):
            call_command("restore", tmp_path / name, yes=True, stdout=StringIO())
        assert _tables() == tables, name


class Terminal(StringIO):
    """What a person types at a terminal."""

    def isatty(self) -> bool:
        return True


def test_restore_asks_before_replacing_the_site(tmp_path):
    final_league(2, 3, qualifiers=2, slug="ask-cup")
    path = tmp_path / "b.json.gz"
    site.backup_write(reason="test", path=path)
    for typed in ("no\n", ""):  # "" : the terminal closed (Ctrl-D)
        out = StringIO()
        with pytest.raises(CommandError, match="Nothing was restored"):
            call_command("restore", path, stdin=Terminal(typed), stdout=out)
        assert "This replaces everything on this site. Type 'restore': " in (
            out.getvalue()
        )


def test_restore_without_a_terminal_refuses_and_names_yes(backup_dir, tmp_path):
    """Issue 53: `podman exec` without -t, or a cron job, has no terminal to ask on;
    the restore refused with an EOFError traceback. It says what to add, nothing
    changed and no backup taken."""
    final_league(2, 3, qualifiers=2, slug="cron-cup")
    path = tmp_path / "b.json.gz"
    site.backup_write(reason="test", path=path)
    tournament_file = tmp_path / "t.56.gz"
    call_command(
        "backup", "--tournament", "cron-cup", output=tournament_file, stdout=StringIO()
    )
    tables = _tables()
    said = (
        "restore asks before it replaces data; there is no terminal to ask on: "
        "add --yes"
    )
    for args in ([path], ["--tournament", "cron-cup", tournament_file]):
        with pytest.raises(CommandError) as refused:
            call_command("restore", *args, stdin=StringIO(""), stdout=StringIO())
        assert str(refused.value) == said
        assert refused.value.returncode != 0
        assert _tables() == tables, args
    assert not backup_dir.exists() or not list(backup_dir.iterdir())


def test_restore_without_a_terminal_ends_in_one_line(tmp_path):
    """The same from the shell, its standard input /dev/null: exit code 1 and one line,
    no traceback (the file is read before the question; the database is not)."""
    final_league(2, 3, qualifiers=2, slug="devnull-cup")
    path = tmp_path / "b.json.gz"
    site.backup_write(reason="test", path=path)
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE"))
    }
    env.pop("CELERY_BROKER_URL", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "restore", str(path)],
        cwd=ROOT,
        env=env | {"FIFTYSIX_VAR_DIR": str(tmp_path / "var")},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr.strip().splitlines() == [
        "CommandError: restore asks before it replaces data; there is no terminal to "
        "ask on: add --yes"
    ]


def test_backup_lists_its_files(tmp_path):
    site.backup_write(reason="end of day 1")
    out = StringIO()
    call_command("backup", listing=True, stdout=out)
    assert "end of day 1" in out.getvalue()
