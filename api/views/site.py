"""API: the site's own settings, staff (is_staff or superuser) only: read them, change the
typed address or the private-webhook switch. The site settings page calls the same service."""

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import APIView

from api.base import error_responses, validated
from api.parsers import SafeJSONParser
from api.serializers.site import SiteSettingsSerializer, SiteSettingsUpdateSerializer
from campaigns import site
from campaigns.models import SiteSettings
from campaigns.services.site import is_staff, site_settings_update

TAGS = ["site"]


def shown() -> dict:
    stored = site.read_stored()
    row = SiteSettings.objects.filter(pk=site.ROW).only("updated_at").first()
    if site.configured_url():
        source = "configuration"
    elif stored.site_url:
        source = "learned" if stored.learned else "typed"
    else:
        source = "default"
    return {"site_url": site.site_url(), "site_url_source": source,
            "stored_site_url": stored.site_url,
            "webhooks_allow_private": site.webhooks_allow_private(),
            "webhooks_allow_private_switch": stored.webhooks_allow_private,
            "webhooks_allow_private_configured": site.configured_webhooks_allow_private(),
            "updated_at": row.updated_at if row else None}


class SiteSettingsView(APIView):
    parser_classes = [SafeJSONParser]

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        if not is_staff(request.user):
            raise exceptions.PermissionDenied(_("Only staff users see the site's settings."))

    @extend_schema(tags=TAGS, summary="The site's settings (staff users)",
                   responses={200: SiteSettingsSerializer, **error_responses(401, 403)})
    def get(self, request):
        return Response(SiteSettingsSerializer(shown()).data)

    @extend_schema(tags=TAGS, summary="Change the site's settings (staff users)",
                   request=SiteSettingsUpdateSerializer,
                   responses={200: SiteSettingsSerializer, **error_responses(400, 401, 403)})
    def patch(self, request):
        data = validated(SiteSettingsUpdateSerializer, request.data)
        site_settings_update(by=request.user, values=dict(data))
        return Response(SiteSettingsSerializer(shown()).data)


urlpatterns = [
    path("site/settings/", SiteSettingsView.as_view(), name="site-settings"),
]
