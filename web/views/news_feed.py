"""/campaigns/<id>/feed.atom: the campaign's events as an Atom feed, built
with Django's syndication framework. Without a token: a public campaign's public events (any
other campaign is 404). With ``?token=`` (the member's personal calendar secret, the same one
the calendar feed uses): the events for members too. The admins' events (disputes) and the
names of who still owes input stay out of every feed; so does anything hidden (R-FLT-7).
Its texts are in the campaign's language (``campaigns.languages``), or with ``?token=`` in the
member's own profile language if they chose one: a feed reader's headers say nothing of its
reader."""

from dataclasses import dataclass

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.http import Http404
from django.utils import translation
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _

from battles.services.feeds import user_for_token
from campaigns import access, languages, webhooks
from campaigns.models import Campaign, CampaignEvent, Profile
from campaigns.services.events import campaign_facts

LIMIT = 50


@dataclass(frozen=True)
class Reading:
    campaign: Campaign
    audiences: tuple[str, ...]
    about: dict
    language: str


class TextSummaryAtomFeed(Atom1Feed):
    """Django writes every summary as ``type="html"``, escaped once: a reader would then run
    a display name, a planet name or a pause reason as HTML. Ours are plain text, so say so
    (titles carry no type, which Atom reads as text already)."""

    def add_item_elements(self, handler, item):
        super().add_item_elements(handler, {**item, "description": None})
        if item["description"] is not None:
            handler.addQuickElement("summary", item["description"], {"type": "text"})


class CampaignNewsFeed(Feed):
    feed_type = TextSummaryAtomFeed

    def get_object(self, request, campaign_id: int) -> Reading:
        campaign = Campaign.objects.filter(pk=campaign_id, is_sandbox=False).first()
        if campaign is None:
            raise Http404
        if "token" in request.GET:
            user = user_for_token(request.GET.get("token"))
            if user is None or not access.is_member(user, campaign) and \
                    not access.is_campaign_admin(user, campaign):
                raise Http404
            audiences = ("public", "members")
            language = languages.profile_language(
                Profile.objects.only("language").filter(user=user).first())
        elif campaign.visibility == Campaign.Visibility.PUBLIC:
            audiences, language = ("public",), None
        else:
            raise Http404
        return Reading(campaign, audiences, campaign_facts(campaign),
                       language or languages.campaign_language(campaign))

    def get_feed(self, obj: Reading, request):
        """Titles, summaries and ``xml:lang`` in the reading's language."""
        with translation.override(obj.language):
            return super().get_feed(obj, request)

    def title(self, obj: Reading) -> str:
        return _("%(name)s: news") % {"name": obj.campaign.name}

    def link(self, obj: Reading) -> str:
        return obj.about["url"]

    def subtitle(self, obj: Reading) -> str:
        return _("What happened in the campaign, newest first.")

    def feed_guid(self, obj: Reading) -> str:
        return f"tag:{settings.SITE_HOST or 'feldzug'},2026:campaign-{obj.campaign.pk}/news"

    def items(self, obj: Reading) -> list[dict]:
        rows = CampaignEvent.objects.filter(campaign=obj.campaign, audience__in=obj.audiences) \
            .order_by("-at", "-id")[:LIMIT]
        return [{"event": row, "stored": webhooks.payload(
            kind=row.kind, key=row.key, at=row.at, campaign=obj.about,
            data={k: v for k, v in row.facts.items() if k != "owing"})} for row in rows]

    def item_title(self, item: dict) -> str:
        kind = item["event"].kind
        return str(webhooks.KINDS[kind][1]) if kind in webhooks.KINDS else kind

    def item_description(self, item: dict) -> str:
        return webhooks.summary(item["stored"])

    def item_link(self, item: dict) -> str:
        return item["stored"]["data"].get("link") or item["stored"]["campaign"]["url"]

    def item_guid(self, item: dict) -> str:
        return (f"tag:{settings.SITE_HOST or 'feldzug'},2026:campaign-"
                f"{item['event'].campaign_id}/event/{item['event'].pk}")

    item_guid_is_permalink = False

    def item_pubdate(self, item: dict):
        return item["event"].at

    def item_updateddate(self, item: dict):
        return item["event"].at


campaign_news_feed = CampaignNewsFeed()
