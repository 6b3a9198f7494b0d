"""`manage.py release`: the release this code is, the commit it was built from, and
whether the database's migrations match it (docs/releases.md).

Not named `version`: Django's own command line answers `manage.py version` itself,
with Django's version, before any project command is looked for.

    manage.py release            fiftysix 0.4.0 (commit 3f2c1ab…), the database: matches
    manage.py release --json     the same as one JSON object, for scripts

Exits 0 when the database holds exactly this code's migrations, 3 when it lacks some
(`deploy/upgrade` or `deploy/migrate` applies them), 4 when it holds migrations this
code does not ship (a newer release migrated it: run that release, or roll the
database back with `manage.py migrate_release`), 1 when the database does not answer.
"""

import json

from django.core.management.base import BaseCommand
from django.db import DatabaseError

from tournament.ops.health import schema_state
from tournament.ops.version import COMMIT, VERSION

EXIT = {"matches": 0, "behind": 3, "ahead": 4}


class Command(BaseCommand):
    help = (
        "Print the release, its commit and whether the database's migrations match it."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--json", action="store_true", help="One JSON object, for scripts."
        )

    def handle(self, *args, **options):
        try:
            state = schema_state()
        except DatabaseError as error:
            state = {"database": "unavailable", "error": type(error).__name__}
        said = {"name": "fiftysix", "version": VERSION, "commit": COMMIT, **state}
        if options["json"]:
            self.stdout.write(json.dumps(said, sort_keys=True))
        else:
            self.stdout.write(f"fiftysix {VERSION} (commit {COMMIT})")
            if "error" in state:
                self.stdout.write("the database: does not answer")
            else:
                self.stdout.write(f"the database: {state['database']}")
                for word in ("missing", "ahead"):
                    if state.get(word):
                        self.stdout.write(f"  {word}: {', '.join(state[word])}")
        code = EXIT.get(state["database"], 1)
        if code:
            raise SystemExit(code)
