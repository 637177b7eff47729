"""Do once what celery beat does every minute (R-RND-2): find the due rounds and hand each to
its own task; without a broker (eager mode) each runs here, in-process, and fails alone."""

from django.core.management.base import BaseCommand

from league.services.rounds import advance_due_rounds


class Command(BaseCommand):
    help = ("Hand every due round (deadline passed, or automatic job not finished) to its "
            "task and run the every-minute steps (the periodic job, run once).")

    def handle(self, *args, **options):
        due = advance_due_rounds()
        self.stdout.write(f"Handled {due} due round(s).")
