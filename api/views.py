from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from api.base import error_responses


class MeView(APIView):
    """Who the credentials belong to: lets a client check its token."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: inline_serializer("Me", {
        "id": serializers.IntegerField(), "username": serializers.CharField(),
        "is_staff": serializers.BooleanField()}), **error_responses(401)})
    def get(self, request):
        user = request.user
        return Response({"id": user.id, "username": user.username, "is_staff": user.is_staff})
