"""Permission matrix (R-SEC, R-ARM-3, R-FLT-7, R-DICE-2; API.md General): every endpoint under
/api/v1/ (read from the URL conf) and every method, for six roles, answers the status in its
row, and no answer carries a hidden value the role may not see. An endpoint without a row
fails ``test_every_endpoint_has_a_row``.

Statuses are in ROLES order: anonymous, non-member, player (anna), other player (ben),
campaign admin, site admin. ``private`` is the private campaign in ``lists`` (tests/worlds.py);
``public`` the public demo campaign in ``declare``, where its behaviour differs. Writes send an
empty JSON object, so allowed callers get 200/201/204, 400 (input) or 409 (phase); every
request runs in a savepoint that is rolled back, so each role meets the same world."""

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from tests.worlds import OTHER, OWNER_AND_ADMINS, PLAYER, ROLES, Scope, SecurityWorld

pytestmark = pytest.mark.django_db
Kwargs = Callable[[Scope], dict]
Statuses = tuple[int, int, int, int, int, int]
PUBLIC_FLEET_KEYS = {"id", "owner", "area", "kind", "ship_count"}


@dataclass(frozen=True)
class Row:
    kwargs: Kwargs
    private: Statuses
    public: Statuses | None = None  # None: the demo campaign is not asked


def none(s: Scope) -> dict:
    return {}


def camp(s: Scope) -> dict:
    return {"campaign_id": s.campaign}


def pk(field: str) -> Kwargs:
    return lambda s: {"campaign_id": s.campaign, "pk": getattr(s, field)}


def rnd(s: Scope) -> dict:
    return {"campaign_id": s.campaign, "number": s.round}


def attack(s: Scope) -> dict:
    return {**rnd(s), "attack_id": s.attack}


def battle(s: Scope) -> dict:
    return {"campaign_id": s.campaign, "battle_id": s.battle}


def fleet(s: Scope) -> dict:
    return {"campaign_id": s.campaign, "fleet_id": s.fleet}


def ship(s: Scope) -> dict:
    return {**fleet(s), "ship_id": s.ship}


def hazard(s: Scope) -> dict:
    return {"campaign_id": s.campaign, "hazard_id": s.hazard}


def naval(s: Scope) -> dict:
    return {"campaign_id": s.campaign, "battle_id": s.naval}


def seat(s: Scope) -> dict:
    return {"campaign_id": s.campaign, "player_id": s.player}


def invitation(s: Scope) -> dict:
    """An e-mail invitation of the scope's campaign, made for the row (rolled back with it)."""
    from campaigns.models import Invitation

    found, _ = Invitation.objects.get_or_create(
        campaign_id=s.campaign, token_hash=f"{s.campaign:064d}",
        defaults={"kind": "email", "max_uses": 1, "email": "matrix@example.org"})
    return {"campaign_id": s.campaign, "invitation_id": found.pk}


def admin(s: Scope) -> dict:
    """The campaign's first admin (its only one: removing them is refused, 409 last_admin)."""
    return {"campaign_id": s.campaign, "user_id": s.admin}


def token(s: Scope) -> dict:
    """A link invitation's token for the scope's campaign."""
    from campaigns.models import Campaign
    from campaigns.services.invitations import invitation_link_create

    campaign = Campaign.objects.get(pk=s.campaign)
    return {"token": invitation_link_create(campaign=campaign, by=None)[1]}


def join_request(s: Scope) -> dict:
    """A pending join request of a user outside the campaign."""
    from campaigns.models import JoinRequest
    from tests.factories import UserFactory

    found, _ = JoinRequest.objects.get_or_create(campaign_id=s.campaign,
                                                 user=UserFactory(username="asker"),
                                                 status=JoinRequest.Status.PENDING)
    return {"campaign_id": s.campaign, "request_id": found.pk}


def absence(s: Scope) -> dict:
    """A future absence of the player's seat; withdrawing it: 204."""
    from datetime import timedelta

    from django.utils import timezone

    from campaigns.models import Absence, Campaign, Player
    from campaigns.selectors.absences import campaign_day

    day = campaign_day(Campaign.objects.get(pk=s.campaign), timezone.now()) + timedelta(days=3)
    seat = Player.objects.get(campaign_id=s.campaign, user__username="anna")
    found, _ = Absence.objects.get_or_create(player=seat, starts_on=day, ends_on=day)
    return {"campaign_id": s.campaign, "absence_id": found.pk}


def webhook(s: Scope) -> dict:
    """A webhook of the scope's campaign, made for the row (rolled back with it)."""
    from campaigns.models import Webhook

    found, _ = Webhook.objects.get_or_create(
        campaign_id=s.campaign, url="https://hooks.example.org/matrix",
        defaults={"kind": "json", "events": ["round_closed"], "secret": "matrix-secret"})
    return {"campaign_id": s.campaign, "hook_id": found.pk}


ALL_200 = (200,) * 6
NOT_FOUND = (404,) * 6
READ = (404, 404, 200, 200, 200, 200)  # members, or anyone if public
MEMBERS = (401, 404, 200, 200, 200, 200)
MEMBERS_PUBLIC = (401, 403, 200, 200, 200, 200)
ADMIN_400 = (401, 404, 403, 403, 400, 400)
SIGNED_IN = (401, 200, 200, 200, 200, 200)
ADMIN_ONLY = (401, 404, 403, 403, 200, 200)  # webhooks
ADMIN_ONLY_PUBLIC = (401, 403, 403, 403, 200, 200)
STAFF_ONLY = (401, 403, 403, 403, 403, 200)

ROWS: dict[tuple[str, str], Row] = {
    ("token", "POST"): Row(none, (400,) * 6),
    ("me", "GET"): Row(none, SIGNED_IN),
    # token rotation without the current password (tests/api/test_accounts.py): 400
    ("token-rotate", "POST"): Row(none, (401, 400, 400, 400, 400, 400)),
    ("my-profile", "GET"): Row(none, SIGNED_IN),
    ("my-profile", "PATCH"): Row(none, SIGNED_IN),
    ("my-data", "GET"): Row(none, SIGNED_IN),  # own data only (tests/api/test_accounts.py)
    ("campaign-list", "GET"): Row(none, ALL_200),
    ("campaign-list", "POST"): Row(none, (401, 403, 403, 403, 403, 400)),
    ("campaign-detail", "GET"): Row(camp, READ, ALL_200),
    ("campaign-detail", "PATCH"): Row(camp, (401, 404, 403, 403, 200, 200),
                                      (401, 403, 403, 403, 200, 200)),
    ("player-list", "GET"): Row(camp, READ, ALL_200),
    ("player-list", "POST"): Row(camp, ADMIN_400, (401, 403, 403, 403, 400, 400)),
    # campaign admins: campaign admins only, the last one stays
    ("admin-list", "GET"): Row(camp, (401, 404, 403, 403, 200, 200),
                               (401, 403, 403, 403, 200, 200)),
    ("admin-list", "POST"): Row(camp, ADMIN_400, (401, 403, 403, 403, 400, 400)),
    ("admin-detail", "DELETE"): Row(admin, (401, 404, 403, 403, 409, 409),
                                    (401, 403, 403, 403, 409, 409)),
    # the organiser's dashboard and nudges, campaign admins only
    ("dashboard", "GET"): Row(camp, (401, 404, 403, 403, 200, 200),
                              (401, 403, 403, 403, 200, 200)),
    ("nudges", "POST"): Row(camp, (401, 404, 403, 403, 200, 200),
                            (401, 403, 403, 403, 200, 200)),
    ("my-notifications", "GET"): Row(camp, (401, 404, 200, 200, 403, 403),
                                     (401, 403, 200, 200, 403, 403)),
    ("my-notifications", "PATCH"): Row(camp, (401, 404, 200, 200, 403, 403)),
    ("map", "GET"): Row(camp, READ, ALL_200),
    ("map-import", "POST"): Row(camp, ADMIN_400),
    ("planets-list", "POST"): Row(camp, ADMIN_400),
    ("planets-detail", "GET"): Row(pk("planet"), READ, ALL_200),
    ("planets-detail", "PATCH"): Row(pk("planet"), (401, 404, 403, 403, 200, 200)),
    ("planets-detail", "DELETE"): Row(pk("planet"), (401, 404, 403, 403, 409, 409)),
    ("tiles-list", "POST"): Row(camp, ADMIN_400),
    ("tiles-detail", "GET"): Row(pk("tile"), READ, ALL_200),
    ("tiles-detail", "PATCH"): Row(pk("tile"), (401, 404, 403, 403, 200, 200)),
    ("tiles-detail", "DELETE"): Row(pk("tile"), (401, 404, 403, 403, 204, 204)),
    ("links-list", "POST"): Row(camp, ADMIN_400),
    ("links-detail", "GET"): Row(pk("link"), READ, ALL_200),
    ("links-detail", "DELETE"): Row(pk("link"), (401, 404, 403, 403, 204, 204)),
    ("areas-list", "POST"): Row(camp, ADMIN_400),
    ("areas-detail", "GET"): Row(pk("area"), READ, ALL_200),
    ("areas-detail", "PATCH"): Row(pk("area"), (401, 404, 403, 403, 200, 200)),
    ("areas-detail", "DELETE"): Row(pk("area"), (401, 404, 403, 403, 409, 409)),
    ("markers-list", "POST"): Row(camp, ADMIN_400),
    ("markers-detail", "GET"): Row(pk("marker"), READ, ALL_200),
    ("markers-detail", "PATCH"): Row(pk("marker"), (401, 404, 403, 403, 200, 200)),
    ("markers-detail", "DELETE"): Row(pk("marker"), (401, 404, 403, 403, 204, 204)),
    ("round-list", "GET"): Row(camp, READ, ALL_200),
    ("round-detail", "GET"): Row(rnd, READ, ALL_200),
    ("round-detail", "PATCH"): Row(rnd, ADMIN_400),
    ("round-rolls", "GET"): Row(rnd, READ, ALL_200),
    ("round-verify", "GET"): Row(rnd, (404, 404, 409, 409, 409, 409), (409,) * 6),
    # map history: read like the map; both rounds are open (409 until they close)
    ("round-map", "GET"): Row(rnd, (404, 404, 409, 409, 409, 409), (409,) * 6),
    ("advance", "POST"): Row(camp, (401, 404, 403, 403, 200, 200),
                             (401, 403, 403, 403, 200, 200)),
    ("standings", "GET"): Row(camp, READ, ALL_200),
    ("purchases", "POST"): Row(rnd, (401, 404, 409, 409, 403, 403),
                               (401, 403, 400, 400, 403, 403)),
    ("attack-list", "GET"): Row(rnd, MEMBERS, MEMBERS_PUBLIC),
    ("attack-list", "POST"): Row(rnd, (401, 404, 409, 409, 403, 403),
                                 (401, 403, 400, 400, 403, 403)),
    ("attack-detail", "GET"): Row(attack, MEMBERS, (401, 403, 200, 404, 200, 200)),
    ("attack-detail", "DELETE"): Row(attack, (401, 404, 409, 403, 403, 403),
                                     (401, 403, 204, 404, 403, 403)),
    ("battle-list", "GET"): Row(camp, MEMBERS, MEMBERS_PUBLIC),
    ("battle-detail", "GET"): Row(battle, MEMBERS),
    ("battle-result", "POST"): Row(battle, (401, 404, 409, 409, 409, 409)),
    ("battle-result-confirm", "POST"): Row(battle, (401, 404, 409, 409, 403, 403)),
    ("battle-result-dispute", "POST"): Row(battle, (401, 404, 409, 409, 403, 403)),
    ("round-conquest", "GET"): Row(rnd, (401, 404, 200, 200, 403, 403),
                                   (401, 403, 200, 200, 403, 403)),
    ("round-conquest", "POST"): Row(rnd, (401, 404, 409, 409, 403, 403)),
    ("battle-conquest", "GET"): Row(battle, MEMBERS),  # R-CON-6/7: odds, then the roll
    ("battle-conquest", "POST"): Row(battle, (401, 404, 409, 409, 403, 403)),
    ("battle-army-list", "GET"): Row(battle, MEMBERS),
    ("battle-army-list", "POST"): Row(battle, (401, 404, 400, 400, 403, 403)),
    # a JSON body to the upload (multipart only) gets as far as the parser: 415
    ("battle-army-list-upload", "POST"): Row(battle, (401, 404, 415, 415, 403, 403)),
    ("battle-schedule", "POST"): Row(battle, (401, 404, 400, 400, 403, 403)),
    ("battle-schedule-accept", "POST"): Row(battle, (401, 404, 409, 409, 403, 403)),
    ("campaign-calendar", "GET"): Row(camp, MEMBERS, MEMBERS_PUBLIC),
    ("my-calendar", "GET"): Row(none, (404,) * 6),
    ("my-calendar-token", "GET"): Row(none, SIGNED_IN),
    ("my-calendar-token", "POST"): Row(none, SIGNED_IN),
    ("fleet-list", "GET"): Row(camp, READ, ALL_200),
    ("fleet-list", "POST"): Row(camp, ADMIN_400),
    ("fleet-detail", "GET"): Row(fleet, READ, ALL_200),
    ("fleet-detail", "DELETE"): Row(fleet, (401, 404, 403, 403, 204, 204)),
    # the map editor: the admin's corrections of fleets, ships and hazards
    ("fleet-detail", "PATCH"): Row(fleet, (401, 404, 403, 403, 200, 200)),
    ("fleet-ship-detail", "PATCH"): Row(ship, (401, 404, 403, 403, 200, 200)),
    ("fleet-ship-detail", "DELETE"): Row(ship, (401, 404, 403, 403, 204, 204)),
    ("fleet-ships", "POST"): Row(fleet, ADMIN_400),
    ("fleet-orders", "PUT"): Row(fleet, (401, 404, 409, 403, 403, 403),
                                 (401, 403, 400, 403, 403, 403)),
    ("fleet-standing-orders", "PATCH"): Row(fleet, (401, 404, 200, 403, 403, 403)),
    ("ship-embark", "POST"): Row(ship, (401, 404, 409, 403, 403, 403)),
    ("ship-disembark", "POST"): Row(ship, (401, 404, 409, 403, 403, 403)),
    ("hazard-list", "GET"): Row(camp, MEMBERS, MEMBERS_PUBLIC),
    ("hazard-list", "POST"): Row(camp, (401, 404, 409, 409, 400, 400)),
    ("hazard-detail", "GET"): Row(hazard, (401, 404, 404, 404, 200, 200),
                                  (401, 403, 404, 404, 200, 200)),
    ("hazard-detail", "DELETE"): Row(hazard, (401, 404, 404, 404, 204, 204)),
    ("hazard-detail", "PATCH"): Row(hazard, (401, 404, 404, 404, 200, 200)),
    ("fleet-phase", "GET"): Row(rnd, (401, 404, 403, 403, 200, 200),
                                (401, 403, 403, 403, 404, 404)),
    # R-FLT-7: whoever reads the campaign; the demo's battle is before the fleets phase ended
    ("naval-battle-list", "GET"): Row(camp, READ, ALL_200),
    ("naval-battle-detail", "GET"): Row(naval, READ, NOT_FOUND),
    ("odds-naval", "POST"): Row(none, (401, 400, 400, 400, 400, 400)),
    # invitations (campaign admin), the token's holder, join requests
    ("invitation-list", "GET"): Row(camp, (401, 404, 403, 403, 200, 200),
                                    (401, 403, 403, 403, 200, 200)),
    ("invitation-list", "POST"): Row(camp, ADMIN_400, (401, 403, 403, 403, 400, 400)),
    ("invitation-links", "POST"): Row(camp, (401, 404, 403, 403, 201, 201),
                                      (401, 403, 403, 403, 201, 201)),
    ("invitation-resend", "POST"): Row(invitation, (401, 404, 403, 403, 200, 200)),
    ("invitation-revoke", "POST"): Row(invitation, (401, 404, 403, 403, 200, 200),
                                       (401, 403, 403, 403, 200, 200)),
    ("my-invitations", "GET"): Row(none, SIGNED_IN),
    ("invitation-detail", "GET"): Row(token, ALL_200),
    # players accepting again change nothing (200); others must name a faction (400)
    ("invitation-detail", "POST"): Row(token, (401, 400, 200, 200, 400, 400)),
    ("join-request-list", "GET"): Row(camp, MEMBERS, SIGNED_IN),
    ("join-request-list", "POST"): Row(camp, (401, 404, 409, 409, 409, 409),
                                       (401, 409, 409, 409, 409, 409)),
    ("join-request-accept", "POST"): Row(join_request, ADMIN_400,
                                         (401, 403, 403, 403, 400, 400)),
    ("join-request-decline", "POST"): Row(join_request, (401, 404, 403, 403, 200, 200)),
    # managing players (the player's own seat: still admin only); both
    # campaigns run, so a player is replaced, not removed (409)
    ("player-detail", "GET"): Row(seat, READ, ALL_200),
    ("player-detail", "PATCH"): Row(seat, (401, 404, 403, 403, 200, 200),
                                    (401, 403, 403, 403, 200, 200)),
    ("player-detail", "DELETE"): Row(seat, (401, 404, 403, 403, 409, 409),
                                     (401, 403, 403, 403, 409, 409)),
    ("player-replace", "POST"): Row(seat, ADMIN_400, (401, 403, 403, 403, 400, 400)),
    # the audit log; members read the public entries, admins all
    ("audit-log", "GET"): Row(camp, MEMBERS, MEMBERS_PUBLIC),
    # absences; members read the dates, a player withdraws their own
    ("absence-list", "GET"): Row(camp, MEMBERS, MEMBERS_PUBLIC),
    ("absence-list", "POST"): Row(camp, (401, 404, 400, 400, 400, 400),
                                  (401, 403, 400, 400, 400, 400)),
    ("absence-detail", "DELETE"): Row(absence, (401, 404, 204, 403, 204, 204),
                                      (401, 403, 204, 403, 204, 204)),
    # the archive (admins; no hidden facts of the open round), importing
    # one (staff users, as creating a campaign), the sandbox copy (admins)
    ("campaign-archive", "GET"): Row(camp, (401, 404, 403, 403, 200, 200),
                                     (401, 403, 403, 403, 200, 200)),
    ("campaign-import", "POST"): Row(none, (401, 403, 403, 403, 403, 400)),
    ("campaign-sandbox", "POST"): Row(camp, (401, 404, 403, 403, 201, 201),
                                      (401, 403, 403, 403, 201, 201)),
    # pause, resume (409: not paused), extend ({} has no hours: 400)
    ("campaign-pause", "POST"): Row(camp, (401, 404, 403, 403, 200, 200),
                                    (401, 403, 403, 403, 200, 200)),
    ("campaign-resume", "POST"): Row(camp, (401, 404, 403, 403, 409, 409),
                                     (401, 403, 403, 403, 409, 409)),
    ("round-extend", "POST"): Row(camp, ADMIN_400, (401, 403, 403, 403, 400, 400)),
    # "done for this phase"; members read the counts, players mark
    ("round-current-done", "GET"): Row(camp, MEMBERS, MEMBERS_PUBLIC),
    ("round-current-done", "POST"): Row(camp, (401, 404, 201, 201, 403, 403),
                                        (401, 403, 201, 201, 403, 403)),
    ("round-current-done", "DELETE"): Row(camp, (401, 404, 200, 200, 403, 403),
                                          (401, 403, 200, 200, 403, 403)),
    # webhooks, campaign admins only ({} has no URL: 400; the test event: 202)
    ("webhook-list", "GET"): Row(camp, ADMIN_ONLY, ADMIN_ONLY_PUBLIC),
    ("webhook-list", "POST"): Row(camp, ADMIN_400, (401, 403, 403, 403, 400, 400)),
    ("webhook-detail", "GET"): Row(webhook, ADMIN_ONLY, ADMIN_ONLY_PUBLIC),
    ("webhook-detail", "PATCH"): Row(webhook, ADMIN_ONLY, ADMIN_ONLY_PUBLIC),
    ("webhook-detail", "DELETE"): Row(webhook, (401, 404, 403, 403, 204, 204),
                                      (401, 403, 403, 403, 204, 204)),
    ("webhook-deliveries", "GET"): Row(webhook, ADMIN_ONLY, ADMIN_ONLY_PUBLIC),
    ("webhook-test", "POST"): Row(webhook, (401, 404, 403, 403, 202, 202),
                                  (401, 403, 403, 403, 202, 202)),
    # the organiser's corrections (R-SEC-2): campaign admins only; {} has no reason: 400
    ("player-armies", "POST"): Row(seat, ADMIN_400, (401, 403, 403, 403, 400, 400)),
    ("player-done", "POST"): Row(seat, ADMIN_400, (401, 403, 403, 403, 400, 400)),
    ("player-away", "POST"): Row(seat, ADMIN_400, (401, 403, 403, 403, 400, 400)),
    ("attack-cancel", "POST"): Row(attack, ADMIN_400, (401, 403, 403, 403, 400, 400)),
    ("battle-result-correct", "POST"): Row(battle, ADMIN_400),
    ("battle-result-void", "POST"): Row(battle, ADMIN_400),
    # the site's own settings: staff users only (a site-wide page, nothing to hide)
    ("site-settings", "GET"): Row(none, STAFF_ONLY),
    ("site-settings", "PATCH"): Row(none, STAFF_ONLY),
}


def foreign(make: Kwargs, field: str, key: str | None = None) -> Callable[[SecurityWorld], dict]:
    """``make`` in the private campaign, with ``field`` taken from the foreign campaign."""
    return lambda w: {**make(w.private), key or field: getattr(w.foreign, field)}


def swap(make: Kwargs, key: str, field: str) -> Callable[[SecurityWorld], dict]:
    """``make`` in the private campaign, with ``key`` set to another of its objects."""
    return lambda w: {**make(w.private), key: getattr(w.private, field)}


MEMBER_404 = (401, 404, 404, 404, 404, 404)
# Ids the caller may not see answer 404, never 403 (no existence oracle): another campaign's
# objects under the private campaign's path, the foreign campaign itself, hidden objects.
PROBES: dict[str, tuple[str, str, Callable[[SecurityWorld], dict], Statuses]] = {
    "foreign campaign": ("campaign-detail", "GET", lambda w: camp(w.foreign),
                         (404, 404, 404, 404, 404, 200)),
    "foreign campaign's fleets": ("fleet-list", "GET", lambda w: camp(w.foreign),
                                  (404, 404, 404, 404, 404, 200)),
    "foreign campaign's battles": ("battle-list", "GET", lambda w: camp(w.foreign),
                                   (401, 404, 404, 404, 404, 200)),
    "foreign planet": ("planets-detail", "GET", foreign(pk("planet"), "planet", "pk"),
                       NOT_FOUND),
    "foreign tile": ("tiles-detail", "PATCH", foreign(pk("tile"), "tile", "pk"),
                     (401, 404, 403, 403, 404, 404)),
    "foreign link": ("links-detail", "DELETE", foreign(pk("link"), "link", "pk"),
                     (401, 404, 403, 403, 404, 404)),
    "foreign area": ("areas-detail", "GET", foreign(pk("area"), "area", "pk"), NOT_FOUND),
    "foreign marker": ("markers-detail", "GET", foreign(pk("marker"), "marker", "pk"),
                       NOT_FOUND),
    "missing round": ("round-detail", "GET", lambda w: {**rnd(w.private), "number": 99},
                      NOT_FOUND),
    "foreign attack": ("attack-detail", "GET", foreign(attack, "attack", "attack_id"),
                       MEMBER_404),
    "foreign battle": ("battle-detail", "GET", foreign(battle, "battle", "battle_id"),
                       MEMBER_404),
    "foreign battle's lists": ("battle-army-list", "GET",
                               foreign(battle, "battle", "battle_id"), MEMBER_404),
    "foreign battle's result": ("battle-result", "POST",
                                foreign(battle, "battle", "battle_id"), MEMBER_404),
    "foreign battle's chain roll": ("battle-conquest", "GET",
                                    foreign(battle, "battle", "battle_id"), MEMBER_404),
    "foreign fleet": ("fleet-detail", "GET", foreign(fleet, "fleet", "fleet_id"), NOT_FOUND),
    "foreign fleet's orders": ("fleet-orders", "PUT", foreign(fleet, "fleet", "fleet_id"),
                               (401, 404, 404, 404, 403, 403)),
    "other player's fleet": ("fleet-detail", "GET", swap(fleet, "fleet_id", "other_fleet"),
                             READ),
    "other player's ship in own fleet": ("ship-embark", "POST",
                                         swap(ship, "ship_id", "other_ship"),
                                         (401, 404, 404, 403, 403, 403)),
    "foreign seat": ("player-detail", "PATCH", foreign(seat, "player", "player_id"),
                     (401, 404, 403, 403, 404, 404)),
    "foreign hazard": ("hazard-detail", "GET", foreign(hazard, "hazard", "hazard_id"),
                       MEMBER_404),
    "foreign naval battle": ("naval-battle-detail", "GET",
                             foreign(naval, "naval", "battle_id"), NOT_FOUND),
    # R-FLT-7: the other player did not fight the pirates: the summary, never the replay
    "naval battle against pirates": ("naval-battle-detail", "GET",
                                     swap(naval, "battle_id", "pirate_naval"), READ),
}


# --- the URL conf -----------------------------------------------------------------------------

def _walk(patterns, prefix: str = "", namespace: str = ""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = ":".join(filter(None, (namespace, pattern.namespace)))
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), namespace, pattern


def _methods(callback) -> list[str]:
    view = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    return [m.upper() for m in view.http_method_names
            if m not in ("options", "head") and hasattr(view, m)]


def api_endpoints() -> set[tuple[str, str]]:
    """(url name, method) of every route under /api/v1/."""
    found = set()
    for route, namespace, pattern in _walk(get_resolver().url_patterns):
        if route.startswith("api/v1/"):
            assert namespace == "api" and pattern.name, f"unnamed API route {route}"
            found |= {(pattern.name, method) for method in _methods(pattern.callback)}
    return found


def test_every_endpoint_has_a_row():
    endpoints = api_endpoints()
    missing = sorted(f"{method} {name}" for name, method in endpoints - ROWS.keys())
    stale = sorted(f"{method} {name}" for name, method in ROWS.keys() - endpoints)
    assert not missing, f"API endpoints without a permission matrix row: {missing}"
    assert not stale, f"permission matrix rows without an endpoint: {stale}"
    assert len(endpoints) >= 76


# --- asking -----------------------------------------------------------------------------------

def ask(world: SecurityWorld, role: str, method: str, url: str):
    """One request as ``role`` (DRF token), rolled back afterwards."""
    client = APIClient()
    token = world.tokens[role]
    if token:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    with transaction.atomic():
        response = getattr(client, method.lower())(url, {} if method != "GET" else None,
                                                   format="json" if method != "GET" else None)
        transaction.set_rollback(True)
    return response


def leaks(world: SecurityWorld, role: str, body: str) -> list[str]:
    return [word for word, seen_by in world.sentinels.items()
            if role not in seen_by and word in body]


def hidden_fleet_fields(world: SecurityWorld, role: str, data, scope: Scope) -> list[str]:
    """Fleet dicts (they carry ``ship_count``) with more than the public fields, of a fleet
    the role may not see in full (R-FLT-7)."""
    owners = {scope.fleet: OWNER_AND_ADMINS[PLAYER], scope.other_fleet: OWNER_AND_ADMINS[OTHER]}
    found = []
    if isinstance(data, dict):
        if "ship_count" in data and data.get("id") in owners and \
                role not in owners[data["id"]] and set(data) - PUBLIC_FLEET_KEYS:
            found.append(f"fleet {data['id']}: {sorted(set(data) - PUBLIC_FLEET_KEYS)}")
        values = data.values()
    elif isinstance(data, list):
        values = data
    else:
        return found
    for value in values:
        found += hidden_fleet_fields(world, role, value, scope)
    return found


def check(world: SecurityWorld, label: str, method: str, url: str, expected: Statuses,
          scope: Scope) -> list[str]:
    problems = []
    for role, status in zip(ROLES, expected, strict=True):
        response = ask(world, role, method, url)
        body = response.content.decode(errors="replace")
        if response.status_code != status:
            problems.append(f"{label} as {role}: {response.status_code}, expected {status}: "
                            f"{body[:200]}")
        problems += [f"{label} as {role} shows {word!r}" for word in leaks(world, role, body)]
        if response.get("Content-Type", "").startswith("application/json") and body:
            problems += [f"{label} as {role} shows {fields}" for fields in
                         hidden_fleet_fields(world, role, response.json(), scope)]
            if response.status_code >= 400:
                assert {"detail", "code"} <= set(response.json()), (label, role, body)
    return problems


def _ids(rows) -> list[str]:
    return [f"{method} {name}" for name, method in rows]


@pytest.mark.parametrize(("name", "method"), list(ROWS), ids=_ids(ROWS))
def test_private_campaign(security_world, name, method):
    row = ROWS[name, method]
    url = reverse(f"api:{name}", kwargs=row.kwargs(security_world.private))
    problems = check(security_world, f"{method} {url}", method, url, row.private,
                     security_world.private)
    assert not problems, "\n".join(problems)


PUBLIC_ROWS = [key for key, row in ROWS.items() if row.public is not None]


@pytest.mark.parametrize(("name", "method"), PUBLIC_ROWS, ids=_ids(PUBLIC_ROWS))
def test_public_campaign(security_world, name, method):
    row = ROWS[name, method]
    url = reverse(f"api:{name}", kwargs=row.kwargs(security_world.public))
    problems = check(security_world, f"{method} {url}", method, url, row.public,
                     security_world.public)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("probe", list(PROBES))
def test_hidden_and_foreign_ids_answer_404(security_world, probe):
    name, method, kwargs, expected = PROBES[probe]
    url = reverse(f"api:{name}", kwargs=kwargs(security_world))
    problems = check(security_world, f"{probe}: {method} {url}", method, url, expected,
                     security_world.private)
    assert not problems, "\n".join(problems)
