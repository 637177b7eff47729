"""API: campaigns (shared/API.md)."""

urlpatterns: list = []
