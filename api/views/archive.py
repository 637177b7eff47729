"""API: the campaign archive and the sandbox (``docs/archive.md``): an
admin downloads the archive, a staff user imports one as a new campaign (as creating one,
API.md), an admin clones the campaign as a private sandbox."""

from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from api.base import CampaignScoped, error_responses
from api.parsers import SafeJSONParser
from api.serializers.campaigns import CampaignSerializer
from league.services.archive import archive_export, campaign_clone_sandbox
from league.services.archive_import import archive_import
from league.services.map_document import DocumentInvalid

TAGS = ["archive"]
ARCHIVE_HELP = ("The archive document (docs/archive.md): `{\"format\": \"feldzug-campaign\", "
                "\"version\": 1, ...}`.")


class CampaignArchive(CampaignScoped):
    @extend_schema(tags=TAGS, summary="Download the campaign archive (campaign admin)",
                   description=ARCHIVE_HELP + " Never holds the open round's seed, army lists "
                   "before their reveal, fleet orders or accounts' data but display names.",
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="archive"),
                              **error_responses(401, 403, 404)})
    def get(self, request, campaign_id):
        self.require_admin()
        document = archive_export(campaign=self.campaign, by=request.user, now=timezone.now())
        response = Response(document)
        response["Content-Disposition"] = (
            f'attachment; filename="campaign-{self.campaign.pk}-archive.json"')
        return response


class CampaignImport(APIView):
    parser_classes = [SafeJSONParser]  # one media type per operation

    @extend_schema(
        tags=TAGS, summary="Import an archive as a new campaign (staff users)",
        description=ARCHIVE_HELP + " As the JSON body (the pages also take it as a file). An "
        "invalid archive is rejected whole, `errors` naming each offending path (e.g. "
        "`rounds[1].battles[0].attacker`). The seats are placeholders without accounts; "
        "hand them out with seat invitations.",
        request={"application/json": OpenApiTypes.OBJECT},
        responses={201: CampaignSerializer, **error_responses(400, 401, 403)})
    def post(self, request):
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        if not (request.user.is_staff or request.user.is_superuser):
            raise exceptions.PermissionDenied(_("Only staff users create campaigns."))
        try:
            campaign = archive_import(document=request.data, by=request.user,
                                      now=timezone.now())
        except DocumentInvalid as exc:
            raise exceptions.ValidationError(exc.errors) from None
        return Response(CampaignSerializer(campaign).data, status=status.HTTP_201_CREATED)


class CampaignSandbox(CampaignScoped):
    parser_classes = [SafeJSONParser]

    @extend_schema(tags=TAGS, summary="Clone the campaign as a private sandbox (campaign admin)",
                   description="A private copy of the current state that only the caller "
                   "administers; its open round draws from a fresh seed and it mails nobody.",
                   request=None,
                   responses={201: CampaignSerializer, **error_responses(401, 403, 404)})
    def post(self, request, campaign_id):
        self.require_admin()
        sandbox = campaign_clone_sandbox(campaign=self.campaign, by=request.user,
                                         now=timezone.now())
        return Response(CampaignSerializer(sandbox).data, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("campaigns/<int:campaign_id>/archive/", CampaignArchive.as_view(),
         name="campaign-archive"),
    path("campaigns/import/", CampaignImport.as_view(), name="campaign-import"),
    path("campaigns/<int:campaign_id>/sandbox/", CampaignSandbox.as_view(),
         name="campaign-sandbox"),
]
