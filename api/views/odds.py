"""API: the naval battle odds preview (R-ODDS-1; API.md "Fleets and naval battles",
``POST /odds/naval/``). Two fleets in the fleet shape are fought up to ``simulations`` times
with the real engine and a seeded PRNG of the request's own (R-DICE-4); nothing is stored or
logged. The work is bounded and so are the previews in flight (``fleets.services.odds``): a
preview may fight fewer battles than asked, never fewer than 1,000, and says how many and why
(``simulations``, ``stop_reason``)."""

from collections.abc import Mapping

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions, serializers
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from api.base import error_responses
from api.parsers import SafeJSONParser
from api.serializers.odds import OddsRequestSerializer, OddsResultSerializer
from fleets.messages import ship_value_text
from fleets.services.odds import PreviewsBusy, odds_preview_run
from rules.ship_values import ProblemError


def error_paths(errors, prefix: str = "") -> dict[str, list[str]]:
    """Nested serializer errors as ``{"attacker.ships[0].attack": [messages]}``."""
    if isinstance(errors, Mapping):
        found: dict[str, list[str]] = {}
        for key, value in errors.items():
            name = f"{prefix}[{key}]" if isinstance(key, int) else \
                f"{prefix}.{key}" if prefix else str(key)
            found.update(error_paths(value, name))
        return found
    if isinstance(errors, list) and any(isinstance(e, Mapping | list) for e in errors):
        found = {}
        for i, value in enumerate(errors):
            found.update(error_paths(value, f"{prefix}[{i}]"))
        return found
    messages = errors if isinstance(errors, list) else [errors]
    return {prefix or "non_field_errors": [str(m) for m in messages]} if messages else {}


def _invalid(errors: dict[str, list[str]]) -> serializers.ValidationError:
    """A 400 in the API's shape; ``code`` names the rule a field comes from."""
    error = serializers.ValidationError(errors)
    if "simulations" in errors:
        error.rule = "R-ODDS-1"
    elif any(key.endswith(".datasheet") for key in errors):
        error.rule = "R-SPC-1"
    return error


class NavalOdds(APIView):
    """Seconds of CPU per call: the ``odds`` throttle scope (settings) bounds a user's rate."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [SafeJSONParser]  # nested fleets: JSON only
    throttle_classes = [UserRateThrottle, ScopedRateThrottle]  # the user's rate and "odds"
    throttle_scope = "odds"

    @extend_schema(tags=["fleets"], summary="Odds preview of a naval battle (R-ODDS-1)",
                   request=OddsRequestSerializer,
                   responses={200: OddsResultSerializer, **error_responses(400, 401, 429)})
    def post(self, request):
        """Fight the two fleets up to ``simulations`` times (1,000 to 10,000, default 10,000)
        with the real engine and a fresh PRNG; outcomes as fractions with 95% intervals. From
        1,000 battles on the preview may stop early, when every interval is within 1
        percentage point either side or its work budget is spent (never on the server's
        load), and always says how many battles ran and why (``simulations``,
        ``stop_reason``: requested, precise or work_budget; ``stopped_early``,
        ``half_width``). At most one preview per user and two on the site run at once: 429
        with Retry-After otherwise."""
        serializer = OddsRequestSerializer(data=request.data)
        if not serializer.is_valid():
            raise _invalid(error_paths(serializer.errors))
        data = serializer.validated_data
        try:
            result = odds_preview_run(user=request.user, engine=data["engine"],
                                      attacker=data["attacker"], defender=data["defender"],
                                      simulations=data["simulations"])
        except PreviewsBusy as busy:
            raise exceptions.Throttled(wait=busy.retry_after, detail=busy.message) from None
        except ProblemError as error:  # the rules' ship checks, should the serializers miss one
            raise _invalid({error.problem.path: [ship_value_text(error.problem)]}) from None
        except ValueError as error:  # the rules' own checks, should the serializers miss one
            where, _, message = str(error).partition(": ")
            raise _invalid({where: [message or where]}) from None
        return Response(result.as_dict())


urlpatterns = [path("odds/naval/", NavalOdds.as_view(), name="odds-naval")]
