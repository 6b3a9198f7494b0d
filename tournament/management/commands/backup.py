"""`manage.py backup [--output FILE] [--reason TEXT] [--list]`: a backup of the whole
site (docs/backups.md), or the list of backups in BACKUP_DIR."""

from pathlib import Path

from django.core.management.base import BaseCommand

from tournament.backups import backup_list, backup_write


class Command(BaseCommand):
    help = "Write a backup of the whole site (gzip-compressed JSON, docs/backups.md)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--output", type=Path, help="The file to write (default: in BACKUP_DIR)."
        )
        parser.add_argument("--reason", default="by hand", help="Kept in the file.")
        parser.add_argument(
            "--list",
            action="store_true",
            dest="listing",
            help="List the backups in BACKUP_DIR.",
        )

    def handle(self, *args, output=None, reason="by hand", listing=False, **options):
        if listing:
            for info in backup_list():
                self.stdout.write(
                    f"{info.path}  {info.created}  {info.rows} rows  {info.reason}"
                )
            return
        info = backup_write(reason=reason, path=output)
        self.stdout.write(self.style.SUCCESS(f"Backup written: {info.path}"))
        for label, count in info.counts.items():
            if count:
                self.stdout.write(f"  {label}: {count}")
