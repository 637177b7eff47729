"""Hidden information never reaches a page's HTML (R-SEC-2, R-FLT-7, R-DICE-2): another
player's declarations during declare, other players' fleet details, the seed before close."""

from campaigns.models import DiceRoll, Round
from tests.worlds import (
    SECRET_CARGO,
    SECRET_CREW,
    SECRET_ORDER,
    SECRET_SHIP,
    advance_to,
    client_for,
    declare,
)

FLEET_SECRETS = [SECRET_SHIP, SECRET_CARGO, SECRET_CREW, SECRET_ORDER, "Armada Obscura"]


def _html(world, user, rest="map/") -> str:
    response = client_for(user).get(world.url(rest))
    assert response.status_code == 200
    return response.content.decode()


def _declarations(html: str) -> str:
    return html.split('id="declarations"', 1)[1].split("</section>", 1)[0]


def test_declarations_of_others_stay_hidden_until_declare_ends(page_world):
    attack = declare(page_world.lg.b, page_world.rnd, page_world.tiles["free"])
    marker = f'data-attack-id="{attack.pk}"'
    assert marker not in _html(page_world, page_world.lg.a.user)
    assert "Orks on Alpha" not in _declarations(_html(page_world, page_world.lg.a.user))
    assert marker in _html(page_world, page_world.lg.b.user)
    assert marker in _html(page_world, page_world.lg.admin)
    Round.objects.filter(pk=page_world.rnd.pk).update(phase=Round.Phase.LISTS)
    assert marker in _html(page_world, page_world.lg.a.user)


def test_declarations_are_not_shown_to_non_members(public_page_world, outsider):
    declare(public_page_world.lg.b, public_page_world.rnd, public_page_world.tiles["free"])
    Round.objects.filter(pk=public_page_world.rnd.pk).update(phase=Round.Phase.LISTS)
    assert 'id="declarations"' not in _html(public_page_world, outsider)
    assert 'id="declarations"' not in _html(public_page_world, None)


def test_fleet_details_only_for_their_owner_and_the_admin(public_page_world, outsider):
    for viewer in (public_page_world.lg.a.user, outsider, None):
        html = _html(public_page_world, viewer)
        assert "Deep Ocean" in html  # the area and the fleet's public fields are there
        for secret in FLEET_SECRETS:
            assert secret not in html, secret
    for viewer in (public_page_world.lg.b.user, public_page_world.lg.admin):
        html = _html(public_page_world, viewer)
        for secret in FLEET_SECRETS:
            assert secret in html, secret


def test_the_seed_is_absent_before_close_and_shown_after(page_world):
    seed = bytes(page_world.rnd.server_seed).hex()
    for rest in ("rounds/1/audit/", "", "map/", "standings/"):
        assert seed not in _html(page_world, page_world.lg.admin, rest)
        assert seed not in _html(page_world, page_world.lg.a.user, rest)
    advance_to(page_world.rnd, "closed")
    assert seed in _html(page_world, page_world.lg.a.user, "rounds/1/audit/")
    round_2 = page_world.campaign.rounds.get(number=2)
    assert bytes(round_2.server_seed).hex() not in _html(page_world, page_world.lg.admin,
                                                         "rounds/2/audit/")


def test_requisition_of_others_is_not_on_the_map(page_world):
    page_world.lg.b.requisition = 7345
    page_world.lg.b.save()
    assert "7345" not in _html(page_world, page_world.lg.a.user)
    assert "7345" in _html(page_world, page_world.lg.b.user)


def test_fleet_draws_stay_out_of_the_log_until_close(page_world):
    DiceRoll.objects.create(round=page_world.rnd, counter=0, purpose="fleet-move 17 interception",
                            sides=6, faces=[4, 2], object="fleet 17")
    DiceRoll.objects.create(round=page_world.rnd, counter=1, purpose="conquest attack 3",
                            sides=6, faces=[6, 1])
    player = _html(page_world, page_world.lg.a.user, "rounds/1/audit/")
    assert "conquest attack 3" in player and "fleet-move 17" not in player
    assert "fleet-move 17" in _html(page_world, page_world.lg.admin, "rounds/1/audit/")


def test_the_map_as_text_hides_declarations_during_declare(page_world):
    """The text view lists the attacks the reader may see (R-SEC-2): during declare only
    their own; the attacker's faction shows up once more for them and the admin alone."""
    before = {user: _html(page_world, user, "map/text/").count("Orks")
              for user in (page_world.lg.a.user, page_world.lg.b.user, page_world.lg.admin)}
    declare(page_world.lg.b, page_world.rnd, page_world.tiles["free"])
    after = {user: _html(page_world, user, "map/text/").count("Orks") for user in before}
    assert after[page_world.lg.a.user] == before[page_world.lg.a.user]
    assert after[page_world.lg.b.user] > before[page_world.lg.b.user]
    assert after[page_world.lg.admin] > before[page_world.lg.admin]


def test_the_map_as_text_shows_fleets_by_their_public_facts(public_page_world, outsider):
    for viewer in (public_page_world.lg.a.user, outsider, None):
        html = _html(public_page_world, viewer, "map/text/")
        assert "Deep Ocean" in html
        for secret in FLEET_SECRETS:
            assert secret not in html, secret
