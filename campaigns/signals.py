"""A user's API token stops working whenever their password changes, however
it was changed (the pages, the Django admin, ``manage.py changepassword``). Django already
ends the user's other sessions then (the session auth hash); tokens it does not know about."""

from django.contrib.auth import get_user_model
from django.db.models.signals import pre_save
from django.dispatch import receiver
from rest_framework.authtoken.models import Token


@receiver(pre_save, sender=get_user_model())
def revoke_token_on_password_change(sender, instance, update_fields=None, **kwargs):
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return  # a new user, or a save that does not write the password (e.g. last_login)
    stored = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is not None and stored != instance.password:
        Token.objects.filter(user_id=instance.pk).delete()
