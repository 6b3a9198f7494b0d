"""`manage.py backup`: a backup of the whole site to a file (docs/backups.md), of one
tournament (`--tournament SLUG`), or the list of backups in BACKUP_DIR. Files are
readable by their owner only.

Both kinds go to BACKUP_DIR unless `--output` names a file: never to the current
folder, which in the site's image is the code's, read-only to the site's user. A
file that cannot be written there (a folder read-only, missing or full) is said in
one line that names it and `--output`, and nothing is kept: a tournament's backup is
taken in the same transaction as its file is written, so it is not kept on the site
either."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournament.backups.services import backup_content, backup_take
from tournament.backups.site import backup_dir, backup_list, backup_write, owner_only
from tournament.models import Tournament


def unwritable(path: Path, error: OSError) -> CommandError:
    """The one line said when the backup's file cannot be written: where, why, and
    the option that chooses another place."""
    why = error.strerror or str(error)
    return CommandError(
        f"Cannot write the backup to {path}: {why}. Nothing was kept; choose a "
        "file that can be written with --output FILE (or set BACKUP_DIR)."
    )


class Command(BaseCommand):
    help = "Write a backup of the whole site, or of one tournament (docs/backups.md)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--output", type=Path, help="The file to write (default: in BACKUP_DIR)."
        )
        parser.add_argument("--reason", default="by hand", help="Kept in the file.")
        parser.add_argument(
            "--tournament",
            metavar="SLUG",
            help="Only this tournament: its portable archive, kept on the site too.",
        )
        parser.add_argument(
            "--with-passwords",
            action="store_true",
            dest="passwords",
            help="Keep the users' password hashes in a site backup (the header says "
            "so). API tokens are never kept.",
        )
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
        if options.get("tournament"):
            self._tournament(options["tournament"], output, reason)
            return
        try:
            info = backup_write(
                reason=reason, path=output, passwords=options["passwords"]
            )
        except OSError as error:
            raise unwritable(output or Path(settings.BACKUP_DIR), error) from error
        self.stdout.write(self.style.SUCCESS(f"Backup written: {info.path}"))
        if options["passwords"]:
            self.stdout.write("It holds the users' password hashes: keep it safe.")
        for label, count in info.counts.items():
            if count:
                self.stdout.write(f"  {label}: {count}")

    def _tournament(self, slug: str, output: Path | None, reason: str) -> None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"No tournament {slug!r} on this site.")
        try:
            # One transaction: a backup whose file cannot be written is not kept.
            with transaction.atomic():
                backup = backup_take(tournament=tournament, reason=reason)
                output = output or backup_dir() / (
                    f"{slug}-{backup.created_at:%Y%m%dT%H%M%S}.56.gz"
                )
                with owner_only(output) as out:
                    out.write(backup_content(backup))
        except OSError as error:
            raise unwritable(output or Path(settings.BACKUP_DIR), error) from error
        self.stdout.write(self.style.SUCCESS(f"Backup of {slug} written: {output}"))
        self.stdout.write(
            f"  {backup.rows} rows; kept on the site as backup {backup.pk}"
        )
