"""API: the campaign's audit log. Members read the public entries, the
campaign's admins all; filters ``kind`` (a group or one kind) and ``round``; paginated."""

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema

from api.base import CampaignScoped, error_responses
from api.pagination import Pagination
from api.serializers.audit_log import AuditEntrySerializer, AuditLogFilter
from api.serializers.common import page_of
from campaigns.selectors.admin_log import audit_entries


class AuditLog(CampaignScoped):
    @extend_schema(tags=["campaigns"], operation_id="v1_campaigns_audit_log_list",
                   summary="The audit log (members: public entries; campaign admins: all)",
                   parameters=[AuditLogFilter, OpenApiParameter("page", int),
                               OpenApiParameter("page_size", int)],
                   responses={200: page_of(AuditEntrySerializer, "PaginatedAuditEntryList"),
                              **error_responses(400, 401, 403, 404)})
    def get(self, request, campaign_id):
        """Every admin action, newest first: who (null: automatic), when, what, to what,
        before and after. Entries with hidden facts (R-FLT-7, R-SEA-2) are for admins only."""
        self.require_member()
        filters = AuditLogFilter(data=request.query_params)
        filters.is_valid(raise_exception=True)
        wanted, admin = filters.validated_data, self.is_admin
        entries = audit_entries(self.campaign, admin=admin, kind=wanted.get("kind", ""),
                                round_number=wanted.get("round"))
        paginator = Pagination()
        page = paginator.paginate_queryset(entries, request, self)
        data = AuditEntrySerializer(page, many=True, context={"admin": admin}).data
        return paginator.get_paginated_response(data)


urlpatterns = [
    path("campaigns/<int:campaign_id>/audit-log/", AuditLog.as_view(), name="audit-log"),
]
