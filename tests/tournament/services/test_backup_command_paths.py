"""Where `manage.py backup` writes (issue 53): in the site's image the current folder is
the code's, read-only to the site's user, so both kinds of backup go to BACKUP_DIR
unless `--output` names a file, and a place that cannot be written is said in one
line naming it and `--output`, with nothing kept."""

import os
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.brackets.knockout import final_league
from tournament.backups import archive
from tournament.models import Backup

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(settings, tmp_path, monkeypatch):
    """A tournament, BACKUP_DIR in tmp_path, and the current folder another one, as
    /app is in the image."""
    final_league(2, 3, qualifiers=2, slug="path-cup")
    settings.BACKUP_DIR = tmp_path / "var" / "backups"
    here = tmp_path / "app"
    here.mkdir()
    monkeypatch.chdir(here)
    return here


def unwritable(tmp_path: Path) -> Path:
    """A folder the test's user cannot write in. Root writes through any mode bits,
    so as root it is a folder under a regular file, which nobody can create."""
    if os.geteuid() == 0:
        plain = tmp_path / "a-file"
        plain.write_text("not a folder")
        return plain / "backups"
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    return folder


def test_a_tournament_backup_goes_to_backup_dir_and_says_where(cup, settings):
    out = StringIO()
    call_command("backup", "--tournament", "path-cup", stdout=out)
    (written,) = Path(settings.BACKUP_DIR).glob("path-cup-*.56.gz")
    assert list(cup.iterdir()) == []  # nothing in the current folder
    assert f"Backup of path-cup written: {written}" in out.getvalue()
    assert written.stat().st_mode & 0o777 == 0o600
    assert archive.file_read(written.read_bytes()).header["scope"] == "tournament"


@pytest.mark.parametrize("where", ["BACKUP_DIR", "--output"])
@pytest.mark.parametrize("scope", ["tournament", "site"])
def test_a_place_that_cannot_be_written_is_said_in_one_line(
    cup, settings, tmp_path, where, scope
):
    folder = unwritable(tmp_path)
    wanted = folder / "b.gz"
    options = {"stdout": StringIO()}
    if where == "BACKUP_DIR":
        settings.BACKUP_DIR = folder
    else:
        options["output"] = wanted
    if scope == "tournament":
        options["tournament"] = "path-cup"
    kept = Backup.objects.count()  # the automatic ones before its draw and seeding
    with pytest.raises(CommandError) as refused:
        call_command("backup", **options)
    said = str(refused.value)
    assert "\n" not in said
    assert str(wanted if where == "--output" else folder) in said
    assert "--output FILE" in said
    assert refused.value.returncode != 0
    assert Backup.objects.count() == kept  # nothing kept on the site either
    assert list(cup.iterdir()) == []
