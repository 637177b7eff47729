from django.urls import path

from . import attacks, battles, campaigns, conquest, rounds, views
from . import map as map_views
from .auth import TokenView

app_name = "api"
urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="token"),
    path("me/", views.MeView.as_view(), name="me"),
]
for module in (campaigns, map_views, rounds, attacks, battles, conquest):
    urlpatterns += module.urlpatterns
