"""German for German browsers: every page renders in German with <html lang="de">, and the
language switcher changes the language for the session."""

import pytest

from tests.web.rule_text import unlinked
from tests.worlds import advance_to, client_for, declare

GERMAN = {"": "Letzte Ereignisse", "map/": "Angriffserklärungen dieser Runde",
          "standings/": "Gehaltene Felder über die Runden", "rounds/1/audit/": "Würfelprotokoll",
          "conquest/": "Eroberung", "manage/": "Kampagne verwalten",
          "battles/": "Meine Schlachten", "fleets/": "Meine Flotten"}


@pytest.mark.parametrize("rest", list(GERMAN))
def test_pages_render_in_german_for_german_browsers(page_world, rest):
    user = page_world.lg.admin if rest == "manage/" else page_world.lg.a.user
    response = client_for(user).get(page_world.url(rest), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="de">' in html and GERMAN[rest] in html
    assert "Übersicht" in html and "Karte" in html  # the campaign tabs


def test_english_stays_the_default(page_world):
    html = client_for(page_world.lg.a.user).get(page_world.url()).content.decode()
    assert '<html lang="en">' in html and "Recent events" in html


def test_the_rule_hint_and_form_help_are_german(page_world):
    client = client_for(page_world.lg.a.user)
    tile = page_world.tiles["free"]
    panel = client.get(page_world.url(f"map/tiles/{tile.pk}/"), HTTP_HX_REQUEST="true",
                       HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Du darfst dieses Feld nicht angreifen." in panel
    assert "ungenutzte Angriffsarmee" in panel
    manage = unlinked(client_for(page_world.lg.admin).get(page_world.url("manage/"),
                                                          HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert "Vorgabe: 1500. Erlaubt: 0 bis 100000. (R-BON-1)" in manage
    assert "Grund-Armeepunkte" in manage


def test_german_conquest_shows_translated_modifiers(page_world):
    declare(page_world.lg.a, page_world.rnd, page_world.tiles["free"], armies=2)
    declare(page_world.lg.a, page_world.rnd, page_world.tiles["far"], armies=0)
    advance_to(page_world.rnd, "conquest")
    html = client_for(page_world.lg.a.user).get(page_world.url("conquest/"),
                                                HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Mehrere Eroberungen auf einem Planeten" in html and "Wahl absenden" in html


def test_the_language_switcher_sets_german(page_world):
    client = client_for(page_world.lg.a.user)
    response = client.post("/i18n/setlang/", {"language": "de", "next": page_world.url()})
    assert response.status_code == 302 and response["Location"] == page_world.url()
    assert '<html lang="de">' in client.get(page_world.url()).content.decode()


def test_a_refusal_is_explained_in_german(page_world):
    response = client_for(page_world.lg.a.user).post(page_world.url("map/purchase/"),
                                                     {"attack_armies": 50},
                                                     HTTP_ACCEPT_LANGUAGE="de")
    html = unlinked(response.content.decode())
    assert response.status_code == 400
    assert "Angriffsarmeen kosten Requisition" in html and "(R-ECO-1:" in html


def test_the_german_map_names_the_built_in_markers_in_german(page_world):
    """R-MRK-1: the legend and the tile panel give the built-in marker types their German
    label; a name the organiser typed is shown as typed."""
    from campaigns.models import Marker, MarkerType

    campaign, tile = page_world.lg.campaign, page_world.tiles["free"]
    for code, name in (("manufactorum", "Manufactorum"), ("shield_generator", "")):
        kind, _ = MarkerType.objects.update_or_create(campaign=campaign, code=code,
                                                     defaults={"name": name})
        Marker.objects.create(campaign=campaign, tile=tile, type=kind)
    own = MarkerType.objects.create(campaign=campaign, code="relic", name="Relic vault")
    Marker.objects.create(campaign=campaign, tile=tile, type=own)
    client = client_for(page_world.lg.a.user)
    page = client.get(page_world.url("map/"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    panel = client.get(page_world.url(f"map/tiles/{tile.pk}/"), HTTP_HX_REQUEST="true",
                       HTTP_ACCEPT_LANGUAGE="de").content.decode()
    for html in (page, panel):
        assert "Schildgenerator" in html and "Manufaktorum" in html and "Relic vault" in html
        assert "Shield generator" not in html and "Manufactorum" not in html
