"""Template filters of the campaign pages: translated names of the stored codes (phases,
outcomes, features, ...), rule hints, exact 2d6 chances and the form-field snippet."""

from fractions import Fraction

from django import template
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

register = template.Library()

PHASES = {"declare": _("Declare"), "fleets": _("Fleets"), "lists": _("Army lists"),
          "battles": _("Battles"), "conquest": _("Conquest"), "closed": _("Closed")}
OUTCOMES = {"victory": _("Victory"), "moral_victory": _("Moral victory"), "draw": _("Draw"),
            "defeat": _("Defeat")}
RESULT_STATUSES = {"": _("no result"), "reported": _("reported"), "confirmed": _("confirmed"),
                   "disputed": _("disputed")}
FEATURES = {"mountain": _("Mountain"), "spaceport": _("Spaceport"),
            "macropole": _("Macropole"), "defence": _("Defence line")}
AREA_KINDS = {"ocean": _("Ocean"), "coastal": _("Coastal waters"), "orbit": _("Orbit"),
              "island": _("Island")}
FLEET_KINDS = {"regular": _("Regular fleet"), "pirate": _("Pirates"),
               "buccaneer": _("Buccaneers"), "treasure": _("Treasure fleet")}
BATTLE_STATUSES = {"pending": _("waiting for the earlier attack on the tile"),
                   "open": _("to be played"), "done": _("decided")}
INTERCEPTIONS = {"always": _("always"), "if_stronger": _("only if stronger"),
                 "never": _("never")}
STANCES = {"approach": _("approach"), "hold": _("hold the distance"),
           "withdraw": _("withdraw"), "auto": _("approach if stronger, else withdraw")}
BENEFITS = {"a": _("advantage in the battle that follows"), "b": _("move on"),
            "c": _("avoid combat"), "d": _("withdraw to a neighbouring area")}
NO_INTERCEPTION = {"avoid": _("avoided combat"), "withdraw": _("withdrew")}
LIST_SOURCES = {"text": _("pasted text"), "json": _("JSON"), "ros": _("BattleScribe .ros"),
                "rosz": _("BattleScribe .rosz"), "newrecruit": _("New Recruit")}
PROPOSAL_STATUSES = {"proposed": _("open"), "accepted": _("accepted"),
                     "superseded": _("superseded")}
SOURCES = {"adjacent": _("adjacent to your territory"),
           "structure": _("from your spaceport or macropole on the planet"),
           "orbit": _("from orbit")}
ATTACK_STATUSES = {"active": _("active"), "withdrawn": _("withdrawn"),
                   "cancelled": _("cancelled")}
MODIFIERS = {"moral_victory": _("Moral victory"), "defence": _("Defence line"),
             "terrain": _("Terrain"), "shield": _("Shield generator"),
             "multi_conquest": _("Several conquests on one planet")}
VISIBILITY = {"public": pgettext_lazy("campaign", "public"),
              "private": pgettext_lazy("campaign", "private")}
CAMPAIGN_STATUSES = {"setup": _("in set-up"), "running": _("running"),
                     "finished": _("finished")}
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
    "R-BAT-3": _("Results are an outcome and victory points from 0 upwards."),
    "wrong_phase": _("This is not possible in the current phase."),
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
}


def _label(table: dict, value) -> str:
    return table.get(value, value)


@register.filter
def phase_label(value):
    return _label(PHASES, value)


@register.filter
def outcome_label(value):
    return _label(OUTCOMES, value)


@register.filter
def result_status_label(value):
    return _label(RESULT_STATUSES, value or "")


@register.filter
def feature_label(value):
    return _label(FEATURES, value)


@register.filter
def area_kind_label(value):
    return _label(AREA_KINDS, value)


@register.filter
def fleet_kind_label(value):
    return _label(FLEET_KINDS, value)


@register.filter
def battle_status_label(value):
    return _label(BATTLE_STATUSES, value)


@register.filter
def list_source_label(value):
    return _label(LIST_SOURCES, value)


@register.filter
def proposal_status_label(value):
    return _label(PROPOSAL_STATUSES, value)


@register.filter
def interception_label(value):
    return _label(INTERCEPTIONS, value)


@register.filter
def stance_label(value):
    return _label(STANCES, value)


@register.filter
def benefit_label(value):
    return _label(BENEFITS, value)


@register.filter
def no_interception_label(value):
    return _label(NO_INTERCEPTION, value)


@register.filter
def source_label(value):
    return _label(SOURCES, value)


@register.filter
def attack_status_label(value):
    return _label(ATTACK_STATUSES, value)


@register.filter
def modifier_label(value):
    return _label(MODIFIERS, value)


@register.filter
def visibility_label(value):
    return _label(VISIBILITY, value)


@register.filter
def campaign_status_label(value):
    return _label(CAMPAIGN_STATUSES, value)


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
def percent(chance) -> str:
    return f"{float(Fraction(round(float(chance) * 36), 36)) * 100:.1f} %"


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
