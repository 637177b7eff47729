"""API: attacks (shared/API.md)."""

urlpatterns: list = []
