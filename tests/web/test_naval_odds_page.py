"""The naval odds preview on the fleets page (R-ODDS-1): one of the viewer's
fleets against a hostile fleet in reach (values assumed, R-FLT-7) or ships entered by hand,
from the same service as ``POST /api/v1/odds/naval/`` (``fleets.services.odds``) with its
limits; English and German; form errors naming the rule; constant queries.

Determinism: the page's call of ``odds_preview_run`` is wrapped to pass a fixed seed (the API
and the page seed from the OS, R-DICE-4); the numbers on the page must equal what the service
returns for that seed and the very input the page passed."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.throttling import ScopedRateThrottle

from fleets.models import OddsPreviewSlot, Ship
from fleets.selectors.fleets import ship_data
from fleets.services import odds as odds_service
from tests.factories import FleetFactory, ShipFactory
from tests.web.queries import assert_constant_queries
from tests.web.rule_text import unlinked
from tests.worlds import FLEET_SECRETS, client_for, datasheet
from web.views import odds as odds_view

SEED = 1812


@pytest.fixture
def w(fleet_world):
    return fleet_world


@pytest.fixture
def calls(monkeypatch):
    """Every call the page makes to the preview service, run with ``SEED``."""
    made = []

    def seeded(**kwargs):
        made.append(kwargs)
        return odds_service.odds_preview_run(**kwargs, seed=SEED)

    monkeypatch.setattr(odds_view, "odds_preview_run", seeded)
    return made


def _url(w, rest: str = "") -> str:
    return f"/campaigns/{w.league.campaign.pk}/fleets/{rest}"


def _post(w, user, status=200, headers=None, **fields):
    data = {"odds-attacker": "hand", "odds-defender": "hand", "odds-attacker_stance": "auto",
            "odds-defender_stance": "auto", "odds-attacker_ships": "", "odds-defender_ships": ""}
    data.update({f"odds-{key}": value for key, value in fields.items()})
    response = client_for(user).post(_url(w, "odds/"), data, **(headers or {}))
    assert response.status_code == status, response.content.decode()[-3000:]
    return unlinked(response.content.decode())


def _rows(html: str) -> dict[str, tuple[float, float, float]]:
    return {name: (float(share), float(low), float(high)) for name, share, low, high in
            re.findall(r'data-outcome="(\w+)" data-share="([^"]+)" data-low="([^"]+)" '
                       r'data-high="([^"]+)"', html)}


def _section(html: str) -> str:
    return html.split('id="naval-odds"', 1)[1].split("</section>", 1)[0]


def test_r_odds_1_own_fleet_against_ships_by_hand_shows_the_service_s_distribution(w, calls):
    html = _post(w, w.league.a.user, attacker=f"fleet-{w.anna_fleet.pk}",
                 defender_ships="3 4 3\n2 5 2", defender_stance="hold")
    assert len(calls) == 1
    call = calls[0]
    # the same service and limits as the API; the campaign's engine and ruleset
    assert call["engine"] == "dark_force" and call["simulations"] == 10_000
    assert call["max_rounds"] == 12 and call["start_distance_cm"] == 30
    stored = [ship_data(s) for s in Ship.objects.filter(fleet=w.anna_fleet).order_by("position")]
    assert [s["attack"] for s in call["attacker"]["ships"]] == [s["attack"] for s in stored]
    assert call["attacker"]["ships"][0]["crew"] == stored[0]["crew"]  # all the engine uses
    assert call["defender"] == {"ships": [{"attack": 3, "defence": 4, "agility": 3},
                                          {"attack": 2, "defence": 5, "agility": 2}],
                                "stance": "hold"}
    expected = odds_service.odds_preview_run(**call, seed=SEED)
    rows = _rows(html)
    assert rows == {name: (getattr(expected, name), *expected.ci95[name])
                    for name in ("attacker_wins", "undecided", "defender_wins")}
    for share, low, high in rows.values():
        assert low <= share <= high
    assert f'data-simulations="{expected.simulations}"' in html
    # R-ODDS-1: how many battles ran and why it stopped, in words
    sample = f"{expected.simulations:,}"
    stop = {"requested": f"Sample: {sample} simulated battles, all that were asked for.",
            "precise": f"Sample: {sample} simulated battles. The preview stopped before the "
                       "10,000 asked for: every 95% interval was already within 1 percentage "
                       "point either side.",
            "work_budget": f"Sample: {sample} simulated battles. The preview stopped before the "
                           "10,000 asked for: the computing work one preview may take was "
                           "used up."}
    assert stop[expected.stop_reason] in html
    assert f'data-stop-reason="{expected.stop_reason}"' in html
    assert "95% interval" in html and "Attacker wins" in html
    assert not OddsPreviewSlot.objects.exists()  # the service's slot is released


def test_r_odds_1_the_campaign_s_ruleset_decides_engine_rounds_and_distance(w, calls):
    campaign = w.league.campaign
    campaign.ruleset = {**campaign.ruleset, "naval_engine": "d6_space", "max_battle_rounds": 5,
                        "start_distance_cm": 40}
    campaign.save(update_fields=["ruleset"])
    page = client_for(w.league.a.user).get(_url(w)).content.decode()
    assert "maneuver speed targeting gun damage shields hull" in page
    html = _post(w, w.league.a.user, attacker=f"fleet-{w.anna_fleet.pk}",
                 defender_ships="2D 3 3D 3d+1 2D 3D")
    call = calls[0]
    assert (call["engine"], call["max_rounds"], call["start_distance_cm"]) == \
        ("d6_space", 5, 40)
    assert call["defender"]["ships"] == [{"datasheet": {
        "maneuver": "2D", "speed": 3, "targeting": "3D", "gun_damage": "3D+1",
        "shields": "2D", "hull": "3D"}}]
    # anna's escort has no datasheet: it fights with the engine's default one, as in the phase
    assert call["attacker"]["ships"][1]["datasheet"]["hull"] == "1D"
    assert call["attacker"]["ships"][0]["datasheet"]["captain"]["name"] == "Storm Lurker"
    assert _rows(html)


def test_r_flt_7_a_hostile_fleet_in_reach_is_picked_by_public_facts_only(w, calls):
    anna = w.league.a.user
    page = client_for(anna).get(_url(w)).content.decode()
    section = _section(page)
    # ben's fleet and the pirates are in the open sea, next to anna's coast: in reach
    assert f'value="target-{w.ben_fleet.pk}"' in section
    assert f'value="target-{w.pirates.pk}"' in section
    assert "1 1 1" in section  # neutral values prefilled for ben's one ship
    for secret in FLEET_SECRETS["ben"] + FLEET_SECRETS["pirates"]:
        assert secret not in page, secret
    html = _post(w, anna, attacker=f"fleet-{w.anna_fleet.pk}",
                 defender=f"target-{w.ben_fleet.pk}")
    assert calls[0]["defender"]["ships"] == [{"attack": 1, "defence": 1, "agility": 1}]
    assert "not its real ones (R-FLT-7)" in html
    for secret in FLEET_SECRETS["ben"] + FLEET_SECRETS["pirates"]:
        assert secret not in html, secret
        assert secret not in repr(calls), secret


def test_r_flt_7_the_odds_do_not_depend_on_a_hostile_fleet_s_hidden_values(w, calls):
    anna = w.league.a.user
    fields = {"attacker": f"fleet-{w.anna_fleet.pk}", "defender": f"target-{w.ben_fleet.pk}"}
    before = _section(_post(w, anna, **fields))
    Ship.objects.filter(fleet=w.ben_fleet).update(attack=50, defence=50, agility=7)
    after = _section(_post(w, anna, **fields))
    assert _rows(before) and _rows(after) == _rows(before)
    assert after.split('name="csrfmiddlewaretoken"', 1)[0] == \
        before.split('name="csrfmiddlewaretoken"', 1)[0]


def test_r_flt_7_a_fleet_out_of_reach_and_others_values_are_not_offered(w):
    far = FleetFactory(campaign=w.league.campaign, owner=w.league.c, area=w.island,
                       name="Far Armada")
    ShipFactory(fleet=far, name="Distant Hull")
    section = _section(client_for(w.league.a.user).get(_url(w)).content.decode())
    assert f"target-{far.pk}" not in section  # the isle is two areas from anna's coast
    # ben sees anna's fleet as a hostile fleet in reach, never its values
    ben = client_for(w.league.b.user).get(_url(w)).content.decode()
    assert f'value="target-{w.anna_fleet.pk}"' in _section(ben)
    assert f'value="fleet-{w.anna_fleet.pk}"' not in ben


def test_r_flt_7_a_forged_pick_of_another_s_fleet_is_refused(w, calls):
    html = _post(w, w.league.b.user, status=400, attacker=f"fleet-{w.anna_fleet.pk}",
                 defender_ships="1 1 1")
    assert "Select a valid choice" in html and not calls
    for secret in FLEET_SECRETS["anna"]:  # ben's own form offers the policy as a choice
        assert secret == "if_stronger" or secret not in html, secret


@pytest.mark.parametrize(("fields", "message"), [
    ({"attacker_ships": "51 1 1", "defender_ships": "1 1 1"},
     "Line 1: attack must be a whole number from 0 to 50 (R-FLT-2)."),
    ({"attacker_ships": "1 1 1", "defender_ships": "1 1 1\n3 0 2"},
     "Line 2: defence must be a whole number from 1 to 50 (R-FLT-2)."),
    ({"attacker_ships": "1 1 8", "defender_ships": "1 1 1"},
     "agility must be a whole number from 0 to 7 (R-FLT-2)."),
    ({"attacker_ships": "4 6", "defender_ships": "1 1 1"},
     "give 3 values: attack defence agility (R-FLT-2)."),
    ({"attacker_ships": "", "defender_ships": "1 1 1"}, "Enter at least one ship."),
    ({"attacker_ships": "1 1 1\n" * 13, "defender_ships": "1 1 1"},
     "13 ships: a preview takes at most 12 ships a side (R-ODDS-1)."),
])
def test_r_flt_2_bad_ships_are_form_errors_naming_the_rule(w, calls, fields, message):
    html = _post(w, w.league.a.user, status=400, **fields)
    assert message in html and not calls


@pytest.mark.parametrize(("line", "message"), [
    ("2D 3 3D lots 2D 3D", "gun damage: “lots” is not a dice code such as 2D+1 (R-SPC-1)."),
    ("2D 3 3D 3D 2D 0D+2", "hull: a ship starts with at least 1D hull (R-SPC-1, R-SPC-6)."),
    ("2D 101 3D 3D 2D 3D", "speed must be a whole number from 0 to 100 (R-SPC-1)."),
    ("2D 3 3D 21D 2D 3D", "is not a dice code such as 2D+1 (R-SPC-1)."),
])
def test_r_spc_1_bad_datasheets_are_form_errors_naming_the_rule(w, calls, line, message):
    campaign = w.league.campaign
    campaign.ruleset = {**campaign.ruleset, "naval_engine": "d6_space"}
    campaign.save(update_fields=["ruleset"])
    html = _post(w, w.league.a.user, status=400, attacker_ships=line,
                 defender_ships="2D 3 3D 3D 2D 3D")
    assert message in html and not calls


def test_r_flt_7_a_hostile_pick_needs_one_line_per_ship_and_refills_the_box(w, calls):
    html = _post(w, w.league.a.user, status=400, attacker=f"fleet-{w.anna_fleet.pk}",
                 defender=f"target-{w.ben_fleet.pk}", defender_ships="5 5 5\n4 4 4")
    assert "This fleet has 1 ship (its ship count is public, R-FLT-7)" in html and not calls
    assert re.search(r'id="id_odds-defender_ships">\s*5 5 5</textarea>', html)


def test_r_odds_1_an_own_fleet_over_the_preview_limit_is_a_form_error(w, calls):
    for _ in range(11):
        ShipFactory(fleet=w.anna_fleet)
    html = _post(w, w.league.a.user, status=400, attacker=f"fleet-{w.anna_fleet.pk}",
                 defender_ships="1 1 1")
    assert "13 ships: a preview takes at most 12 ships a side (R-ODDS-1)." in html
    assert not calls


def test_r_odds_1_a_busy_service_is_a_form_error_not_a_500(w):
    OddsPreviewSlot.objects.create(slot=0, user=w.league.a.user, user_slot=0)
    html = _post(w, w.league.a.user, status=400, attacker_ships="1 1 1",
                 defender_ships="1 1 1")
    assert "At most 1 naval odds preview per user may run at once (R-ODDS-1)" in html


def test_r_odds_1_the_api_s_odds_throttle_counts_page_previews(w, calls, monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"odds": "1/min"})
    _post(w, w.league.a.user, attacker_ships="1 1 1", defender_ships="1 1 1")
    html = _post(w, w.league.a.user, status=400, attacker_ships="1 1 1",
                 defender_ships="1 1 1")
    assert "Too many naval odds previews in a short time (R-ODDS-1)" in html
    assert len(calls) == 1


def test_r_odds_1_german_page_and_numbers(w, calls):
    german = {"HTTP_ACCEPT_LANGUAGE": "de"}
    page = client_for(w.league.a.user).get(_url(w), **german).content.decode()
    assert "Chancen einer Seeschlacht" in page and "Von Hand eingegebene Schiffe" in page
    html = _post(w, w.league.a.user, headers=german, attacker=f"fleet-{w.anna_fleet.pk}",
                 defender_ships="3 4 3\n3 4 3")
    section = _section(html)
    assert "Angreifer gewinnt" in section and "95-%-Intervall" in section
    expected = odds_service.odds_preview_run(**calls[0], seed=SEED)
    share = f"{expected.attacker_wins * 100:.1f}".replace(".", ",")
    assert f"<strong>{share}\u00a0%</strong>" in section  # text in the reader's locale
    assert _rows(section)["attacker_wins"][0] == expected.attacker_wins  # data: a point
    for width in re.findall(r'width="([^"]+)"', section):
        float(width)  # SVG numbers never have a decimal comma


def test_r_odds_1_bad_input_in_german_names_the_rule(w, calls):
    html = _post(w, w.league.a.user, status=400, headers={"HTTP_ACCEPT_LANGUAGE": "de"},
                 attacker_ships="51 1 1", defender_ships="1 1 1")
    assert "Zeile 1: Angriff muss eine ganze Zahl von 0 bis 50 sein (R-FLT-2)." in html


def test_non_members_get_no_preview(w, outsider):
    for user in (outsider, None):
        response = client_for(user).post(_url(w, "odds/"), {"odds-attacker": "hand"})
        assert response.status_code in (302, 404)
    assert 'id="naval-odds"' in client_for(w.league.admin).get(_url(w)).content.decode()


def test_the_odds_section_keeps_the_page_s_queries_constant(w, calls):
    anna = w.league.a.user
    fields = {"attacker": f"fleet-{w.anna_fleet.pk}", "defender": f"target-{w.ben_fleet.pk}"}

    def post_count() -> int:
        with CaptureQueriesContext(connection) as queries:
            _post(w, anna, **fields)
        return len(queries)

    def grow():
        for owner, area in ((w.league.a, w.sea), (w.league.b, w.coast), (None, w.orbit)):
            fleet = FleetFactory(campaign=w.league.campaign, owner=owner, area=area,
                                 kind="pirate" if owner is None else "regular")
            ShipFactory(fleet=fleet, datasheet=datasheet("4D"))
            ShipFactory(fleet=fleet)

    post_count()
    before = post_count()
    assert_constant_queries(client_for(anna), _url(w), grow)
    assert post_count() == before


# --- R-ODDS-1: the page says how many battles ran and why, in English and German ---------------

STOPS = {
    "requested": (10_000, "Sample: 10,000 simulated battles, all that were asked for.",
                  "Stichprobe: 10.000 simulierte Schlachten, alle verlangten."),
    "precise": (2_300, "Sample: 2,300 simulated battles. The preview stopped before the 10,000 "
                       "asked for: every 95% interval was already within 1 percentage point "
                       "either side.",
                "Stichprobe: 2.300 simulierte Schlachten. Die Vorschau endete vor den "
                "verlangten 10.000: jedes 95-%-Intervall reichte schon höchstens 1 "
                "Prozentpunkt zu jeder Seite."),
    "work_budget": (1_400, "Sample: 1,400 simulated battles. The preview stopped before the "
                           "10,000 asked for: the computing work one preview may take was used "
                           "up.",
                    "Stichprobe: 1.400 simulierte Schlachten. Die Vorschau endete vor den "
                    "verlangten 10.000: die Rechenarbeit, die eine Vorschau aufwenden darf, war "
                    "verbraucht."),
}


@pytest.mark.parametrize("reason", sorted(STOPS))
def test_r_odds_1_the_page_says_how_many_battles_ran_and_why(w, monkeypatch, reason):
    from rules.odds import OddsResult, wilson_interval
    fought, english, german = STOPS[reason]
    counts = {"attacker_wins": fought // 2, "defender_wins": fought - fought // 2,
              "undecided": 0}
    result = OddsResult(fought, *(counts[n] / fought for n in counts),
                        ci95={n: wilson_interval(c, fought) for n, c in counts.items()},
                        requested=10_000, stop_reason=reason)
    monkeypatch.setattr(odds_view, "odds_preview_run", lambda **kwargs: result)
    for headers, words in (({}, english), ({"HTTP_ACCEPT_LANGUAGE": "de"}, german)):
        section = _section(_post(w, w.league.a.user, headers=headers, attacker_ships="1 1 1",
                                 defender_ships="1 1 1"))
        assert " ".join(words.split()) in " ".join(section.split())
        assert f'data-stop-reason="{reason}"' in section
        assert "seconds" not in section and "Sekunden" not in section
