"""Backups: `manage.py backup` and `restore` bring the whole site back as it was, the
automatic ones are taken before the draw, the knockout seeding and every reopening,
and a file that is not a whole backup of this site is refused with nothing changed."""

import gzip
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token

from scoring.models import Deal, Match, SheetChange
from scoring.sheets import services
from tests.brackets.knockout import final_league
from tests.conftest import as_user
from tests.factories import TeamFactory
from tournament import backups
from tournament.models import Team

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def backup_dir(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR


def _site(api, slug):
    """What users see of a tournament: standings, the sheets with their history,
    the bracket, the members."""
    seen = {
        "standings": api.get(f"/api/v1/tournaments/{slug}/standings/").json(),
        "bracket": api.get(f"/api/v1/tournaments/{slug}/bracket/").json(),
        "teams": api.get(f"/api/v1/tournaments/{slug}/teams/").json(),
        "members": api.get(f"/api/v1/tournaments/{slug}/members/").json(),
    }
    for match in Match.objects.filter(tournament__slug=slug).order_by("pk"):
        seen[f"sheet {match.pk}"] = api.get(f"/api/v1/matches/{match.pk}/").json()
        seen[f"history {match.pk}"] = api.get(
            f"/api/v1/matches/{match.pk}/history/"
        ).json()
    return seen


def _tables():
    return {
        model._meta.label_lower: list(model._default_manager.order_by("pk").values())
        for model in backups.backup_models()
    }


def test_a_restore_brings_the_whole_site_back(api, tmp_path):
    tournament, organizer = final_league(2, 3, qualifiers=4, slug="backup-cup")
    as_user(api, organizer)
    assert api.post("/api/v1/tournaments/backup-cup/knockout/").status_code == 201
    key = Token.objects.create(user=organizer).key
    before, tables = _site(api, "backup-cup"), _tables()
    out = StringIO()
    call_command("backup", output=tmp_path / "site.json.gz", stdout=out)
    assert "Backup written" in out.getvalue()

    # The site moves on: a sheet reopened and changed, a team added, a token gone.
    match = Match.objects.filter(tournament=tournament, stage="league").first()
    services.score_sheet_reopen(match_id=match.pk, user=organizer, reason="typo")
    services.score_sheet_deal_delete(
        match_id=match.pk, number=6, user=organizer, version=None
    )
    TeamFactory(section=Team.objects.first().section, name="Late Entry")
    Token.objects.filter(key=key).delete()
    assert _site(api, "backup-cup") != before

    out = StringIO()
    call_command("restore", tmp_path / "site.json.gz", yes=True, stdout=out)
    assert "Restored" in out.getvalue()
    assert _tables() == tables
    assert _site(api, "backup-cup") == before
    assert Token.objects.filter(key=key, user=organizer).exists()
    # Numbering goes on after the restored rows (sequences are reset).
    services.score_sheet_reopen(match_id=match.pk, user=organizer, reason="again")
    assert SheetChange.objects.order_by("pk").last().reason == "again"


def test_the_history_keeps_its_times_through_a_restore(api, tmp_path):
    final_league(2, 3, qualifiers=2, slug="times-cup")
    times = list(SheetChange.objects.order_by("pk").values_list("at", flat=True))
    backups.backup_write(reason="test", path=tmp_path / "b.json.gz")
    backups.backup_restore(tmp_path / "b.json.gz")
    assert (
        list(SheetChange.objects.order_by("pk").values_list("at", flat=True)) == times
    )


def test_automatic_backups_before_the_draw_the_seeding_and_a_reopening(api):
    tournament, organizer = final_league(2, 3, qualifiers=4, slug="auto-cup")
    made = backups.backup_list()
    assert [b.reason for b in made] == ["before the draw of auto-cup"]
    assert made[0].counts["scoring.deal"] == 0  # taken before the draw's matches

    as_user(api, organizer)
    api.post("/api/v1/tournaments/auto-cup/knockout/")
    match = Match.objects.filter(tournament=tournament, stage="league").first()
    deals = Deal.objects.count()
    answer = api.post(
        f"/api/v1/matches/{match.pk}/reopen/", {"reason": "wrong trump"}, "json"
    )
    assert answer.status_code == 200
    reasons = [b.reason for b in backups.backup_list()]
    assert reasons == [
        f"before reopening match {match.pk} of auto-cup",
        "before the knockout seeding of auto-cup",
        "before the draw of auto-cup",
    ]
    # The backup before the reopening holds the sheet confirmed, as it was.
    document = backups.backup_read(backups.backup_list()[0].path)
    rows = [r for r in document["rows"] if r["model"] == "scoring.match"]
    assert {r["fields"]["status"] for r in rows if r["pk"] == match.pk} == {"confirmed"}
    assert document["counts"]["scoring.deal"] == deals


def test_only_the_newest_automatic_backups_are_kept(settings):
    settings.BACKUPS_KEPT = 2
    for n in range(4):
        backups.backup_before(f"step {n}")
    assert [b.reason for b in backups.backup_list()] == [
        "before step 3",
        "before step 2",
    ]


def test_a_damaged_or_foreign_file_is_refused_and_nothing_changes(tmp_path):
    final_league(2, 3, qualifiers=2, slug="safe-cup")
    path = tmp_path / "b.json.gz"
    backups.backup_write(reason="test", path=path)
    tables = _tables()
    document = json.loads(gzip.decompress(path.read_bytes()))

    damaged = dict(document, rows=document["rows"][:-1])
    (tmp_path / "damaged.json.gz").write_bytes(
        gzip.compress(json.dumps(damaged).encode())
    )
    other = dict(
        document, migrations={**document["migrations"], "scoring": "0001_sheets"}
    )
    other["sha256"] = document["sha256"]
    (tmp_path / "old.json.gz").write_bytes(gzip.compress(json.dumps(other).encode()))
    (tmp_path / "plain.json").write_text("{}")
    foreign = {"format": "something-else", "version": 1}
    (tmp_path / "foreign.json.gz").write_bytes(
        gzip.compress(json.dumps(foreign).encode())
    )

    for name, said in [
        ("damaged.json.gz", "damaged"),
        ("old.json.gz", "migrations"),
        ("plain.json", "not gzip-compressed JSON"),
        ("foreign.json.gz", "not a backup of this site"),
    ]:
        with pytest.raises(CommandError, match=said):
            call_command("restore", tmp_path / name, yes=True, stdout=StringIO())
        assert _tables() == tables, name


def test_restore_asks_before_replacing_the_site(tmp_path, monkeypatch):
    final_league(2, 3, qualifiers=2, slug="ask-cup")
    path = tmp_path / "b.json.gz"
    backups.backup_write(reason="test", path=path)
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    with pytest.raises(CommandError, match="Nothing was restored"):
        call_command("restore", path, stdout=StringIO())


def test_backup_lists_its_files(tmp_path):
    backups.backup_before("the draw of list-cup")
    out = StringIO()
    call_command("backup", listing=True, stdout=out)
    assert "before the draw of list-cup" in out.getvalue()
