"""`manage.py backup`: a backup of the whole site to a file (docs/backups.md), of one
tournament (`--tournament SLUG`), or the list of backups in BACKUP_DIR. Files are
readable by their owner only."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.backups.services import backup_content, backup_take
from tournament.backups.site import backup_list, backup_write, owner_only
from tournament.models import Tournament


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
        info = backup_write(reason=reason, path=output, passwords=options["passwords"])
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
        backup = backup_take(tournament=tournament, reason=reason)
        output = output or Path(f"{slug}-{backup.created_at:%Y%m%dT%H%M%S}.56.gz")
        with owner_only(output) as out:
            out.write(backup_content(backup))
        self.stdout.write(self.style.SUCCESS(f"Backup of {slug} written: {output}"))
        self.stdout.write(
            f"  {backup.rows} rows; kept on the site as backup {backup.pk}"
        )
