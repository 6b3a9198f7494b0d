"""A new password ends the user's API tokens: a token handed out before it must not
outlive it (an organizer resetting a lost phone's captain, say)."""

from django.conf import settings
from django.db.models.signals import pre_save
from django.dispatch import receiver
from rest_framework.authtoken.models import Token


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def tokens_end_with_the_password(sender, instance, update_fields=None, **kwargs):
    if instance.pk is None or (
        update_fields is not None and "password" not in update_fields
    ):
        return
    old = sender.objects.filter(pk=instance.pk).values_list("password", flat=True)
    if old and old[0] != instance.password:
        Token.objects.filter(user_id=instance.pk).delete()
