"""The players' rules on /rules/ (English and German, sanitised, a contents list and a
search), every rule id the code can emit anchored in both languages, rule ids on pages linked
to their section, and a campaign's ruleset values beside the defaults."""

import re
from pathlib import Path

import pytest
from django.template import Context, Template

from campaigns.models import Attack
from tests.worlds import client_for, make_league
from web.presenters import rulebook

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("rules", "campaigns", "fleets", "battles", "league", "web", "api", "templates")
HTMX = {"HTTP_HX_REQUEST": "true"}


def emitted_rule_ids() -> set[str]:
    """Every rule id written anywhere in the code and templates (comments included)."""
    found = set()
    for folder in SCANNED:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".html", ".txt") and "migrations" not in path.parts:
                found |= set(re.findall(r"R-[A-Z]+-\d+", path.read_text(encoding="utf-8")))
    return found


def test_every_rule_id_the_code_can_emit_has_a_section_in_both_languages():
    ids = emitted_rule_ids()
    assert len(ids) > 80  # the scan finds the code's ids at all
    for language in rulebook.LANGUAGES:
        anchors = rulebook.rulebook(language).anchors
        missing = sorted(i for i in ids if i.lower() not in anchors)
        assert not missing, (language, missing)


def test_markdown_is_sanitised():
    book = rulebook.render_markdown(
        "# Title\n\nIntro <script>alert(1)</script>\n\n## R-XX · Family\n\n"
        "### R-XX-1 One <img src=x onerror=alert(1)>\n\n"
        "[click](javascript:alert(1)) <b onclick=\"x()\">bold</b> <style>p{}</style>\n")
    html = book.intro + "".join(s.html for s in book.sections)
    assert "<script" not in html and "<img" not in html and "<style" not in html
    assert 'href="javascript' not in html and "<b onclick" not in html
    assert [s.anchor for s in book.sections] == ["r-xx", "r-xx-1"]
    assert '<h3 id="r-xx-1">' in book.sections[1].html


def test_rendered_rules_are_cached_per_language():
    assert rulebook.rulebook("en") is rulebook.rulebook("en")
    assert rulebook.rulebook("en") is not rulebook.rulebook("de")


@pytest.mark.django_db
def test_rules_page_in_the_readers_language_with_a_switch(client):
    english = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en")
    html = english.content.decode()
    assert english.status_code == 200 and english["Content-Language"] == "en"
    assert "<h1>The campaign rules</h1>" in html and 'id="r-con-3"' in html
    assert 'href="/rules/?lang=de"' in html and "Diese Regeln auf Deutsch" in html
    german = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "<h1>Die Kampagnenregeln</h1>" in german and 'id="r-con-3"' in german
    assert "Eroberungswurf" in german and "Regeln durchsuchen" in german
    chosen = client.get("/rules/?lang=de", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h1>Die Kampagnenregeln</h1>" in chosen and 'href="/rules/?lang=en"' in chosen


@pytest.mark.django_db
def test_rules_page_keeps_the_csp_no_inline_code(client):
    response = client.get("/rules/")
    html = response.content.decode()
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)  # every script is a file
    assert " style=" not in html and "<style" not in html


@pytest.mark.django_db
def test_contents_list_links_every_family_and_rule(client):
    html = client.get("/rules/").content.decode()
    toc = html.split('class="rules-toc"', 1)[1].split("</nav>", 1)[0]
    for anchor in ("r-rnd", "r-con", "r-con-3", "r-dice-2", "r-spc-6", "ruleset-keys"):
        assert f'href="#{anchor}"' in toc
        assert f'id="{anchor}"' in html
    # rule ids inside the text link to their sections on the same page
    assert '<a class="rule-link" href="#r-mrk-3">R-MRK-3</a>' in html


@pytest.mark.django_db
def test_search_shows_only_matching_sections_marked(client):
    html = client.get("/rules/?q=shield+generator").content.decode()
    assert 'data-section="r-mrk-1"' in html and 'data-section="r-con-3"' in html
    assert 'data-section="r-spc-7"' not in html and 'class="rules-toc"' not in html
    assert re.search(r"<mark>shield</mark> <mark>generator</mark>", html, re.I)
    assert "sections contain every word" in html
    # a link to a rule that is not among the results goes back to the whole page
    assert 'href="/rules/?lang=en#r-mrk-3"' in html
    none = client.get("/rules/?q=zzzqqq", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "0 Abschnitte enthalten jedes Wort" in none and 'data-section=' not in none
    by_id = client.get("/rules/?q=R-CON-3").content.decode()
    assert 'data-section="r-con-3"' in by_id
    by_key = client.get("/rules/?q=base_army_points").content.decode()
    assert 'data-section="r-bon-1"' in by_key


def test_rule_links_filter_escapes_and_links_known_ids_only():
    out = Template("{% load feldzug %}{{ text|rule_links }}").render(
        Context({"text": "<b>R-CON-3</b> and R-XYZ-99"}))
    assert out == ('&lt;b&gt;<a class="rule-link" href="/rules/#r-con-3">R-CON-3</a>&lt;/b&gt;'
                   " and R-XYZ-99")


@pytest.mark.django_db
def test_a_refused_declaration_links_its_rule(page_world):
    client = client_for(page_world.lg.a.user)
    response = client.post(page_world.url("map/declare/"), {"tile": page_world.tiles["free"].pk},
                           follow=True)
    assert not Attack.objects.exists()
    html = response.content.decode()
    assert '<a class="rule-link" href="/rules/#r-atk-1">R-ATK-1</a>: no attack army left' in html


@pytest.mark.django_db
def test_the_tile_panel_links_the_broken_rule(page_world):
    url = page_world.url(f"map/tiles/{page_world.tiles['free'].pk}/")
    html = client_for(page_world.lg.a.user).get(url, **HTMX).content.decode()
    assert 'data-rule="R-ATK-1"' in html  # attributes stay untouched
    assert '<a class="rule-link" href="/rules/#r-atk-1">R-ATK-1</a>:' in html


@pytest.mark.django_db
def test_campaign_rules_show_the_campaigns_values_beside_the_defaults(
        django_assert_max_num_queries):
    lg = make_league()
    lg.set_rules(bonus_per_tile=75, naval_engine="d6_space", phase_hours={"declare": 96})
    client = client_for(lg.a.user)
    with django_assert_max_num_queries(12):
        html = client.get(f"/campaigns/{lg.campaign.pk}/rules/").content.decode()
    bonus = html.split('data-ruleset-for="r-bon-2"', 1)[1].split("</aside>", 1)[0]
    assert re.search(r'data-key="bonus_per_tile" class="changed">.*?75.*?default: 50', bonus, re.S)
    assert re.search(r'data-key="bonus_scope">.*?>campaign<.*?the default', bonus, re.S)
    engine = html.split('data-ruleset-for="r-spc"', 1)[1].split("</aside>", 1)[0]
    assert "d6_space" in engine and "dark_force" in engine
    hours = html.split('data-ruleset-for="r-rnd-1"', 1)[1].split("</aside>", 1)[0]
    assert "96" in hours and "48" in hours
    assert f'href="/campaigns/{lg.campaign.pk}/rules/" aria-current="page"' in html
    german = client.get(f"/campaigns/{lg.campaign.pk}/rules/?lang=de").content.decode()
    assert "Standard: 50" in german and 'id="r-bon-2"' in german
    outsider = client_for(make_league(name="Other", admin="orga2", players=("zed",)).a.user)
    assert outsider.get(f"/campaigns/{lg.campaign.pk}/rules/").status_code == 404


@pytest.mark.django_db
def test_the_plain_rules_page_shows_no_campaign_boxes(client):
    assert "ruleset-box" not in client.get("/rules/").content.decode()


@pytest.mark.django_db
def test_the_organisers_guide_is_for_campaign_admins_in_both_languages():
    lg = make_league()
    url = f"/campaigns/{lg.campaign.pk}/manage/guide/"
    admin = client_for(lg.admin)
    html = admin.get(url).content.decode()
    assert "<h1>The organiser&#x27;s guide</h1>" in html
    for anchor in ("setting-up-a-campaign", "inviting-players", "backups", "the-map-document"):
        assert f'href="#{anchor}"' in html
    rules = f"/campaigns/{lg.campaign.pk}/rules/?lang=en#r-rnd-1"
    assert f'<a class="rule-link" href="{rules}">R-RND-1</a>' in html
    german = admin.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "<h1>Leitfaden für die Ligaleitung</h1>" in german and "pg_dump" in german
    found = admin.get(url + "?q=pg_dump").content.decode()
    assert 'data-section="backups"' in found and 'data-section="inviting-players"' not in found
    manage = admin.get(f"/campaigns/{lg.campaign.pk}/manage/").content.decode()
    assert f'href="{url}" id="manage-guide"' in manage
    assert client_for(lg.a.user).get(url).status_code == 403
