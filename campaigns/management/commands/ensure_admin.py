"""Create the site admin user once, printing its generated password (used by `make run`). It
gets an e-mail address so it receives the mail of the campaigns it runs (printed in the
console by `make run`'s `EMAIL_URL=consolemail://`)."""

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create an 'admin' superuser if none exists and print its password once."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")
        parser.add_argument("--email", default="admin@localhost")

    def handle(self, *args, username, email, **options):
        users = get_user_model()
        existing = users.objects.filter(username=username).first()
        if existing is not None:
            if not existing.email:  # made before admins had an address
                users.objects.filter(pk=existing.pk).update(email=email)
            self.stdout.write(f"Admin user '{username}' exists (password printed when created).")
            return
        password = secrets.token_urlsafe(12)
        users.objects.create_superuser(username=username, email=email, password=password)
        self.stdout.write(self.style.SUCCESS(
            f"Created admin user '{username}' <{email}> with password: {password}\n"
            "It is shown only this once; change it at /accounts/password_change/. "
            "Mail to it is printed in this console."))
