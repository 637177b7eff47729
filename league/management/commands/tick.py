"""Do once what celery beat does every minute: advance rounds whose deadline passed (R-RND-2)."""

from django.core.management.base import BaseCommand

from league.services.rounds import advance_due_rounds


class Command(BaseCommand):
    help = "Advance every round whose phase deadline passed (the periodic job, run once)."

    def handle(self, *args, **options):
        moved = advance_due_rounds()
        self.stdout.write(f"Advanced {moved} phase(s).")
