"""Writes for campaigns and their players (R-SEC-1, R-ECO-1, R-MRK-1, "Ruleset keys")."""

import re
from dataclasses import asdict

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.errors import RuleViolation
from campaigns.messages import ruleset_text
from campaigns.models import Campaign, MarkerType, Player
from campaigns.selectors.campaigns import ruleset_of
from campaigns.services import admin_log
from campaigns.services.accounts import time_zone_names
from campaigns.services.seats import seat_start
from rules.board import DEFAULT_MARKER_TYPES
from rules.ruleset import RulesetError, validate_ruleset

NAME_MAX = Campaign._meta.get_field("name").max_length
FACTION_MAX = Player._meta.get_field("faction").max_length
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_UNSET = object()


def _ruleset(data) -> dict:
    """The normalized ruleset; an error names its key as ``ruleset.<key>``."""
    try:
        return validate_ruleset(data)
    except RulesetError as exc:
        field = f"ruleset.{exc.key}" if exc.key else "ruleset"
        raise RuleViolation(ruleset_text(exc), field=field) from None


def _merged_ruleset(current: dict, patch) -> dict:
    """``patch`` applied over ``current``: keys not given keep their value, and a partial
    ``phase_hours`` changes only the phases it names."""
    _ruleset(patch)  # errors name keys of the patch, not of the stored ruleset
    merged = {**current, **patch}
    if isinstance(current.get("phase_hours"), dict):
        merged["phase_hours"] = {**current["phase_hours"], **patch.get("phase_hours", {})}
    return _ruleset(merged)


def _name(name) -> str:
    if not isinstance(name, str) or not name.strip():
        raise RuleViolation(_("A name is required."), field="name")
    if len(name) > NAME_MAX:
        raise RuleViolation(_("At most %(n)s characters.") % {"n": NAME_MAX}, field="name")
    if "\n" in name or "\r" in name:  # it heads pages, mail subjects and calendars
        raise RuleViolation(_("A name is one line."), field="name")
    return name.strip()


def _time_zone(value) -> str:
    """An IANA zone name the system knows (``Europe/Berlin``)."""
    if not isinstance(value, str) or value not in time_zone_names():
        raise RuleViolation(_("Unknown time zone: give an IANA name such as Europe/Berlin."),
                            code="invalid_time_zone", field="time_zone")
    return value


def _language(value) -> str:
    """The campaign's language, one the site offers (None: the site's)."""
    if value is None:
        return settings.LANGUAGE_CODE
    if not isinstance(value, str) or value not in dict(settings.LANGUAGES):
        raise RuleViolation(_("Unknown language."), code="invalid_language", field="language")
    return value


def _visibility(value) -> str:
    if value not in Campaign.Visibility.values:
        raise RuleViolation(_("Must be 'public' or 'private'."), field="visibility")
    return value


@transaction.atomic
def campaign_create(*, creator, name: str, ruleset: dict | None = None,
                    visibility: str = Campaign.Visibility.PRIVATE,
                    time_zone: str | None = None, language: str | None = None) -> Campaign:
    """A new campaign in ``setup``; the creator administers it; the default marker types
    are seeded (R-MRK-1). ``time_zone`` and ``language`` default to the site's."""
    zone = settings.CAMPAIGN_TIME_ZONE if time_zone is None else _time_zone(time_zone)
    campaign = Campaign.objects.create(name=_name(name), visibility=_visibility(visibility),
                                       ruleset=_ruleset(ruleset), time_zone=zone,
                                       language=_language(language))
    campaign.admins.add(creator)
    MarkerType.objects.bulk_create(MarkerType(campaign=campaign, **asdict(spec))
                                   for spec in DEFAULT_MARKER_TYPES)
    return campaign


@transaction.atomic
def campaign_update(*, campaign: Campaign, name=_UNSET, ruleset=_UNSET,
                    visibility=_UNSET, join_requests_open=_UNSET,
                    time_zone=_UNSET, language=_UNSET, actor=None) -> Campaign:
    """Change what is given. A ruleset is merged into the current one key by key and
    stored normalized; an invalid one is rejected naming the key. Each change is logged
    (the audit log): ``campaign.update`` and ``ruleset.update``, only the changed keys."""
    settings_before, ruleset_before = _settings(campaign), ruleset_of(campaign).as_dict()
    renamed = name is not _UNSET and (name := _name(name)) != campaign.name
    retold = language is not _UNSET and (language := _language(language)) != campaign.language
    if renamed:
        campaign.name = name
    if retold:  # for readers the site does not know (campaigns.languages)
        campaign.language = language
    if renamed or retold:  # calendar events show the name, in the campaign's language for
        # readers without their own: a change bumps them (R-BAT-2)
        campaign.name_revision = F("name_revision") + 1  # never lost to a concurrent rename
        campaign.name_changed_at = timezone.now()
    if visibility is not _UNSET:
        campaign.visibility = _visibility(visibility)
    if time_zone is not _UNSET:  # for members without their own and for visitors
        campaign.time_zone = _time_zone(time_zone)
    if join_requests_open is not _UNSET:  # public campaigns take join requests
        if not isinstance(join_requests_open, bool):
            raise RuleViolation(_("Must be true or false."), field="join_requests_open")
        campaign.join_requests_open = join_requests_open
    if ruleset is not _UNSET:
        if not isinstance(ruleset, dict):
            raise RuleViolation(_("The ruleset must be a JSON object."), field="ruleset")
        campaign.ruleset = _merged_ruleset(ruleset_of(campaign).as_dict(), ruleset)
    campaign.save()
    if renamed or retold:
        campaign.refresh_from_db(fields=["name_revision"])
    _log_update(campaign, actor, settings_before, ruleset_before)
    return campaign


def _settings(campaign: Campaign) -> dict:
    return {"name": campaign.name, "visibility": campaign.visibility,
            "time_zone": campaign.time_zone, "language": campaign.language,
            "join_requests_open": campaign.join_requests_open}


def _log_update(campaign: Campaign, actor, settings_before: dict, ruleset_before: dict) -> None:
    """Settings and ruleset changes, public (members read both anyway)."""
    for kind, before, after in (
            ("campaign.update", settings_before, _settings(campaign)),
            ("ruleset.update", ruleset_before, ruleset_of(campaign).as_dict())):
        old, new = admin_log.changed(before, after)
        if new or old:
            admin_log.record(campaign=campaign, actor=actor, kind=kind, target=campaign.name,
                             before=old, after=new)


def _user(user, username):
    User = get_user_model()
    if (user is None) == (username is None):
        raise RuleViolation(_("Give either a user id or a username."), field="user")
    if isinstance(user, User):
        return user
    if user is not None:
        if not isinstance(user, int) or isinstance(user, bool):
            raise RuleViolation(_("A user id is an integer."), field="user")
        found = User.objects.filter(pk=user).first()
        if found is None:
            raise RuleViolation(_("No such user."), field="user")
        return found
    found = (User.objects.filter(username=username).first()
             if isinstance(username, str) else None)
    if found is None:
        raise RuleViolation(_("No such user."), field="username")
    return found


def _colour(colour) -> str:
    if not isinstance(colour, str) or not COLOUR.fullmatch(colour):
        raise RuleViolation(_("A colour is written #rrggbb."), field="colour")
    return colour.lower()


def _faction(faction) -> str:
    if not isinstance(faction, str) or not faction.strip():
        raise RuleViolation(_("A faction is required."), field="faction")
    if len(faction) > FACTION_MAX:
        raise RuleViolation(_("At most %(n)s characters.") % {"n": FACTION_MAX}, field="faction")
    return faction.strip()


@transaction.atomic
def player_add(*, campaign: Campaign, faction: str, colour: str = "#888888", user=None,
               username: str | None = None, actor=None) -> Player:
    """Enrol a user (a User, a user id, or by ``username``) as a player. A user joins a
    campaign once; the player starts with ``starting_requisition`` (R-ECO-1). Logged as
    ``player.add`` (the seat's public facts, never the account's name)."""
    member = _user(user, username)
    faction, colour = _faction(faction), _colour(colour)
    # Lock the campaign so two concurrent enrolments of one user can not both pass the check.
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    again = RuleViolation("This user already plays in the campaign.",
                          field="username" if username is not None else "user")
    if Player.objects.filter(campaign=campaign, user=member).exists():
        raise again
    start = ruleset_of(campaign).starting_requisition
    try:
        with transaction.atomic():
            player = Player.objects.create(campaign=campaign, user=member, faction=faction,
                                           colour=colour, requisition=start)
    except IntegrityError:  # a concurrent enrolment where row locks are not available
        raise again from None
    seat_start(player)  # the seat's history starts with its first holder
    admin_log.record(campaign=campaign, actor=actor, kind="player.add", target=faction,
                     after={"faction": faction, "colour": colour})
    return player
