"""R-SEA-2 / R-FLT-2: a sea hazard's attack, defence and agility stay within the ship bounds
(``rules.ship_values``, their one definition), whoever places it: an island's owner or the
campaign admin. Out of bounds is a 400 in the project's error shape naming both rules and the
field; nothing is stored."""

import pytest

from fleets.models import SeaHazard
from rules.ship_values import BOUNDS
from tests.worlds import api

OUT_OF_BOUNDS = [("attack", 1000), ("attack", BOUNDS["attack"][1] + 1), ("attack", -1),
                 ("defence", 1000), ("defence", BOUNDS["defence"][0] - 1),
                 ("agility", 1000), ("agility", BOUNDS["agility"][1] + 1)]


@pytest.mark.parametrize(("field", "value"), OUT_OF_BOUNDS)
def test_r_sea_2_r_flt_2_hazard_values_out_of_the_ship_bounds_are_refused(fleet_world, field,
                                                                           value):
    lg = fleet_world.league
    before = SeaHazard.objects.count()
    body = {"name": "Reef of Teeth", "area": fleet_world.island.pk, "attack": 2, "defence": 4,
            field: value}
    for user in (lg.c.user, lg.admin):  # the island's owner, then the admin
        response = api(user).post(lg.url("hazards/"), body, format="json")
        assert response.status_code == 400, response.content
        error = response.json()
        assert error["code"] == "R-SEA-2" and list(error["errors"]) == [field]
        low, high = BOUNDS[field]
        assert f"from {low} to {high}" in error["detail"]
        assert "R-SEA-2" in error["detail"] and "R-FLT-2" in error["detail"]
    assert SeaHazard.objects.count() == before


def test_r_sea_2_r_flt_2_hazard_values_at_the_ship_bounds_are_placed(fleet_world):
    lg = fleet_world.league
    high = {key: BOUNDS[key][1] for key in ("attack", "defence", "agility")}
    body = {"name": "Leviathan", "area": fleet_world.island.pk, **high}
    response = api(lg.c.user).post(lg.url("hazards/"), body, format="json")
    assert response.status_code == 201, response.content
    hazard = SeaHazard.objects.get(pk=response.json()["id"])
    assert (hazard.attack, hazard.defence, hazard.agility, hazard.hits) == (50, 50, 7, 0)
