"""Recompute a closed round's dice log from its revealed seed (R-DICE-3)."""

from django.core.management.base import BaseCommand, CommandError

from campaigns.models import Round
from campaigns.selectors.rounds import verify_round


class Command(BaseCommand):
    help = "Verify every logged roll of a closed round against its revealed seed."

    def add_arguments(self, parser):
        parser.add_argument("campaign_id", type=int)
        parser.add_argument("round_number", type=int)

    def handle(self, *args, campaign_id, round_number, **options):
        rnd = Round.objects.filter(campaign_id=campaign_id, number=round_number).first()
        if rnd is None:
            raise CommandError(f"Campaign {campaign_id} has no round {round_number}.")
        if not rnd.seed_revealed:
            raise CommandError("The round is not closed: its seed is still secret.")
        report = verify_round(rnd)
        for mismatch in report.mismatches:
            self.stdout.write(f"MISMATCH draw {mismatch['counter']} ({mismatch['purpose']}): "
                              f"logged {mismatch['logged']}, expected {mismatch['expected']}")
        self.stdout.write(f"seed {bytes(rnd.server_seed).hex()}\nchecked {report.checked} draws: "
                          f"{'verified' if report.verified else 'MISMATCHES FOUND'}")
        if not report.verified:
            raise CommandError("verification failed")
