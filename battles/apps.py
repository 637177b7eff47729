from django.apps import AppConfig
from django.core import checks


class BattlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "battles"

    def ready(self):
        from battles.models import ArmyList, Battle, ConquestRoll, ResultChange, ScheduleProposal
        from campaigns.models import Round
        from campaigns.revision import via, watch

        checks.register(site_host_check)
        watch(Battle, lambda battle: battle.campaign_id)  # the standings
        # what the API's battles list shows of each battle (api/battle_list.py)
        of_battle, of_round = via("battle", Battle), via("round", Round)
        for model in (ArmyList, ResultChange, ScheduleProposal):
            watch(model, of_battle)
        watch(ConquestRoll, lambda roll: None if not roll.immediate  # a chain link's roll
              else of_battle(roll) if roll.battle_id else of_round(roll))


def site_host_check(app_configs=None, **kwargs) -> list:
    """``SITE_HOST`` must make calendar UIDs (``battle-<id>@<host>``, R-BAT-2): caught by
    ``manage.py check`` instead of failing every feed request."""
    from django.conf import settings

    from battles.calendar import uid_host

    try:
        uid_host(settings.SITE_HOST)
    except ValueError as exc:
        return [checks.Error(str(exc), hint="Set SITE_HOST to the site's public host name, "
                                            "e.g. feldzug.example.org.", id="battles.E001")]
    return []
