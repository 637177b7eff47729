"""API: map (shared/API.md)."""

urlpatterns: list = []
