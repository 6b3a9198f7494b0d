"""Backups of one tournament: taken by themselves before the draw, the seeding and a
reopening, holding what the step can change and no secret; restored in place (the
tournament, or some sheets) with the rest of the site untouched; and imported into
another site as a tournament of its own."""

from __future__ import annotations

import gzip
import json
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token

from scoring.models import Match, SheetChange
from scoring.sheets import services as sheets
from tests.brackets.knockout import bracket, final_league, play_sheet
from tests.conftest import as_user
from tests.factories import TeamFactory, UserFactory
from tests.scoring.league import confirm
from tournament.backups import archive, services
from tournament.backups.archive import BackupRefused
from tournament.models import Backup, SheetCopy, Team, Tournament

pytestmark = pytest.mark.django_db


def seen(api, slug: str) -> dict:
    """What people see of a tournament through the API: standings, bracket, teams,
    members, every sheet with its history."""
    shown = {
        name: api.get(f"/api/v1/tournaments/{slug}/{name}/").json()
        for name in ("standings", "bracket", "teams", "members")
    }
    for pk in (
        Match.objects.filter(tournament__slug=slug)
        .order_by("pk")
        .values_list("pk", flat=True)
    ):
        shown[f"sheet {pk}"] = api.get(f"/api/v1/matches/{pk}/").json()
        shown[f"history {pk}"] = api.get(f"/api/v1/matches/{pk}/history/").json()
    return shown


def rows_of(tournament: Tournament) -> dict[str, list]:
    """Every row the tournament's backup carries, as stored."""
    found = {}
    for label, path in {
        **archive.TOURNAMENT_PARTS,
        **archive.BRACKET_PARTS,
        **{
            k: "tournament" if v == "pk" else f"{v}__tournament"
            for k, v in archive.SHEET_PARTS.items()
        },
    }.items():
        model = apps.get_model(label)
        found[label] = list(
            model._base_manager.filter(**{path: tournament.pk}).order_by("pk").values()
        )
    return found


def text_of(backup: Backup) -> str:
    return gzip.decompress(services.backup_content(backup)).decode()


@pytest.fixture
def league(api):
    tournament, organizer = final_league(2, 3, qualifiers=4, slug="backup-cup")
    as_user(api, organizer)
    return tournament, organizer


def test_every_model_travels_with_its_tournament_or_is_left_out_with_a_reason():
    """STYLE.md: whatever belongs to a tournament is carried by its backup; a model
    added without a decision fails here."""
    carried = set(archive.LOAD_ORDER)
    for model in apps.get_models():
        label = model._meta.label_lower
        if model._meta.app_label not in archive.APPS:
            continue
        assert label in carried or label in archive.LEFT_OUT, label
    assert not carried & set(archive.LEFT_OUT)


def test_automatic_backups_before_the_draw_the_seeding_and_a_reopening(api, league):
    tournament, organizer = league
    (draw,) = Backup.objects.filter(tournament=tournament)
    assert (draw.reason, draw.scope, draw.automatic) == (
        "before the draw",
        "tournament",
        True,
    )
    assert draw.counts["tournament.team"] == 6
    assert draw.counts.get("scoring.match", 0) == 0  # taken before the draw's matches

    assert api.post("/api/v1/tournaments/backup-cup/knockout/").status_code == 201
    seeding = Backup.objects.filter(tournament=tournament).first()
    assert seeding.reason == "before the knockout seeding"
    league_matches = Match.objects.filter(tournament=tournament, stage="league")
    assert seeding.counts["scoring.match"] == league_matches.count()
    assert seeding.counts.get("brackets.bracket") == 0

    match = league_matches.first()
    answer = api.post(f"/api/v1/matches/{match.pk}/reopen/", {"reason": "typo"}, "json")
    assert answer.status_code == 200
    reopening = Backup.objects.filter(tournament=tournament).first()
    assert (reopening.scope, reopening.sheets) == ("sheets", [match.pk])
    assert reopening.reason == f"before reopening match {match.pk}"
    # It holds that sheet, confirmed, with its deals and history: nothing else.
    held = archive.file_read(services.backup_content(reopening))
    assert [r["status"] for r in held.rows("scoring.match")] == ["confirmed"]
    assert len(held.rows("scoring.deal")) == 6
    assert set(held.tables) <= {"auth.user", *archive.SHEET_PARTS}
    assert held.rows("auth.user") == [
        {"id": organizer.pk, "username": organizer.username}
    ]


def test_no_backup_holds_a_secret(api, league):
    tournament, organizer = league
    organizer.set_password("a-long-password-for-the-test")
    organizer.save()
    key = Token.objects.create(user=organizer).key
    backup = services.backup_take(tournament=tournament, reason="test")
    text = text_of(backup)
    assert key not in text
    assert organizer.password.split("$")[-1] not in text
    assert "pbkdf2" not in text and "argon2" not in text
    header = json.loads(text.partition("\n")[0])
    assert header["secrets"].startswith("none")
    assert header["tournament"]["slug"] == "backup-cup"


def test_a_backup_reuses_the_copies_of_sheets_that_did_not_change(league):
    tournament, organizer = league
    first = services.backup_take(tournament=tournament, reason="one")
    copies = dict(SheetCopy.objects.values_list("sheet", "version"))
    assert copies == dict(
        Match.objects.filter(tournament=tournament).values_list("pk", "version")
    )
    match = Match.objects.filter(tournament=tournament).first()
    sheets.score_sheet_reopen(match_id=match.pk, user=organizer, reason="typo")
    second = services.backup_take(tournament=tournament, reason="two")
    # The reopened sheet was read again; the others were taken as they were kept.
    assert SheetCopy.objects.get(sheet=match.pk).version == match.version + 1
    one = archive.file_read(services.backup_content(first))
    two = archive.file_read(services.backup_content(second))
    assert len(one.rows("scoring.deal")) == len(two.rows("scoring.deal"))
    assert (
        len(two.rows("scoring.sheetchange")) == len(one.rows("scoring.sheetchange")) + 1
    )
    # What the copies give is what reading every sheet afresh gives: the same rows,
    # counts, people and lines.
    SheetCopy.objects.all().delete()
    third = services.backup_take(tournament=tournament, reason="three")
    fresh = archive.file_read(services.backup_content(third))
    assert two.tables == fresh.tables
    for key in ("counts", "lines", "sha256"):
        assert two.header[key] == fresh.header[key], key


def test_only_the_newest_automatic_backups_of_each_tournament_are_kept(
    settings, league
):
    tournament, _ = league
    other, _ = final_league(2, 3, qualifiers=2, slug="other-cup")
    settings.BACKUPS_KEPT = 2
    for n in range(4):
        services.backup_before_step(tournament=tournament, step=f"step {n}")
    by_hand = services.backup_take(tournament=tournament, reason="by hand")
    assert [b.reason for b in Backup.objects.filter(tournament=tournament)] == [
        "by hand",
        "before step 3",
        "before step 2",
    ]
    assert by_hand.automatic is False
    assert Backup.objects.filter(tournament=other).count() == 1  # its own draw's


def test_a_tournament_restored_in_place_is_as_it_was_and_others_are_untouched(
    api, league, tmp_path
):
    tournament, organizer = league
    other, _ = final_league(2, 3, qualifiers=2, slug="other-cup")
    assert api.post("/api/v1/tournaments/backup-cup/knockout/").status_code == 201
    backup = services.backup_take(tournament=tournament, reason="test")
    before, rows, theirs = seen(api, "backup-cup"), rows_of(tournament), rows_of(other)

    # The tournament moves on: a sheet reopened and changed, a team added.
    match = Match.objects.filter(tournament=tournament, stage="league").first()
    sheets.score_sheet_reopen(match_id=match.pk, user=organizer, reason="typo")
    sheets.score_sheet_deal_delete(
        match_id=match.pk, number=6, user=organizer, version=None
    )
    TeamFactory(section=Team.objects.filter(tournament=tournament).first().section)
    assert seen(api, "backup-cup") != before

    out = StringIO()
    path = tmp_path / "backup.56.gz"
    path.write_bytes(services.backup_content(backup))
    call_command("restore", "--tournament", "backup-cup", path, yes=True, stdout=out)
    assert "Restored tournament of backup-cup" in out.getvalue()
    assert seen(api, "backup-cup") == before
    after = rows_of(tournament)
    after["tournament.tournament"][0]["updated_at"] = rows["tournament.tournament"][0][
        "updated_at"
    ]
    assert after == rows
    assert rows_of(other) == theirs
    # What it replaced was kept first, and holds the deleted deal's sheet as it was.
    safety = Backup.objects.filter(tournament=tournament).first()
    assert safety.reason.startswith("before restoring the backup of")
    replaced = archive.file_read(services.backup_content(safety))
    assert len(replaced.rows("tournament.team")) == 7
    # Writing goes on after the restored rows.
    sheets.score_sheet_reopen(match_id=match.pk, user=organizer, reason="again")
    assert SheetChange.objects.order_by("pk").last().reason == "again"


def test_a_sheet_restored_from_the_backup_before_its_reopening(api, league):
    tournament, organizer = league
    match = Match.objects.filter(tournament=tournament, stage="league").first()
    shown = api.get(f"/api/v1/matches/{match.pk}/").json()
    sheets.score_sheet_reopen(match_id=match.pk, user=organizer, reason="typo")
    sheets.score_sheet_deal_delete(
        match_id=match.pk, number=6, user=organizer, version=None
    )
    other = Match.objects.filter(tournament=tournament).exclude(pk=match.pk).first()
    other_shown = api.get(f"/api/v1/matches/{other.pk}/").json()
    before_restore = Match.objects.get(pk=match.pk).version
    backup = Backup.objects.filter(tournament=tournament, scope="sheets").get()

    services.backup_restore(
        tournament=tournament, content=services.backup_content(backup), user=organizer
    )
    now = api.get(f"/api/v1/matches/{match.pk}/").json()
    assert now["status"] == "confirmed"
    assert now["deals"] == shown["deals"]
    assert (now["total_a"], now["total_b"]) == (shown["total_a"], shown["total_b"])
    # A version above any it had, and a history row that says what happened.
    assert now["version"] == before_restore + 1
    last = SheetChange.objects.filter(match=match).order_by("pk").last()
    assert last.action == "restore"
    assert "restored from the backup of" in last.reason
    assert api.get(f"/api/v1/matches/{other.pk}/").json() == other_shown
    # A scorer who still holds the version before the restore is told it changed.
    answer = api.post(
        f"/api/v1/matches/{match.pk}/reopen/",
        {"reason": "x", "version": before_restore},
        "json",
    )
    assert answer.status_code == 409


def test_reopening_a_knockout_sheet_backs_up_the_sheets_that_depend_on_it(api, league):
    tournament, organizer = league
    assert api.post("/api/v1/tournaments/backup-cup/knockout/").status_code == 201
    semis = bracket(api, "backup-cup")["rounds"][0]["matches"]
    for semi in semis:
        play_sheet(api, semi["match"], 14, 10, semi["deals_scheduled"])
        confirm(api, semi["match"])
    sheet = semis[0]["match"]
    final_sheets = set(
        Match.objects.filter(tournament=tournament, stage="knockout")
        .exclude(pk__in=[s["match"] for s in semis])
        .values_list("pk", flat=True)
    )
    assert final_sheets, "the final's first game is open once both semis are decided"
    answer = api.post(
        f"/api/v1/matches/{sheet}/reopen/",
        {"reason": "wrong total", "reset_next": True},
        "json",
    )
    assert answer.status_code == 200, answer.json()
    backup = Backup.objects.filter(tournament=tournament).first()
    assert backup.scope == "sheets"
    assert {sheet, *final_sheets} <= set(backup.sheets)
    held = archive.file_read(services.backup_content(backup))
    assert len(held.rows("brackets.knockoutmatch")) >= 2

    # Restoring it undoes the reset: the final's game is live again, not void.
    services.backup_restore(
        tournament=tournament, content=services.backup_content(backup), user=organizer
    )
    assert Match.objects.get(pk=sheet).status == "confirmed"
    for pk in final_sheets:
        assert Match.objects.get(pk=pk).status != "void"


def test_an_archive_is_imported_as_a_tournament_of_its_own(api, league):
    tournament, organizer = league
    captain = UserFactory(username="Captain-Ravi")
    tournament.memberships.create(
        user=captain, role="captain", team=Team.objects.filter(tournament=tournament)[0]
    )
    backup = services.backup_take(tournament=tournament, reason="archive")
    content = services.backup_content(backup)
    shown = seen(api, "backup-cup")

    with pytest.raises(BackupRefused, match="has a tournament 'backup-cup' already"):
        services.tournament_import(content=content, user=organizer)

    # Another site: the tournament and a person are not there.
    _forget(tournament)
    captain.delete()
    newcomer = UserFactory(username="importer")
    imported = services.tournament_import(content=content, user=newcomer)
    assert imported.pk != tournament.pk
    assert imported.slug == "backup-cup"
    ravi = get_user_model().objects.get(username="Captain-Ravi")
    assert not ravi.has_usable_password()
    assert imported.memberships.filter(user=newcomer, role="organizer").exists()
    as_user(api, organizer)
    again = seen(api, "backup-cup")
    assert _names(again["standings"]) == _names(shown["standings"])
    assert len(again) == len(shown)  # every sheet and its history


def _names(standings: dict) -> list[dict]:
    """The standings without their ids (an import gives new ones)."""
    return [
        {k: v for k, v in row.items() if k not in ("team", "section")}
        for row in standings["rows"]
    ]


def _forget(tournament: Tournament) -> None:
    """The tournament gone from this site, as if the file came from another."""
    from tournament.backups.services import _tournament_delete_rows

    _tournament_delete_rows(tournament)
    Backup.objects.filter(tournament=tournament).update(tournament=None)
    tournament.delete()


def test_an_import_is_refused_where_a_name_clashes_and_nothing_changes(league):
    tournament, organizer = league
    backup = services.backup_take(tournament=tournament, reason="archive")
    content = services.backup_content(backup)
    _forget(tournament)
    organizer.username = organizer.username.upper()
    organizer.save()
    users = get_user_model().objects.count()
    with pytest.raises(BackupRefused, match="differ only by letter case"):
        services.tournament_import(content=content, slug="elsewhere")
    assert get_user_model().objects.count() == users
    assert not Tournament.objects.filter(slug="elsewhere").exists()


def test_a_damaged_foreign_or_hostile_file_is_refused_and_nothing_changes(league):
    tournament, _ = league
    backup = services.backup_take(tournament=tournament, reason="test")
    content = services.backup_content(backup)
    text = gzip.decompress(content)
    head, _, body = text.partition(b"\n")
    rows = rows_of(tournament)

    def header_with(**changes):
        return json.dumps({**json.loads(head), **changes}).encode()

    hostile_line = json.dumps(
        {"tables": {"auth.user": {"columns": ["id", "password"], "rows": [[1, "x"]]}}}
    ).encode()
    cases = {
        "damaged": gzip.compress(head + b"\n" + body[:-20]),
        "truncated": content[: len(content) // 2],
        "not gzip": b"PK\x03\x04 a workbook",
        "foreign": gzip.compress(b'{"format": "other"}\n'),
        "old code": gzip.compress(
            header_with(migrations={"scoring": "0001_initial"}) + b"\n" + body
        ),
        "hostile columns": gzip.compress(
            header_with(
                lines=1,
                sha256=__import__("hashlib")
                .sha256((archive.digest(hostile_line) + "\n").encode())
                .hexdigest(),
            )
            + b"\n"
            + hostile_line
        ),
        "bomb": gzip.compress(head + b"\n" + b" " * (2 * 2**20)),
    }
    said = {
        "damaged": "damaged",
        "truncated": "not whole|not gzip",
        "not gzip": "not gzip",
        "foreign": "not a tournament's backup",
        "old code": "migrations",
        "hostile columns": "columns of auth.user",
        "bomb": "more than 1 MB",
    }
    for name, data in cases.items():
        with pytest.raises(BackupRefused, match=said[name]):
            if name == "bomb":
                archive.file_read(data, limit=2**20)
            else:
                services.backup_restore(tournament=tournament, content=data)
        with pytest.raises(BackupRefused):
            services.tournament_import(content=data, slug="hostile")
        assert rows_of(tournament) == rows, name
        assert not Tournament.objects.filter(slug="hostile").exists()


def test_a_backup_of_one_tournament_is_refused_by_another(league):
    tournament, _ = league
    other, _ = final_league(2, 3, qualifiers=2, slug="other-cup")
    backup = services.backup_take(tournament=tournament, reason="test")
    with pytest.raises(BackupRefused, match="not of 'other-cup'"):
        services.backup_restore(
            tournament=other, content=services.backup_content(backup)
        )
    with pytest.raises(CommandError, match="No tournament 'nowhere'"):
        call_command("restore", "--tournament", "nowhere", "x.gz", yes=True)


def test_backup_command_writes_a_tournament_file_readable_by_its_owner(
    league, tmp_path
):
    out = StringIO()
    path = tmp_path / "cup.56.gz"
    call_command("backup", "--tournament", "backup-cup", output=path, stdout=out)
    assert path.stat().st_mode & 0o777 == 0o600
    assert archive.file_read(path.read_bytes()).header["scope"] == "tournament"
    assert "kept on the site as backup" in out.getvalue()
