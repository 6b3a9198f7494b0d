"""Upgrades and rollbacks (docs/deploy.md): a database holding the demo tournament
migrates from the previous migration state of each app forward to this release, and
back, and keeps every row; and no model change is left without its migration."""

from __future__ import annotations

from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournament.backups.copies import sheet_copies_keep

pytestmark = pytest.mark.django_db(transaction=True)

APPS = ("tournament", "scoring", "brackets")


def _counts() -> dict[str, int]:
    return {
        model._meta.label: model._default_manager.count()
        for app in APPS
        for model in apps.get_app_config(app).get_models()
    }


def _leaf(executor: MigrationExecutor, app: str) -> str:
    (name,) = [n for a, n in executor.loader.graph.leaf_nodes() if a == app]
    return name


def _previous(executor: MigrationExecutor, app: str) -> str | None:
    """The app's migration before its last, or None (the app's first migration is
    its last: back means no table at all)."""
    parents = [
        name
        for a, name in executor.loader.graph.node_map[
            (app, _leaf(executor, app))
        ].parents
        if a == app
    ]
    return parents[0] if parents else None


def _tallies() -> tuple[list, dict]:
    Match = apps.get_model("scoring", "Match")
    MatchTally = apps.get_model("scoring", "MatchTally")
    rows = sorted(
        MatchTally.objects.values_list(
            "match_id", "side", "bidder", "declared", "made", "value_sum", "made_56"
        )
    )
    return rows, dict(Match.objects.values_list("pk", "tally"))


def _demo_played() -> None:
    """The demo, played; and what the worker makes after the confirmations (each
    sheet's copy for the next backup, the ratings), made here: with a real worker
    (the PostgreSQL pass) some may still be queued, and they make the same rows
    whenever they run."""
    call_command("demo_load", stdout=StringIO())
    call_command("demo_play", stdout=StringIO())
    _copies_kept()
    call_command("ratings_rebuild", stdout=StringIO())


def _copies_kept() -> None:
    sheet_copies_keep(
        match_ids=list(
            apps.get_model("scoring", "Match").objects.values_list("pk", flat=True)
        )
    )


def test_no_model_change_is_left_without_a_migration():
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)


@pytest.mark.parametrize("app", APPS)
def test_each_app_migrates_back_one_step_and_forward_with_the_demo(app):
    _demo_played()
    before = _counts()
    assert before["scoring.Deal"] > 100 and before["tournament.Team"] >= 48
    tallies = _tallies()
    assert tallies[0] and any(tallies[1].values())
    executor = MigrationExecutor(connection)
    previous = _previous(executor, app)
    # Back, as docs/deploy.md's rollback types it: `manage.py migrate <app>
    # <migration>` takes the app to its previous state (and whatever depends on it
    # with it), post_migrate and all (it once ended in a traceback from a receiver
    # reading the tables just dropped).
    call_command(
        "migrate", app, previous or "zero", interactive=False, stdout=StringIO()
    )
    executor = MigrationExecutor(connection)
    applied = executor.loader.applied_migrations
    assert (app, _leaf(executor, app)) not in applied
    if previous is None:
        assert not [key for key in applied if key[0] == app]
    # Forward again: every app at this release, every row where it was; and what
    # `migrate` does next, the people and the ratings (tables made from the
    # others) found again for the rows there (docs/ratings.md).
    call_command("migrate", interactive=False, stdout=StringIO())
    executor = MigrationExecutor(connection)
    assert not executor.migration_plan(executor.loader.graph.leaf_nodes())
    # The sheets' copies kept for the next backup are of the schema they were made
    # at: a migration drops them (tournament/receivers.py) and the worker makes them
    # again, as here.
    assert not apps.get_model("tournament", "SheetCopy").objects.exists()
    _copies_kept()
    after = _counts()
    if previous is None:  # the app's tables were dropped and made again
        before = {k: v for k, v in before.items() if not k.startswith(f"{app}.")}
        after = {k: v for k, v in after.items() if not k.startswith(f"{app}.")}
    assert after == before
    # What each sheet stores for the statistics is counted again by the migration
    # that added it, exactly as the writes had stored it (scoring 0011).
    assert _tallies() == tallies


def test_migrate_release_takes_the_database_back_to_the_previous_release_and_forward():
    """The no-loss rollback of docs/deploy.md: with this code, `manage.py
    migrate_release <release>` takes every app to that release's last migrations, exit
    0 and no traceback; migrating forward again finds every row. The release is the
    newest one whose migrations this code has gone past (the previous release, unless
    no migration was added since it: then that one says it is there already)."""
    from tournament.management.commands.migrate_release import release_state
    from tournament.ops.releases import RELEASES, previous_release
    from tournament.ops.version import VERSION

    _demo_played()
    before = _counts()
    leaves = {
        app: name
        for app, name in MigrationExecutor(connection).loader.graph.leaf_nodes()
        if app in APPS
    }
    previous = previous_release(VERSION)
    assert previous is not None
    if previous.migrations == leaves:
        said = StringIO()
        call_command("migrate_release", previous.version, stdout=said)
        assert "already" in said.getvalue()
    behind = [r for r in RELEASES if r.migrations != leaves]
    assert behind, "every release is at this code's migrations"
    release = behind[-1]
    said = StringIO()
    call_command("migrate_release", release.version, "--plan", stdout=said)
    assert f"back to {release.version}" in said.getvalue()
    assert MigrationExecutor(connection).loader.applied_migrations.keys() >= {
        ("scoring", _leaf(MigrationExecutor(connection), "scoring"))
    }
    said = StringIO()
    call_command("migrate_release", release.version, stdout=said)
    assert f"at {release.version}'s migrations" in said.getvalue()
    executor = MigrationExecutor(connection)
    applied = {key for key in executor.loader.applied_migrations if key[0] in APPS}
    assert applied == release_state(executor, release.migrations)
    again = StringIO()
    call_command("migrate_release", release.version, stdout=again)
    assert "already" in again.getvalue()
    call_command("migrate", interactive=False, stdout=StringIO())
    _copies_kept()  # dropped by the migrations, made again (as above)
    assert _counts() == before


def test_an_unknown_release_is_refused_naming_the_known(capsys):
    from django.core.management import execute_from_command_line

    with pytest.raises(SystemExit) as exited:
        execute_from_command_line(["manage.py", "migrate_release", "0.0.9"])
    assert exited.value.code == 2
    assert "0.0.9 is not a release this code knows (0.3.0" in capsys.readouterr().err
