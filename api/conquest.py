"""API: conquest (shared/API.md)."""

urlpatterns: list = []
