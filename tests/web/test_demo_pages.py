"""The demo campaign (``manage.py demo``, run by ``make run``) renders on every page for its
admin, a player and an anonymous visitor: markers, islands, pirates and coastal waters too."""

import re

from league.demo import demo_create
from tests.worlds import client_for


def test_every_page_of_the_demo_renders(db):
    campaign, _passwords = demo_create()
    admin = campaign.admins.get()
    anna = campaign.players.get(user__username="anna").user
    base = f"/campaigns/{campaign.pk}/"
    pages = {admin: ["", "map/", "battles/", "fleets/", "standings/", "rounds/1/audit/",
                     "manage/"],
             anna: ["", "map/", "battles/", "fleets/", "conquest/", "standings/",
                    "rounds/1/audit/"],
             None: ["", "map/", "fleets/", "standings/", "rounds/1/audit/"]}
    for user, rests in pages.items():
        client = client_for(user)
        for rest in rests:
            response = client.get(base + rest)
            assert response.status_code == 200, (user, rest)
    html = client_for(anna).get(base + "map/").content.decode()
    assert len(re.findall(r"<polygon [^>]*data-tile-id=", html)) == 38
    assert 'href="#icon-manufactorum"' in html and 'href="#icon-shield"' in html
    assert "Isle of Ash" in html and "Pirates" in html
    assert "Forge Fleet Ryza" in html and "Da Red Armada" not in html
    fleets = client_for(anna).get(base + "fleets/").content.decode()
    assert "Forge Fleet Ryza" in fleets and "Da Red Armada" not in fleets
