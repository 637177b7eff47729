"""A password change made anywhere (the Django admin, changepassword, a
script) revokes the user's API token; other saves of the user leave it alone."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_set_password_and_save_revokes_the_token():
    user = UserFactory()
    Token.objects.create(user=user)
    user.set_password("a brand new secret 77")
    user.save()
    assert not Token.objects.filter(user=user).exists()


def test_the_admin_change_password_form_revokes_the_token(client):
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123")
    user = UserFactory()
    Token.objects.create(user=user)
    client.force_login(admin)
    url = f"/admin/auth/user/{user.pk}/password/"
    response = client.post(url, {"password1": "Another-secret-88", "password2":
                                 "Another-secret-88", "usable_password": "true"})
    assert response.status_code == 302, response.content[:500]
    assert not Token.objects.filter(user=user).exists()


def test_changepassword_command_path_revokes_the_token(monkeypatch):
    user = UserFactory()
    Token.objects.create(user=user)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "Command-secret-99")
    call_command("changepassword", user.username)
    assert not Token.objects.filter(user=user).exists()


def test_saves_without_a_password_change_keep_the_token(client):
    user = UserFactory()
    token = Token.objects.create(user=user)
    user.first_name = "Renamed"
    user.save()
    user.save(update_fields=["last_login"])
    client.force_login(user)  # updates last_login
    assert Token.objects.filter(key=token.key).exists()
