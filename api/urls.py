from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token

from . import attacks, battles, campaigns, conquest, rounds, views
from . import map as map_views

app_name = "api"
urlpatterns = [
    path("auth/token/", obtain_auth_token, name="token"),
    path("me/", views.MeView.as_view(), name="me"),
]
for module in (campaigns, map_views, rounds, attacks, battles, conquest):
    urlpatterns += module.urlpatterns
