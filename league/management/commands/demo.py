"""Create the demo campaign (idempotent), so a newcomer sees a living campaign at once."""

from django.core.management.base import BaseCommand

from league.demo import demo_create


class Command(BaseCommand):
    help = "Create the public demo campaign with four players, two planets and fleets."

    def handle(self, *args, **options):
        campaign, passwords = demo_create()
        if not passwords:
            self.stdout.write(f"Demo campaign '{campaign.name}' (id {campaign.pk}) is ready.")
            return
        self.stdout.write(self.style.SUCCESS(
            f"Created demo campaign '{campaign.name}' (id {campaign.pk}), round 1 in declare."))
        for username, password in passwords.items():
            self.stdout.write(f"  player {username}: password {password}  (shown once)")
