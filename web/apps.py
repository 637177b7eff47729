from django.apps import AppConfig


class WebConfig(AppConfig):
    """Every page: views by subject, forms, presenters, template tags (ARCHITECTURE.md)."""

    name = "web"
