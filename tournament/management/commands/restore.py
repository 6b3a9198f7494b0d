"""`manage.py restore FILE [--yes]`: make the site what a backup holds; with
`--tournament SLUG`, only that tournament, or those sheets (docs/backups.md). What
it replaces is backed up first; the rest of the site is not touched.

Without `--yes` it asks on the terminal first. With no terminal to ask on (standard
input not a tty: `podman exec` without `-t`, a cron job, a pipe) it refuses in one
line that names `--yes`, before anything changes, rather than reading an answer
nobody typed."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.backups.archive import FORMAT, release
from tournament.backups.selectors import header_of
from tournament.backups.services import backup_restore
from tournament.backups.site import BackupRefused, backup_read
from tournament.backups.site import backup_restore as site_restore
from tournament.backups.upgrades import FileState, file_state
from tournament.models import Tournament

NO_TERMINAL = (
    "restore asks before it replaces data; there is no terminal to ask on: add --yes"
)


class Command(BaseCommand):
    help = (
        "Replace the whole site, or one tournament (--tournament), by a backup; "
        "what it replaces is backed up first."
    )
    stealth_options = ("stdin",)  # where the answer is read (call_command's tests)

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--tournament",
            metavar="SLUG",
            help="Restore this tournament (or its sheets) from its backup file.",
        )
        parser.add_argument(
            "--yes", action="store_true", help="Do not ask before replacing."
        )

    def handle(self, *args, file: Path, yes=False, **options):
        if options.get("tournament"):
            self._tournament(options["tournament"], file, yes, options)
            return
        try:
            document = backup_read(file)
        except BackupRefused as refused:
            raise CommandError(str(refused)) from refused
        rows = sum(document["counts"].values())
        self.stdout.write(
            f"{file}: {rows} rows, made {document['created']} ({document['reason']})."
        )
        self._ask("This replaces everything on this site.", yes, options)
        try:
            restored, safety = site_restore(file)
        except BackupRefused as refused:
            raise CommandError(str(refused)) from refused
        self.stdout.write(self.style.SUCCESS(f"Restored {restored.rows} rows."))
        self._older(restored.state, done=True)
        self.stdout.write(f"What it replaced is in {safety.path}.")

    def _older(self, state: FileState | None, done: bool) -> None:
        """An earlier release's file is brought forward as it is restored: said
        before the question where the file is read first, else after."""
        if state is not None and state.older:
            how = "brought up" if done else "it will be brought up"
            self.stdout.write(
                f"Written by {state.written_by}: {how} to this release ({release()})"
                + ("." if done else " as it is restored.")
            )

    def _ask(self, what: str, yes: bool, options) -> None:
        if yes or not options.get("interactive", True):
            return
        stdin = options.get("stdin") or sys.stdin
        if not stdin.isatty():
            raise CommandError(NO_TERMINAL)
        self.stdout.write(f"{what} Type 'restore': ", ending="")
        self.stdout.flush()
        if stdin.readline().strip() != "restore":  # "" at the end of the input
            raise CommandError("Nothing was restored.")

    def _tournament(self, slug: str, file: Path, yes: bool, options) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(
                f"No tournament {slug!r} on this site; to bring a tournament from "
                "another site, import it on the import page."
            )
        try:
            content = file.read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}.") from error
        header = header_of(content) or {}
        if header.get("format") == FORMAT:  # else the restore says what it is not
            state = file_state(header)
            if state.refusal is not None:
                raise CommandError(f"{file}: {state.refusal}")
            self._older(state, done=False)
        self._ask(f"This replaces what {file} holds of {slug}.", yes, options)
        try:
            archive, safety = backup_restore(tournament=tournament, content=content)
        except BackupRefused as refused:
            raise CommandError(f"{file}: {refused}") from refused
        what = archive.header.get("scope")
        rows = sum(archive.header.get("counts", {}).values())
        self.stdout.write(
            self.style.SUCCESS(f"Restored {what} of {slug}: {rows} rows.")
        )
        self.stdout.write(f"What it replaced is kept as backup {safety.pk}.")
