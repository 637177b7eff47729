"""API: POST /api/v1/auth/token/, username and password for a token, behind the brute-force
lockout (django-axes) and a strict throttle; GET /api/v1/me/, who the credentials belong to."""

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import get_user_model
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from api.base import error_responses
from api.errors import json_error
from api.serializers.auth import MeSerializer, TokenSerializer

LOCKED = ("Too many failed logins for this account from your address. Try again later or ask "
          "an administrator to unlock it.")


USERNAME_MAX = get_user_model()._meta.get_field("username").max_length


class CredentialsSerializer(AuthTokenSerializer):
    """A username no account can have (longer than the column, which is shorter than
    django-axes' 255 characters) is a 400 before anything is looked up or logged."""

    username = serializers.CharField(label="Username", write_only=True,
                                     max_length=USERNAME_MAX)


class TokenView(ObtainAuthToken):
    throttle_classes = [ScopedRateThrottle]  # ObtainAuthToken turns throttling off
    throttle_scope = "token"
    serializer_class = CredentialsSerializer
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # ObtainAuthToken sets plain ones

    @extend_schema(request=CredentialsSerializer,
                   responses={200: TokenSerializer, **error_responses(400, 429)})
    def post(self, request, *args, **kwargs):
        username = request.data.get("username") if hasattr(request.data, "get") else None
        if isinstance(username, str) and len(username) <= USERNAME_MAX and \
                AxesProxyHandler.is_locked(request._request, {"username": username}):
            return json_error(status.HTTP_429_TOO_MANY_REQUESTS, LOCKED, "locked_out")
        return super().post(request, *args, **kwargs)


class MeView(APIView):
    """Who the credentials belong to: lets a client check its token."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: MeSerializer, **error_responses(401)})
    def get(self, request):
        user = request.user
        return Response({"id": user.id, "username": user.username, "is_staff": user.is_staff})


urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="token"),
    path("me/", MeView.as_view(), name="me"),
]
