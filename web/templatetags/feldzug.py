"""Template filters of the campaign pages: translated names of the stored codes (phases,
outcomes, features, ...: the labels of the models' choices), rule hints, exact 2d6 chances and
the form-field snippet."""

from datetime import datetime

from django import template
from django.db.models import TextChoices
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from battles.models import ArmyList, Battle, ConquestRoll, ScheduleProposal
from battles.rosters import warning_text
from campaigns import labels
from campaigns.models import Attack, Campaign, Tile
from campaigns.services.accounts import FORMER_MEMBER_PREFIX
from fleets.models import Area, Fleet, FleetMarker
from rules.board import DEFAULT_MARKER_TYPES
from web.presenters import numbers, rulebook, times

register = template.Library()

# What a broken rule means, in the reader's language; the rules' own message adds the detail.
RULE_HINTS = {
    "R-ATK-1": _("An attack needs an unused attack army, on a tile that is not yours and that "
                 "you have not declared against this round."),
    "R-ATK-2": _("The tile must border your territory, or you need a spaceport or macropole on "
                 "its planet, or a fleet in its orbit."),
    "R-ATK-3": _("Orbital attacks need enough army points embarked on your fleets in the "
                 "planet's orbit."),
    "R-ECO-1": _("Attack armies cost requisition; you can not spend more than you have."),
    "R-CON-4": _("Only your own won attacks of this round can be rolled, and the choice is "
                 "made once."),
    "R-BAT-3": _("Results are an outcome and victory points from 0 upwards; a moral victory "
                 "needs the attacker ahead on points."),
    "wrong_phase": _("This is not possible in the current phase."),
    # invitations and join requests (campaigns.services.invitations)
    "invalid_email": _("Give e-mail addresses separated by commas, semicolons or line breaks."),
    "join_requests_closed": _("This campaign does not take join requests."),
    "join_request_decided": _("This request was answered already."),
    "campaign_finished": _("The campaign has finished; nobody joins any more."),
    "not_active": _("The declaration is no longer active."),
    "already_chosen": _("Your choice is sealed already."),
    "battle_pending": _("The defender of this chain link is not settled yet."),
    "result_locked": _("Conquest already depends on this result; only victory points or the "
                       "kind of result can change now."),
    "no_players": _("Add players before starting the campaign."),
    "R-ARM-1": _("An army list may not have more points than your limit."),
    "R-BAT-2": _("A date is proposed by one side and accepted by the other, in the future "
                 "and at most a year ahead, with a place."),
    "R-CON-6": _("Only the attacker of a won chain link decides, once."),
    "R-FLT-4": _("A path goes from the fleet's area through neighbouring areas, no area "
                 "twice, up to the moves the ruleset allows."),
    "R-FLT-5": _("Standing orders: an interception policy, benefits a to d at most once "
                 "each, a stance, and every ship of the fleet once in the line."),
    "R-FLT-8": _("Detachments embark and disembark in coastal waters or an orbit next to "
                 "one of your tiles, up to the ship's capacity and the detachment size."),
    # the map editor: areas, fleets, ships and hazards
    "R-MAP-3": _("Areas: only an orbit names a planet (one orbit per planet), only coastal "
                 "waters border tiles, only an island has an owner; a link joins two "
                 "different areas once."),
    "R-FLT-1": _("Every fleet but a pirate fleet belongs to a player; a pirate fleet to "
                 "none."),
    "R-FLT-2": _("A ship's values stay within the bounds shown next to each value."),
    "R-SPC-1": _("A D6 datasheet gives every system (maneuver, speed, targeting, gun damage, "
                 "shields, hull) as dice codes such as 2D+1, or none at all."),
    "R-SEA-2": _("A hazard has ship values within the ship bounds; an owned hazard lies in its "
                 "owner's island."),
    "lists_revealed": _("The lists are revealed; they can no longer be replaced."),
    "no_game": _("This battle is decided without a game."),
    "no_limit": _("This battle has no point limit for you yet."),
    "no_opponent": _("There is nobody to agree a date with."),
    "no_proposal": _("There is no open date proposal."),
    "proposal_superseded": _("That proposal was replaced by a newer one."),
    "result_reported": _("A result is reported already."),
    "result_disputed": _("The result is disputed; the league admin settles it."),
    "result_confirmed": _("The result is confirmed; only the league admin corrects it."),
    "no_report": _("No reported result waits for an answer."),
    "no_decision": _("No roll decision is open for this battle."),
    "not_a_chain_link": _("The last attack on a tile rolls in the conquest phase."),
    # done for this phase
    "phase_over": _("That phase is over; the round has moved on."),
    "early_advance_off": _("This campaign does not advance early; the phase ends at its "
                           "deadline."),
}


def _label(choices: type[TextChoices], value):
    """The code's label from its model choices; an unknown code shows as it is."""
    try:
        return choices(value).label
    except ValueError:
        return value


@register.filter
def phase_label(value):
    return labels.phase_label(value)


@register.filter
def list_warning(value):
    """A stored warning of an army list in the reader's language (R-ARM-2)."""
    return warning_text(value)


@register.filter
def outcome_label(value):
    return _label(Battle.Outcome, value)


@register.filter
def result_status_label(value):
    return _label(Battle.ResultStatus, value or "")


@register.filter
def feature_label(value):
    return _label(Tile.Feature, value)


@register.filter
def area_kind_label(value):
    return _label(Area.Kind, value)


# R-MRK-1: the standard label of each built-in marker type, in the reader's language
MARKER_LABELS = {"manufactorum": _("Manufactorum"), "shield_generator": _("Shield generator")}
_DEFAULT_MARKER_NAMES = {m.code: m.name for m in DEFAULT_MARKER_TYPES}


def marker_name(code: str, name: str = "") -> str:
    """A marker type as readers see it: the organiser's own name where one was typed, the
    standard label for a built-in code under its default (or no) name."""
    standard = MARKER_LABELS.get(code)
    if standard is not None and name.strip() in ("", _DEFAULT_MARKER_NAMES.get(code)):
        return str(standard)
    return name or code


@register.filter
def marker_label(marker_type):
    """``marker_name`` of a ``MarkerType`` row."""
    return marker_name(marker_type.code, marker_type.name)


@register.filter
def fleet_kind_label(value):
    return _label(Fleet.Kind, value)


@register.filter
def battle_status_label(value):
    return _label(Battle.Status, value)


@register.filter
def list_source_label(value):
    return _label(ArmyList.Source, value)


@register.filter
def proposal_status_label(value):
    return _label(ScheduleProposal.Status, value)


@register.filter
def interception_label(value):
    return _label(Fleet.Interception, value)


@register.filter
def stance_label(value):
    return _label(Fleet.Stance, value)


@register.filter
def benefit_label(value):
    return _label(Fleet.Benefit, value)


@register.filter
def no_interception_label(value):
    return _label(FleetMarker.Kind, value)


@register.filter
def source_label(value):
    return _label(Attack.Source, value)


@register.filter
def attack_status_label(value):
    return _label(Attack.Status, value)


@register.filter
def modifier_label(value):
    return _label(ConquestRoll.Modifier, value)


@register.filter
def visibility_label(value):
    return _label(Campaign.Visibility, value)


@register.filter
def campaign_status_label(value):
    return _label(Campaign.Status, value)


@register.filter
def member(value) -> str:
    """A user (or a username) as pages name them: a deleted account is "former member"
    (``campaigns.services.accounts.account_delete``)."""
    name = value if isinstance(value, str) else getattr(value, "username", "")
    return str(_("former member")) if name.startswith(FORMER_MEMBER_PREFIX) else name


@register.filter
def rule_hint(rule):
    return RULE_HINTS.get(rule, "")


def explained(exc) -> str:
    """A service's refusal in the reader's language where its code is known, followed by the
    service's own (English) detail."""
    hint = RULE_HINTS.get(exc.code)
    return f"{hint} ({exc.message})" if hint else exc.message


@register.filter
def signed(value) -> str:
    return f"{value:+d}" if isinstance(value, int) else str(value)


@register.filter
def exact_chance(chance) -> str:
    """A 2d6 success chance as the exact fraction of 36 outcomes it is (R-CON-7), e.g.
    ``0.5833...`` -> ``21/36``; 0 and 1 stay whole."""
    ways = round(float(chance) * 36)
    if ways in (0, 36):
        return str(ways // 36)
    return f"{ways}/36"


@register.filter
def percent(fraction, digits=1) -> str:
    """A share as a percentage in the reader's language (``web.presenters.numbers.percent``):
    ``58.3%``, ``58,3 %``; ``|percent:0`` for whole percents."""
    return numbers.percent(fraction, int(digits))


@register.filter
def die_face(value) -> str:
    """A d6 face as its die glyph (other dice keep the number)."""
    return chr(0x2680 + value - 1) if isinstance(value, int) and 1 <= value <= 6 else str(value)


@register.inclusion_tag("web/_swatch.html")
def swatch(colour):
    """A colour square drawn in SVG (a fill, not a style attribute)."""
    return {"colour": colour or "#888888"}


@register.inclusion_tag("web/_field.html")
def field(bound_field, css_class=""):
    """A labelled form field with its help text and its errors right next to it."""
    return {"field": bound_field, "css_class": css_class}


@register.filter
def local_time(value, length="long"):
    """A stored (UTC) time as ``<time>`` in the viewer's zone, the zone named;
    ``|local_time:"short"`` for the short format (``web.presenters.times``)."""
    return times.time_element(value, length)


@register.filter
def relative_time(value):
    """How far a time is from now in the reader's language: ``in 2 days``, ``vor 3 Stunden``
    (``web.presenters.times.relative_text``); "" for no time."""
    return times.relative_text(value) if isinstance(value, datetime) else ""


@register.filter
def local_date(value, length="long"):
    """A calendar day as ``<time>`` in the reader's format: ``Wed 6 Jan 2027`` / ``Mi. 6. Jan.
    2027``; ``|local_date:"short"``: ``6 Jan`` (``web.presenters.times.date_element``)."""
    return times.date_element(value, length)


@register.filter
def utc_iso(value):
    """The instant in ISO-8601 UTC, for data attributes read by scripts."""
    return times.utc_iso(value) if value else ""


def rule_href(rule_id: str) -> str | None:
    """The address of a rule's section on the rules page (in the reader's language),
    or None for an id the rules do not have."""
    anchor = rule_id.lower()
    if anchor not in rulebook.known_anchors():
        return None
    return f"{reverse('campaigns:rules')}#{anchor}"


@register.filter(is_safe=True)
def rule_links(value):
    """Every rule id (``R-CON-3``) in ``value`` as a link to its section; ``value``
    is escaped first unless it is safe HTML already (then only its text is changed)."""
    if not isinstance(value, str):  # a message or an error list: its text (safe stays safe)
        value = value.__html__() if hasattr(value, "__html__") else str(value)
    return mark_safe(rulebook.link_rule_ids(str(conditional_escape(value)), rule_href))


@register.filter
def tile_label(tile) -> str:
    """A tile as everything names it (``campaigns.labels.tile_label``): its name and planet,
    or its planet and coordinates when it has no name."""
    return labels.tile_label(tile) if tile else ""
