"""Shared pieces of the campaign-scoped API views."""

from functools import cached_property

from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework import exceptions, serializers
from rest_framework.views import APIView

from api.authentication import language_settled
from campaigns import access, languages
from campaigns.models import Round
from league.services import readiness


class ErrorSerializer(serializers.Serializer):
    """The API's error shape (API.md General)."""

    detail = serializers.CharField()
    code = serializers.CharField()
    errors = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))


def error_responses(*statuses: int) -> dict:
    return {status: ErrorSerializer for status in statuses}


def validated(serializer_class, data, **context) -> dict:
    """``data`` checked by ``serializer_class``; a 400 in the API's error shape otherwise."""
    serializer = serializer_class(data=data, context=context)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class CampaignScoped(APIView):
    """A view under /campaigns/{campaign_id}/: the campaign is 404 unless the caller may see it."""

    # a view may read what it shows with the campaign, in the same query
    campaign_rows = None

    @cached_property
    def campaign(self):
        campaign = access.get_visible_campaign(self.request.user, self.kwargs["campaign_id"],
                                               self.campaign_rows)
        if not language_settled(self.request):  # nor header nor profile: the campaign's
            translation.activate(languages.campaign_language(campaign))
        return campaign

    @property
    def is_admin(self) -> bool:
        return access.is_campaign_admin(self.request.user, self.campaign)

    @property
    def player(self):
        return access.player_of(self.request.user, self.campaign)

    def require_authenticated(self) -> None:
        if not self.request.user.is_authenticated:
            raise exceptions.NotAuthenticated()

    def require_admin(self) -> None:
        """401 anonymous, 404 if the campaign is hidden, 403 for a non-admin who can see it."""
        self.require_authenticated()
        if not self.is_admin:
            raise exceptions.PermissionDenied(_("Only a campaign admin may do this."))

    def require_member(self) -> None:
        self.require_authenticated()
        if not access.is_member(self.request.user, self.campaign):
            raise exceptions.PermissionDenied(_("Only members of this campaign may do this."))

    def require_player(self):
        self.require_authenticated()
        player = self.player
        if player is None:
            raise exceptions.PermissionDenied(_("Only players of this campaign may do this."))
        return player


class RoundScoped(CampaignScoped):
    # No docstring: the schema describes a view without one by CampaignScoped's docstring.
    def get_round(self) -> Round:
        return get_object_or_404(Round, campaign=self.campaign, number=self.kwargs["number"])


def advance_if_ready(round_id: int) -> bool:
    """After a player's input committed: the phase advances at once if everyone who can act
    in it is done (R-RND-2 [reading]); a failure is left to the periodic job."""
    return readiness.advance_if_ready(round_id=round_id)


def campaign_advance_if_ready(campaign_id: int) -> bool:
    """``advance_if_ready`` for the campaign's current round, after an input that names no
    round (an absence, a seat handed over) committed."""
    return readiness.campaign_advance_if_ready(campaign_id=campaign_id)
