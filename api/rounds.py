"""API: rounds (shared/API.md)."""

urlpatterns: list = []
