"""R-FLT-7, R-SEA-2, R-SEC-2: no endpoint shows another player's hidden fleet values - ship
names and classes, values, cargo, crew, datasheets, orders, standing orders - nor a hidden
hazard, to other players, strangers or the public, including in error answers."""

import pytest

from campaigns.services.campaigns import campaign_update
from tests.factories import UserFactory
from tests.worlds import FLEET_SECRETS, advance_to, api, client_for


@pytest.fixture
def world(fleet_world):
    w = fleet_world
    api(w.league.a.user).put(w.url(f"{w.anna_fleet.pk}/orders/"), {"path": [w.sea.pk]},
                             format="json")
    campaign_update(campaign=w.league.campaign, visibility="public")
    return w


def responses(w, user):
    """Every fleet-related answer ``user`` can get about anna's fleet and the hazard."""
    lg, anna = w.league, w.anna_fleet
    ship = anna.ships.first().pk
    client = api(user)
    gets = ["fleets/", f"fleets/{anna.pk}/", "map/", "standings/", "hazards/",
            f"hazards/{w.kraken.pk}/", "naval-battles/", "rounds/1/fleet-phase/",
            f"fleets/{anna.pk}/ships/", "rounds/1/rolls/"]
    out = [client.get(lg.url(path)) for path in gets]
    out += [client.put(lg.url(f"fleets/{anna.pk}/orders/"), {"path": [w.orbit.pk]},
                       format="json"),
            client.patch(lg.url(f"fleets/{anna.pk}/standing-orders/"), {"stance": "hold"},
                         format="json"),
            client.post(lg.url(f"fleets/{anna.pk}/ships/{ship}/embark/"),
                        {"name": "x", "points": 1}, format="json"),
            client.post(lg.url(f"fleets/{anna.pk}/ships/{ship}/disembark/"), {"index": 0},
                        format="json"),
            client.delete(lg.url(f"fleets/{anna.pk}/")),
            client.post(lg.url("hazards/"), {"name": "y", "area": w.sea.pk}, format="json")]
    return out


def assert_no_secret(answers, secrets):
    for response in answers:
        raw = response.content.decode()
        for secret in secrets:
            assert secret not in raw, (response.request["PATH_INFO"], secret)


@pytest.mark.parametrize("who", ["ben", "carl", "stranger", "anonymous"])
def test_r_flt_7_no_endpoint_leaks_anna_s_hidden_fleet_or_the_hazard(world, who):
    lg = world.league
    user = {"ben": lg.b.user, "carl": lg.c.user, "stranger": UserFactory(),
            "anonymous": None}[who]
    assert_no_secret(responses(world, user), FLEET_SECRETS["anna"] + FLEET_SECRETS["hazard"])


@pytest.mark.parametrize("who", ["ben", "carl", "anonymous"])
def test_r_flt_7_others_see_no_hidden_key_of_anna_s_fleet(world, who):
    lg = world.league
    client = api({"ben": lg.b.user, "carl": lg.c.user, "anonymous": None}[who])
    public = {"id", "owner", "area", "kind", "ship_count"}
    assert set(client.get(world.url(f"{world.anna_fleet.pk}/")).json()) == public
    listed = {f["id"]: f for f in client.get(world.url()).json()["results"]}
    assert set(listed[world.anna_fleet.pk]) == public
    mapped = {f["id"]: f for f in client.get(lg.url("map/")).json()["fleets"]}
    assert set(mapped[world.anna_fleet.pk]) == public


def test_r_flt_7_the_owner_and_admin_see_their_secrets(world):
    raw = api(world.league.a.user).get(world.url(f"{world.anna_fleet.pk}/")).content.decode()
    assert all(secret in raw for secret in FLEET_SECRETS["anna"])
    admin = api(world.league.admin).get(world.league.url("hazards/")).content.decode()
    assert "Lurking Kraken" in admin


@pytest.mark.parametrize("closed", [False, True], ids=["round open", "round closed"])
def test_r_flt_7_others_learn_of_a_naval_battle_only_its_summary(resolved_fleet_phase, closed):
    """Carl fought only in Y: of the other battles he learns where, who, the outcome and the
    ships lost (the Merchant Prince taken, the Lonely Frigate sunk), never the ships that stayed
    afloat, the crews, the cargo, the stances or the rolls - before and after the round
    closes (the list holds carl's own battle with its replay, so stances and steps are looked
    for in the other reports: tests/fleets/test_naval_battles_api.py)."""
    sc, lg = resolved_fleet_phase, resolved_fleet_phase.league
    if closed:
        advance_to(sc.rnd, "closed")
    secrets = ("Iron Fist", "Swift", "Boss", "Mate", "Guard", "Black Wake", "R-BRD")
    client = api(lg.c.user)
    answers = [client.get(lg.url(path)) for path in
               ("naval-battles/", "fleets/", "map/", "standings/", "hazards/",
                "rounds/1/rolls/", "rounds/1/fleet-phase/")]
    answers += [client.get(lg.url(f"naval-battles/{b.pk}/")) for b in
                sc.rnd.naval_battles.exclude(area=sc.areas["Y"])]
    pages = client_for(lg.c.user)  # the pages: the fleets page, each report, the dice audit
    answers += [pages.get(f"/campaigns/{lg.campaign.pk}/{path}") for path in
                ("fleets/", "rounds/1/audit/",
                 *(f"naval-battles/{b.pk}/" for b in sc.rnd.naval_battles.all()
                   .exclude(area=sc.areas["Y"])))]
    assert_no_secret(answers, secrets)
    summaries = answers[0].content.decode()
    assert "Merchant Prince" in summaries and "Lonely Frigate" in summaries


def test_r_flt_7_the_dice_audit_of_a_naval_battle_names_no_ship_or_crew(fleet_phase):
    """R-DICE-3 / R-FLT-7: once the round closed anyone may recompute every logged face, so the
    log shows the naval draws - by purpose and battle, never by a ship's or crew's name."""
    sc, lg = fleet_phase, fleet_phase.league
    campaign_update(campaign=lg.campaign, visibility="public")
    advance_to(sc.rnd, "closed")  # on the round's real, logged stream
    assert sc.rnd.naval_battles.filter(area=sc.areas["X"]).exists()
    names = [*sc.ships, "Boss", "Mate", "Guard"]
    answers = [api(user).get(lg.url("rounds/1/rolls/")) for user in (lg.c.user, None)]
    answers += [client_for(user).get(f"/campaigns/{lg.campaign.pk}/rounds/1/audit/")
                for user in (lg.c.user, None)]
    assert_no_secret(answers, names)
    assert all("naval-battle:area=" in answer.content.decode() for answer in answers)


def test_r_sea_2_a_triggered_hazard_shows_but_untriggered_ones_do_not(resolved_fleet_phase):
    lg = resolved_fleet_phase.league
    names = [h["name"] for h in api(lg.d.user).get(lg.url("hazards/")).json()["results"]]
    assert names == ["Kraken"]  # triggered by ben's explorer
