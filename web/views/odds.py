"""The naval odds preview of the fleets page (R-ODDS-1): the outcome
distribution of a battle between two sides, each one of the viewer's fleets, a hostile fleet in
reach or ships entered by hand, from the preview service of ``POST /api/v1/odds/naval/``
(``fleets.services.odds.odds_preview_run``: the same stop rule and work budget, the same
``OddsPreviewSlot`` limits on previews in flight) and the same ``odds`` throttle as the
API (one count for pages and API). The campaign's ruleset gives the engine (``naval_engine``:
the ship value form), ``max_battle_rounds`` and ``start_distance_cm``.

[reading] R-FLT-7 / R-ODDS-1: the preview never reveals a hostile fleet's hidden values, not
even through its odds. A hostile fleet in reach (another player's or a pirate fleet, R-INT-1,
in the area of one of the viewer's fleets or an adjacent one) is picked by its public facts
only (owner, kind, area, ship count); its ships' values are the viewer's assumption, typed one
line per ship and prefilled with the values a ship has when none are given
(``rules.ship_values.DEFAULTS``, ``DEFAULT_DATASHEET`` for D6). The server never reads the
hostile fleet's ships for a preview, so its odds are those of the assumed values. The viewer's
own fleets (all fleets, for the campaign admin) are loaded with everything the engine uses
(values, crew, datasheet, captain), as the viewer sees them on this page anyway."""

from math import ceil

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from rest_framework.throttling import ScopedRateThrottle

from campaigns.selectors.campaigns import ruleset_of
from fleets.messages import problem_text
from fleets.services.odds import PreviewsBusy, odds_preview_run
from rules.interception import InterceptFleet, hostile
from rules.odds import SIMULATIONS, OddsResult
from rules.ship_values import ProblemError
from web.forms.odds import HAND, SIDES, NavalOddsForm
from web.presenters.numbers import percent, svg_number
from web.templatetags.feldzug import fleet_kind_label

OUTCOMES = ("attacker_wins", "undecided", "defender_wins")  # the order of the bar
COLOURS = {"attacker_wins": "#1d4f91", "undecided": "#b5b5ab", "defender_wins": "#b3261e"}


class _OddsThrottle:
    """The API's ``odds`` throttle scope (``DEFAULT_THROTTLE_RATES``), counted per user."""

    throttle_scope = "odds"


def throttle_wait(request) -> int | None:
    """Seconds to wait when the user's ``odds`` rate is spent (pages and API share it)."""
    throttle = ScopedRateThrottle()
    if throttle.allow_request(request, _OddsThrottle):
        return None
    return max(1, ceil(throttle.wait() or 1))


def _in_reach(fleets: list[dict], targets: list[dict], areas: dict) -> list[dict]:
    """R-INT-1: hostile fleets in the area of one of ``fleets`` or an adjacent one."""
    chosen = []
    for target in targets:
        them = InterceptFleet(target["id"], target["owner"], target["kind"])
        for fleet in fleets:
            area = areas.get(fleet["area"], {})
            near = target["area"] == fleet["area"] or target["area"] in area.get("adjacent", ())
            if near and hostile(InterceptFleet(fleet["id"], fleet["owner"], fleet["kind"]), them):
                chosen.append(target)
                break
    return chosen


def _ships_text(count: int) -> str:
    return ngettext("%(count)d ship", "%(count)d ships", count) % {"count": count}


def odds_form(scope, views: list[dict], areas: dict, players: dict, data=None) -> NavalOddsForm:
    """The form with the viewer's fleets (full views) and the hostile fleets in reach (public
    views). Option texts carry public facts only for a hostile fleet (R-FLT-7)."""
    fleets = [v for v in views if "ships" in v]
    targets = _in_reach(fleets, [v for v in views if "ships" not in v], areas)
    labels = {}
    for fleet in fleets:
        labels[fleet["id"]] = f"{fleet['name']} · {_ships_text(len(fleet['ships']))} · " \
                              f"{areas[fleet['area']]['name']}"
    for target in targets:
        owner = players.get(target["owner"])
        who = owner.faction if owner else str(fleet_kind_label(target["kind"]))
        labels[target["id"]] = f"{who} · {_ships_text(target['ship_count'])} · " \
                               f"{areas[target['area']]['name']}"
    engine = ruleset_of(scope.campaign).naval_engine
    form = NavalOddsForm(data, engine=engine, fleets=fleets, targets=targets, labels=labels,
                         prefix="odds")
    if data is None:  # a fresh page: an own fleet against the first hostile fleet in reach
        first = next(iter(form.fleets), HAND)
        target = next(iter(form.targets), HAND)
        own = form.fleets.get(first)
        form.initial = {
            "attacker": first, "defender": target,
            "attacker_stance": own["standing_orders"]["stance"] if own else "auto",
            "defender_ships": form.initial_text(target),
        }
    return form


def odds_run(request, scope, form: NavalOddsForm) -> OddsResult | None:
    """Fight the battles of a valid form through the API's service; a refusal (rate, previews
    in flight, the rules' own checks) lands on the form and None is returned."""
    wait = throttle_wait(request)
    if wait is not None:
        form.add_error(None, ngettext(
            "Too many naval odds previews in a short time (R-ODDS-1): try again in %(n)d "
            "second.", "Too many naval odds previews in a short time (R-ODDS-1): try again "
            "in %(n)d seconds.", wait) % {"n": wait})
        return None
    ruleset = ruleset_of(scope.campaign)
    try:
        return odds_preview_run(user=request.user, engine=form.engine,
                                attacker=form.sides["attacker"],
                                defender=form.sides["defender"],
                                simulations=SIMULATIONS,
                                max_rounds=ruleset.max_battle_rounds,
                                start_distance_cm=ruleset.start_distance_cm)
    except PreviewsBusy as busy:
        form.add_error(None, busy.message)
    except ValueError as error:  # the rules' own checks, should the form miss one
        reason = problem_text(error.problem) if isinstance(error, ProblemError) else error
        form.add_error(None, _("Refused: %(reason)s") % {"reason": reason})
    return None


def _percent(fraction: float) -> str:
    return percent(fraction)  # the one percentage format of the pages


def result_rows(result: OddsResult) -> list[dict]:
    """Each outcome with its share and 95% interval as text in the reader's language, the
    numbers unlocalized for data attributes, and the bar's geometry for SVG (``svg_number``)."""
    names = {"attacker_wins": _("Attacker wins"), "defender_wins": _("Defender wins"),
             "undecided": _("Undecided (both sides gone, the round cap reached, or a "
                            "retreat)")}
    rows, start = [], 0.0
    for name in OUTCOMES:
        share = getattr(result, name)
        low, high = result.ci95[name]
        rows.append({"name": name, "label": names[name], "colour": COLOURS[name],
                     "share": share, "low": low, "high": high,
                     "share_text": _percent(share), "low_text": _percent(low),
                     "high_text": _percent(high),
                     "x": svg_number(start * 100), "width": svg_number(share * 100)})
        start += share
    return rows


# R-ODDS-1: how many battles ran and why the preview stopped, by ``rules.odds.STOP_REASONS``
STOPS = {
    "requested": gettext_lazy("Sample: %(n)s simulated battles, all that were asked for."),
    "precise": gettext_lazy("Sample: %(n)s simulated battles. The preview stopped before the "
                     "%(requested)s asked for: every 95%% interval was already within 1 "
                     "percentage point either side."),
    "work_budget": gettext_lazy("Sample: %(n)s simulated battles. The preview stopped before the "
                         "%(requested)s asked for: the computing work one preview may take "
                         "was used up."),
}


def stop_text(result: OddsResult) -> str:
    """The sample size and why the preview stopped, in the reader's words and numbers."""
    return STOPS[result.stop_reason] % {
        "n": number_format(result.simulations, 0, force_grouping=True),
        "requested": number_format(result.requested, 0, force_grouping=True)}


def odds_section(form: NavalOddsForm, result: OddsResult | None = None) -> dict:
    """What ``web/_naval_odds.html`` shows."""
    for field, text in form.refill.items():
        data = form.data.copy()
        data[form.add_prefix(field)] = text
        form.data = data
    section: dict = {"form": form, "engine": form.engine, "result": None}
    if result is None:
        return section
    section["result"] = {
        # xgettext:no-python-format
        "rows": result_rows(result), "odds": result, "interval_label": _("95% interval"),
        "stop": stop_text(result),
        "assumed": [side for side in SIDES if form.cleaned_data.get(side) in form.targets],
    }
    return section
