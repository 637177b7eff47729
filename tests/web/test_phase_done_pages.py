"""Early advance (R-RND-2) on the pages: the "Done for this phase" card of the campaign home, the
early advance after a player's input, and the ruleset switch (R-RND-2 [reading])."""

from django.utils import timezone

from battles.models import Battle
from campaigns.models import Campaign, PhaseDone
from tests.worlds import client_for, page_duel

DONE_POST = {"phase": "declare"}


def _home(world, user) -> str:
    return client_for(user).get(world.url()).content.decode()


def _done(world, user, **data):
    return client_for(user).post(world.url("done/"), data or DONE_POST, follow=True)


def test_the_card_counts_players_done_and_offers_the_button(page_world):
    html = _home(page_world, page_world.lg.a.user)
    assert 'id="phase-done"' in html and "0 of 4 players are done." in html
    assert "Done for this phase" in html
    assert "The phase moves on as soon as everyone is done" in html
    assert 'name="phase" value="declare"' in html
    assert 'id="phase-done"' not in _home(page_world, page_world.lg.admin)  # not a player


def test_done_then_not_done_after_all(page_world):
    lg = page_world.lg
    response = _done(page_world, lg.a.user)
    html = response.content.decode()
    assert "You are done for this phase." in html
    assert "1 of 4 players is done." in html and "Not done after all" in html
    assert PhaseDone.objects.filter(player=lg.a, phase="declare").exists()
    assert "1 of 4 players is done." in _home(page_world, lg.b.user)  # counts only
    html = _done(page_world, lg.a.user, phase="declare", undo="1").content.decode()
    assert "0 of 4 players are done." in html
    assert not PhaseDone.objects.filter(player=lg.a).exists()


def test_everyone_done_advances_the_phase(page_world):
    for player in page_world.lg.players[:3]:
        _done(page_world, player.user)
    html = _done(page_world, page_world.lg.d.user).content.decode()
    assert "Everyone is done: the phase moved on." in html
    page_world.rnd.refresh_from_db()
    assert page_world.rnd.phase != "declare"


def test_a_stale_page_is_refused(page_world):
    html = _done(page_world, page_world.lg.a.user, phase="lists").content.decode()
    assert "Refused" in html and "That phase is over" in html
    assert not PhaseDone.objects.exists()


def test_a_post_without_the_phase_is_a_400(page_world):
    client = client_for(page_world.lg.a.user)
    for data in ({}, {"phase": "fleets"}):
        response = client.post(page_world.url("done/"), data)
        assert response.status_code == 400 and "R-RND-2" in response.content.decode()
    assert not PhaseDone.objects.exists()


def test_paused_names_the_pause(page_world):
    Campaign.objects.filter(pk=page_world.campaign.pk).update(
        paused_at=timezone.now(), pause_reason="Christmas break")
    html = _done(page_world, page_world.lg.a.user).content.decode()
    assert "Refused" in html and "Christmas break" in html
    assert not PhaseDone.objects.exists()


def test_no_card_when_early_advance_is_off(page_world):
    page_world.lg.set_rules(early_advance=False)
    assert 'id="phase-done"' not in _home(page_world, page_world.lg.a.user)


def test_german(page_world):
    client = client_for(page_world.lg.a.user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    html = client.get(page_world.url()).content.decode()
    assert "0 von 4 Spielern sind fertig." in html and "Fertig für diese Phase" in html
    html = client.post(page_world.url("done/"), DONE_POST, follow=True).content.decode()
    assert "1 von 4 Spielern ist fertig." in html and "Doch nicht fertig" in html


def test_the_last_list_on_the_page_advances_at_once(page_world):
    battle = page_duel(page_world, "lists")
    for player in (page_world.lg.b, page_world.lg.a):
        client_for(player.user).post(page_world.url(f"battles/{battle.pk}/army-list/"),
                                     {"text": "Unit: 500"})
    battle.round.refresh_from_db()
    assert battle.round.phase == "battles"
    assert Battle.objects.get(pk=battle.pk).lists_revealed_at is not None


def test_the_ruleset_form_switches_early_advance(page_world):
    admin = client_for(page_world.lg.admin)
    html = admin.get(page_world.url("manage/")).content.decode()
    assert 'name="early_advance"' in html and "Advance early when everyone is done" in html
    data = {k: ("on" if v is True else v) for k, v in page_world.campaign.ruleset.items()
            if k not in ("phase_hours", "weekly_deadlines", "early_advance")
            and v is not None and v is not False}
    data.update({f"phase_hours_{p}": h
                 for p, h in page_world.campaign.ruleset["phase_hours"].items()})
    admin.post(page_world.url("manage/ruleset/"), data)  # the box unticked
    page_world.campaign.refresh_from_db()
    assert page_world.campaign.ruleset["early_advance"] is False
    admin.post(page_world.url("manage/ruleset/"), {**data, "early_advance": "on"})
    page_world.campaign.refresh_from_db()
    assert page_world.campaign.ruleset["early_advance"] is True
