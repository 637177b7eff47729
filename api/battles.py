"""API: battles (shared/API.md)."""

urlpatterns: list = []
