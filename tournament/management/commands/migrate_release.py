"""`manage.py migrate_release <version>`: the database back to an earlier release's
schema, every row kept, before that release's code runs again (docs/deploy.md,
"Rollback"). Run with the NEWER code (it holds the backward steps), then start the
older release:

    manage.py migrate_release 0.3.0         each app back to its last in 0.3.0
    manage.py migrate_release 0.3.0 --plan  what would go back, nothing done

The apps go back one at a time, the app that depends on the others first (each a
`manage.py migrate <app> <migration>`, post_migrate and all), then the database's
migrations are checked to be exactly the release's. Exits 0 when they are (nothing
to do is 0 too), 2 for a version not in tournament/ops/releases.py, 1 when a step fails.
"""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor

from tournament.ops.releases import APPS, RELEASES, release_named
from tournament.ops.version import VERSION


def release_state(executor: MigrationExecutor, migrations: dict[str, str]) -> set:
    """Every migration of APPS that a release's schema holds: each app's last one
    and all it stands on, in that app."""
    graph = executor.loader.graph
    held = set()
    for app, name in migrations.items():
        held |= {key for key in graph.forwards_plan((app, name)) if key[0] == app}
    return held


class Command(BaseCommand):
    help = "Take the database back to an earlier release's migrations, rows kept."

    def add_arguments(self, parser):
        parser.add_argument("version", help="A release, e.g. 0.3.0 (CHANGELOG.md).")
        parser.add_argument(
            "--plan", action="store_true", help="Say what would go back; do nothing."
        )
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args, version, plan, database, **options):
        release = release_named(version)
        if release is None:
            known = ", ".join(r.version for r in RELEASES)
            raise CommandError(
                f"version: {version} is not a release this code knows ({known}).",
                returncode=2,
            )
        connection = connections[database]
        executor = MigrationExecutor(connection)
        target = release_state(executor, release.migrations)
        applied = {key for key in executor.loader.applied_migrations if key[0] in APPS}
        going = sorted(applied - target)
        if applied - target and not applied >= target:
            raise CommandError(
                "the database is at neither this code's schema nor an earlier one "
                f"of {release.version}: {sorted(target - applied)[:5]} are missing."
            )
        if not going:
            self.stdout.write(
                f"The database is at {release.version}'s migrations already."
            )
            return
        self.stdout.write(
            f"From {VERSION} back to {release.version}: {len(going)} migrations to "
            "unapply: " + ", ".join(f"{app}.{name}" for app, name in going)
        )
        if plan:
            return
        # The app others depend on last: brackets, then scoring, then tournament.
        for app in reversed(APPS):
            if any(key[0] == app for key in going):
                call_command(
                    "migrate",
                    app,
                    release.migrations[app],
                    database=database,
                    interactive=False,
                    stdout=self.stdout,
                    stderr=self.stderr,
                )
        executor = MigrationExecutor(connection)
        now = {key for key in executor.loader.applied_migrations if key[0] in APPS}
        if now != target:
            raise CommandError(
                f"after the steps back the database is not at {release.version}: "
                f"left {sorted(now - target)[:5]}, missing {sorted(target - now)[:5]}."
            )
        older = release.version
        self.stdout.write(
            f"The database is at {older}'s migrations: start {older}'s code now "
            '(docs/deploy.md, "Rollback").'
        )
