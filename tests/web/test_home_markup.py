"""The home page's campaign cards are built as markup once per request
(web/presenters/campaign_list.py) and say what the template said: round and phase, visibility,
the reader's faction, whether they run it, and the deadline in the reader's zone."""

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.utils import timezone, translation

from web.presenters.campaign_list import campaign_cards

CAMPAIGN = SimpleNamespace(pk=12, name="<Crusade & co>", status="running", visibility="public")


def test_a_card_names_round_phase_faction_and_deadline():
    deadline = datetime(2026, 10, 24, 18, 0, tzinfo=UTC)
    entry = {"campaign": CAMPAIGN, "faction": "<Orks>", "runs": True,
             "round": {"number": 3, "phase": "declare", "phase_deadline": deadline}}
    with translation.override("de"), timezone.override("Europe/Berlin"):
        html = campaign_cards([entry])
    assert html.startswith('<li class="card"><h3><a href="/campaigns/12/">&lt;Crusade &amp; co')
    assert "Runde 3 · " in html and "du spielst &lt;Orks&gt;" in html and "du leitest sie" in html
    assert 'data-countdown="2026-10-24T18:00:00+00:00"' in html and 'data-days="T"' in html
    assert "Sa. 24. Okt. 2026, 20:00 MESZ" in html and "<Orks>" not in html


def test_a_card_without_a_round_shows_the_campaign_status():
    html = campaign_cards([{"campaign": CAMPAIGN, "round": None, "faction": None,
                            "runs": False}])
    assert "data-countdown" not in html and "you play" not in html and "you run it" not in html
    assert html.count('<li class="card">') == 1


@pytest.mark.django_db
def test_the_favicon_is_found_where_old_browsers_look(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("icons/favicon-32.png")
    html = client.get("/").content.decode()
    assert "icons/favicon.svg" in html and "apple-touch-icon" in html
