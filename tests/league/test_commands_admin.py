"""``manage.py ensure_admin`` (``make run``): the admin once, with an e-mail address so the
mail of the campaigns it runs reaches it (printed in the console)."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_ensure_admin_creates_a_superuser_with_an_address_once(capsys):
    call_command("ensure_admin")
    out = capsys.readouterr().out
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser and admin.email == "admin@localhost"
    assert "with password:" in out and "/accounts/password_change/" in out
    call_command("ensure_admin")
    assert "exists" in capsys.readouterr().out
    assert get_user_model().objects.filter(username="admin").count() == 1


def test_ensure_admin_gives_an_existing_admin_without_address_one():
    get_user_model().objects.create_superuser(username="admin", email="", password="x" * 12)
    call_command("ensure_admin", email="orga@example.org")
    assert get_user_model().objects.get(username="admin").email == "orga@example.org"
