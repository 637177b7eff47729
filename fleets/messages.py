"""The reader's language for what ``rules/`` says about ships and fleet orders in English:
``rules/`` may not use Django, so a ship value problem (``rules.ship_values.Problem``, R-FLT-2,
R-SPC-1, R-SEA-2) and a refused fleet order (``rules.fleet_phase.OrderError``, R-FLT-4, R-FLT-5,
R-FLT-8) name their reason by ``key`` and ``params``, and this module words them, the rule id
kept in the text. An unknown key keeps the rules' English text."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.ship_values import DATASHEET_KEYS


def _text_limit(p) -> str:
    return ngettext("expected a text of at most %(limit)s character (%(rule)s)",
                    "expected a text of at most %(limit)s characters (%(rule)s)",
                    p["limit"]) % p


def _crew_list(p) -> str:
    return ngettext("expected a list of at most %(most)s character {name, cp} (%(rule)s)",
                    "expected a list of at most %(most)s characters {name, cp} (%(rule)s)",
                    p["most"]) % p


def _cargo_list(p) -> str:
    return ngettext("expected a list of at most %(most)s detachment {name, points} (%(rule)s)",
                    "expected a list of at most %(most)s detachments {name, points} (%(rule)s)",
                    p["most"]) % p


def _over_capacity(p) -> str:
    return ngettext("more detachments (%(count)s) than the ship's capacity of %(capacity)s "
                    "detachment (%(rule)s)",
                    "more detachments (%(count)s) than the ship's capacity of %(capacity)s "
                    "detachments (%(rule)s)", p["capacity"]) % p


SHIP_VALUE_TEXTS = {
    "number": lambda p: _("expected a whole number from %(low)s to %(high)s (%(rule)s)") % p,
    "hazard_number": lambda p: _("expected a whole number from %(low)s to %(high)s, the bounds "
                                 "of a ship's value (%(rule)s)") % p,
    "text": _text_limit,
    "blank": lambda p: _("must not be blank (%(rule)s)") % p,
    "required": lambda p: _("this field is required (%(rule)s)") % p,
    "unknown_field": lambda p: _("unknown field %(field)s (%(rule)s)") % p,
    "object": lambda p: _("expected an object: %(shape)s (%(rule)s)") % p,
    "ship": lambda p: _("expected an object: a ship (%(rule)s)") % p,
    "datasheet": lambda p: _("expected an object: a D6 datasheet {%(keys)s} or null "
                             "(%(rule)s)") % {**p, "keys": ", ".join(DATASHEET_KEYS)},
    "crew_list": _crew_list,
    "cargo_list": _cargo_list,
    "over_capacity": _over_capacity,
    "code_shape": lambda p: _("expected a dice code nD+p such as “2D+1” (%(rule)s)") % p,
    "not_code": lambda p: _("not a dice code: %(value)s (expected nD+p such as “2D+1”, "
                            "%(rule)s)") % p,
    "code_bounds": lambda p: _("at most %(dice)sD and %(pips)s pips either way (%(rule)s)") % p,
    "hull_dice": lambda p: _("a ship starts with at least %(dice)sD hull (%(rule)s)") % p,
    "choice": lambda p: _("expected one of %(choices)s (%(rule)s)") % p,
    "captain_systems": lambda p: _("the captain's bonuses go to two different systems "
                                   "(%(rule)s)") % p,
    "datasheet_partial": lambda p: _("this field is required: a datasheet is complete or "
                                     "absent, never partly filled in (%(rule)s)") % p,
}


def ship_value_text(problem) -> str:
    """A ``rules.ship_values.Problem`` in the active language, naming its rule, without its
    path."""
    words = SHIP_VALUE_TEXTS.get(problem.key)
    return words(problem.params) if words else problem.message


def problem_text(problem, prefix: str = "") -> str:
    """``"<path>: <reason>"`` (the path below ``prefix``), or the reason alone when the
    problem is about the checked value itself."""
    path = problem.at(prefix)
    text = ship_value_text(problem)
    return f"{path}: {text}" if path else text


def _max_moves(p) -> str:
    return ngettext("at most %(most)s move per round (max_fleet_moves, %(rule)s)",
                    "at most %(most)s moves per round (max_fleet_moves, %(rule)s)",
                    p["most"]) % p


def _ship_full(p) -> str:
    return ngettext("the ship carries %(aboard)s of its capacity of %(capacity)s detachment "
                    "already (%(rule)s)",
                    "the ship carries %(aboard)s of its capacity of %(capacity)s detachments "
                    "already (%(rule)s)", p["capacity"]) % p


def _cargo_index(p) -> str:
    return ngettext("the ship carries %(aboard)s detachment; give an index from 0 to %(last)s "
                    "(%(rule)s)",
                    "the ship carries %(aboard)s detachments; give an index from 0 to %(last)s "
                    "(%(rule)s)", p["aboard"]) % p


ORDER_TEXTS = {
    "max_moves": _max_moves,
    "no_area": lambda p: _("no area %(area)s in this campaign (%(rule)s)") % p,
    "current_area": lambda p: _("area %(area)s is the fleet's current area: no area twice "
                                "(%(rule)s)") % p,
    "area_twice": lambda p: _("area %(area)s is in the path already: no area twice "
                              "(%(rule)s)") % p,
    "not_adjacent": lambda p: _("area %(area)s is not adjacent to area %(here)s (%(rule)s)") % p,
    "choice": lambda p: _("must be one of %(choices)s (%(rule)s)") % p,
    "benefits_list": lambda p: _("must be a list of benefits a-d (%(rule)s)") % p,
    "not_benefit": lambda p: _("%(value)s is not a benefit: a, b, c or d (%(rule)s)") % p,
    "benefit_twice": lambda p: _("%(value)s is listed twice (%(rule)s)") % p,
    "line_list": lambda p: _("must be a list of the fleet's ship ids (%(rule)s)") % p,
    "line_ships": lambda p: _("must list every ship of the fleet exactly once (%(rule)s)") % p,
    "transport_area": lambda p: _("detachments embark and disembark only in a coastal or orbit "
                                  "area (%(rule)s)") % p,
    "no_own_tile": lambda p: _("the fleet's area borders none of your tiles (%(rule)s)") % p,
    "detachment_points": lambda p: _("a detachment has %(low)s to %(high)s army points "
                                     "(detachment_points, %(rule)s)") % p,
    "ship_full": _ship_full,
    "no_cargo": lambda p: _("the ship carries no detachment (%(rule)s)") % p,
    "cargo_index": _cargo_index,
}


def order_text(error) -> str:
    """A refused fleet order (``rules.fleet_phase.OrderError``) in the active language, naming
    its rule."""
    words = ORDER_TEXTS.get(error.key)
    if words is None:
        return f"{error.message} ({error.rule})"
    return words({**error.params, "rule": error.rule})
