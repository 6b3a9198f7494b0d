"""The backups' background task: a locked sheet's copy kept for the next backup. A
task takes ids and calls a service."""

from celery import shared_task

from . import services as backup_services


@shared_task(name="tournament.sheet_copy_keep", ignore_result=True)
def sheet_copy_keep(match_ids: list[int]) -> int:
    """Keep a copy of each locked sheet for the next backup of its tournament
    (docs/backups.md): it then reuses the copy instead of reading the sheet again."""
    return backup_services.sheet_copies_keep(match_ids=match_ids)
