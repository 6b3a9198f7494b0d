"""`manage.py restore FILE [--yes]`: make the site what a backup holds
(docs/backups.md). What it replaces is backed up first."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.backups import BackupRefused, backup_read, backup_restore


class Command(BaseCommand):
    help = "Replace the whole site by a backup; what it replaces is backed up first."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--yes", action="store_true", help="Do not ask before replacing the site."
        )

    def handle(self, *args, file: Path, yes=False, **options):
        try:
            document = backup_read(file)
        except BackupRefused as refused:
            raise CommandError(str(refused)) from refused
        rows = sum(document["counts"].values())
        self.stdout.write(
            f"{file}: {rows} rows, made {document['created']} ({document['reason']})."
        )
        if not yes and options.get("interactive", True):
            answer = input("This replaces everything on this site. Type 'restore': ")
            if answer.strip() != "restore":
                raise CommandError("Nothing was restored.")
        try:
            restored, safety = backup_restore(file)
        except BackupRefused as refused:
            raise CommandError(str(refused)) from refused
        self.stdout.write(self.style.SUCCESS(f"Restored {restored.rows} rows."))
        self.stdout.write(f"What it replaced is in {safety.path}.")
