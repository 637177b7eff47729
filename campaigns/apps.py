from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "campaigns"

    def ready(self):
        from campaigns import revision, signals  # noqa: F401  (connects the receivers)

        revision.connect()
