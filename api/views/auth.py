"""API: POST /api/v1/auth/token/, username and password for a token, behind the brute-force
lockout (django-axes) and a strict throttle; GET /api/v1/me/, who the credentials belong to;
POST /api/v1/auth/token/rotate/, a new token for the caller (the old one stops working);
GET/PATCH /api/v1/me/profile/, the caller's display name, language and time zone;
GET /api/v1/me/data/, the caller's personal data. The new endpoints
take JSON bodies only."""

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import authenticate, get_user_model
from django.urls import path
from django.utils.translation import gettext as _
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
from api.parsers import SafeJSONParser
from api.serializers.auth import (
    MeSerializer,
    PersonalDataSerializer,
    ProfileSerializer,
    ProfileStrict,
    TokenRotateSerializer,
    TokenSerializer,
)
from campaigns.services.accounts import profile_read, profile_update, token_rotate
from league.selectors.accounts import personal_data

LOCKED = ("Too many failed logins for this account or from your address. Try again later or "
          "ask an administrator to unlock it.")


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
    # ObtainAuthToken sets form and multipart parsers: JSON only, like every JSON endpoint
    # (a generated client sends one body type).
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    # Logging in takes the credentials in the body, never a token or a session: the schema
    # then lists no security for it, and a generated client logs in with a plain Client
    #. Without SessionAuthentication there is no CSRF check, and none is needed:
    # the answer goes to the caller, and only JSON (a CORS-preflighted type) is parsed.
    authentication_classes: list = []

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


class TokenRotateView(APIView):
    """A new API token for the caller, given their current password (``current_password``);
    the token used for this request (if any) and every other token of the caller stop
    working. Throttled like the other account actions."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [SafeJSONParser]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "account"

    @extend_schema(request=TokenRotateSerializer,
                   responses={200: TokenSerializer, **error_responses(400, 401, 429)})
    def post(self, request):
        """Needs the caller's current password: a token or session alone cannot replace the
        token. Checked through django-axes, so failures count towards the lockout."""
        data = TokenRotateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        username = request.user.get_username()
        if AxesProxyHandler.is_locked(request._request, {"username": username}):
            return json_error(status.HTTP_429_TOO_MANY_REQUESTS, LOCKED, "locked_out")
        if authenticate(request._request, username=username,
                        password=data.validated_data["current_password"]) is None:
            raise serializers.ValidationError(
                {"current_password": [_("Your password was entered incorrectly.")]})
        return Response({"token": token_rotate(user=request.user).key})


def _profile(profile) -> dict:
    return {"display_name": profile.display_name, "language": profile.language,
            "time_zone": profile.time_zone}


class MyProfileView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [SafeJSONParser]

    @extend_schema(responses={200: ProfileSerializer, **error_responses(401)})
    def get(self, request):
        """The caller's profile."""
        return Response(_profile(profile_read(request.user)))

    @extend_schema(request=ProfileSerializer,
                   responses={200: ProfileSerializer, **error_responses(400, 401)})
    def patch(self, request):
        """Change the fields given; the others keep their value."""
        data = ProfileStrict(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(_profile(profile_update(user=request.user, **data.validated_data)))


class MyDataView(APIView):
    """Everything the site stores that the caller entered or that describes them: account,
    profile, seats, per seat their own purchases, declarations, army lists, conquest choices,
    date proposals and notification switches, and the results they reported."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: PersonalDataSerializer, **error_responses(401)})
    def get(self, request):
        return Response(personal_data(request.user))


urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="token"),
    path("auth/token/rotate/", TokenRotateView.as_view(), name="token-rotate"),
    path("me/", MeView.as_view(), name="me"),
    path("me/profile/", MyProfileView.as_view(), name="my-profile"),
    path("me/data/", MyDataView.as_view(), name="my-data"),
]
