"""A new password ends the user's API tokens: a token handed out before it must not
outlive it (an organizer resetting a lost phone's captain, say). A migration ends
the sheets' copies kept for the backups: each is a line written at the columns of
its day."""

from django.conf import settings
from django.db.models.signals import post_migrate, pre_save
from django.dispatch import receiver
from rest_framework.authtoken.models import Token

from .backups.archive import APPS


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def tokens_end_with_the_password(sender, instance, update_fields=None, **kwargs):
    if instance.pk is None or (
        update_fields is not None and "password" not in update_fields
    ):
        return
    old = sender.objects.filter(pk=instance.pk).values_list("password", flat=True)
    if old and old[0] != instance.password:
        Token.objects.filter(user_id=instance.pk).delete()


@receiver(post_migrate, dispatch_uid="sheet-copies-after-migrate")
def sheet_copies_after_migrate(sender, *, using, plan=None, apps=None, **kwargs):
    """After a migrate that applied (or unapplied) a migration of the apps a backup
    holds, the sheets' copies go: a copy is a sheet's line at the columns of the
    code that wrote it, put into the next backup as it is, and a backup whose
    header says this site's migrations but whose lines hold an earlier release's
    columns is refused by every restore. The first backup of each tournament then
    reads its sheets again and keeps new copies (docs/backups.md)."""
    if sender.label != "tournament" or not plan or apps is None:
        return
    if not any(migration.app_label in APPS for migration, _ in plan):
        return
    try:
        copies = apps.get_model("tournament", "SheetCopy")
    except LookupError:  # migrated back to before it
        return
    copies._base_manager.using(using).all().delete()
