"""Create the site admin user once, printing its generated password (used by `make run`)."""

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create an 'admin' superuser if none exists and print its password once."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")

    def handle(self, *args, username, **options):
        users = get_user_model()
        if users.objects.filter(username=username).exists():
            self.stdout.write(f"Admin user '{username}' exists (password printed when created).")
            return
        password = secrets.token_urlsafe(12)
        users.objects.create_superuser(username=username, email="", password=password)
        self.stdout.write(self.style.SUCCESS(
            f"Created admin user '{username}' with password: {password}\n"
            "It is shown only this once; change it at /admin/password_change/."))
