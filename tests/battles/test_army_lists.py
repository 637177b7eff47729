"""Army lists through the API (R-ARM-1..3): JSON, text and roster uploads, the limit, replacing
before the reveal, the reveal, and who may do what when."""

import json
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from battles.models import ArmyList, Battle
from battles.rosters import MAX_BYTES, parse_entries
from battles.services.lists import army_list_submit
from battles.services.results import battle_result_enter
from campaigns.models import Round
from tests.battles.tabletop import LOSS, entries_list, ros, rosz
from tests.factories import UserFactory
from tests.worlds import advance_to, api, chain, declare, duel, row, tile

pytestmark = pytest.mark.django_db
CAPTAIN = entries_list(("Captain", 85), ("Intercessor Squad", 100))


@pytest.fixture
def battle(lg):
    return duel(lg)


def url(lg, battle):
    return lg.url(f"battles/{battle.pk}/army-list/")


def upload_url(lg, battle):
    """Roster files: multipart only, an operation of their own."""
    return lg.url(f"battles/{battle.pk}/army-list/upload/")


def upload(name: str, content: bytes) -> dict:
    return {"file": SimpleUploadedFile(name, content, content_type="application/octet-stream")}


def test_r_arm_1_json_entries_are_stored_with_their_total(lg, battle):
    response = api(lg.a.user).post(url(lg, battle), CAPTAIN, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["player"], body["name"], body["total"], body["source"]) == (
        lg.a.pk, "Spearhead", 185, "json")
    assert body["entries"] == CAPTAIN["entries"] and body["warnings"] == []
    mine = api(lg.a.user).get(url(lg, battle)).json()["lists"]
    assert [(x["player"], x["total"]) for x in mine] == [(lg.a.pk, 185)]


def test_r_arm_2_pasted_text(lg, battle):
    text = "Captain - 85\n* Intercessor Squad (100 pts)\nTotal: 190"
    response = api(lg.a.user).post(url(lg, battle), {"name": "Pasted", "text": text},
                                   format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["name"], body["total"], body["roster_total"], body["source"]) == (
        "Pasted", 185, 190, "text")
    assert len(body["warnings"]) == 1  # the stated total differs from the sum


def test_r_arm_2_battlescribe_ros_upload(lg, battle):
    content = ros([("Captain", 90), ("Intercessor Squad", 100)], name="Strike force")
    response = api(lg.b.user).post(upload_url(lg, battle), upload("strike.ros", content),
                                   format="multipart")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["entries"] == [{"name": "Captain", "points": 90},
                               {"name": "Intercessor Squad", "points": 100}]
    assert (body["total"], body["roster_total"], body["faction"], body["source"]) == (
        190, 190, "Imperium - Space Marines", "ros")
    assert body["name"] == "Strike force"


def test_r_arm_2_battlescribe_rosz_upload(lg, battle):
    content = rosz(ros([("Warboss", 120), ("Boyz", 170)], faction="Orks"))
    response = api(lg.a.user).post(upload_url(lg, battle), upload("waaagh.rosz", content),
                                   format="multipart")
    assert response.status_code == 201, response.json()
    assert (response.json()["total"], response.json()["faction"],
            response.json()["source"]) == (290, "Orks", "rosz")


def test_r_arm_2_new_recruit_json_upload(lg, battle):
    export = {"roster": {"name": "NR list", "costs": [{"name": "pts", "typeId": "points",
                                                      "value": 150}],
                         "forces": [{"catalogueName": "Aeldari", "selections": [
                             {"name": "Farseer", "costs": [{"name": "pts", "typeId": "points",
                                                            "value": 150}]}]}]}}
    response = api(lg.a.user).post(upload_url(lg, battle),
                                   upload("nr.json", json.dumps(export).encode()),
                                   format="multipart")
    assert response.status_code == 201, response.json()
    assert (response.json()["total"], response.json()["source"]) == (150, "newrecruit")


def test_r_arm_1_a_list_over_the_limit_is_refused_with_limit_and_excess(lg, battle):
    over = entries_list(("Titan", 1400), ("Escort", 200))  # 1600 > 1500
    response = api(lg.a.user).post(url(lg, battle), over, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "R-ARM-1"
    assert "1500" in body["detail"] and "100 over" in body["detail"]
    assert not ArmyList.objects.exists()
    at_limit = entries_list(("Titan", 1400), ("Escort", 100))
    assert api(lg.a.user).post(url(lg, battle), at_limit, format="json").status_code == 201


def test_r_arm_1_an_over_limit_roster_file_is_refused_too(lg, battle):
    content = rosz(ros([("Titan", 1501)]))
    response = api(lg.a.user).post(upload_url(lg, battle), upload("big.rosz", content),
                                   format="multipart")
    assert response.status_code == 400 and response.json()["code"] == "R-ARM-1"


def test_r_arm_3_a_list_is_replaced_until_both_are_in(lg, battle):
    client = api(lg.a.user)
    assert client.post(url(lg, battle), CAPTAIN, format="json").status_code == 201
    second = entries_list(("Librarian", 95), name="Second thoughts")
    assert client.post(url(lg, battle), second, format="json").status_code == 201
    (stored,) = ArmyList.objects.filter(battle=battle)
    assert (stored.name, stored.total) == ("Second thoughts", 95)
    assert Battle.objects.get(pk=battle.pk).lists_revealed_at is None


def test_r_arm_3_both_lists_in_reveals_them_and_locks_them(lg, battle):
    lg.set_rules(early_advance=False)  # else the lists phase ends with both in
    assert api(lg.a.user).post(url(lg, battle), CAPTAIN, format="json").status_code == 201
    assert api(lg.b.user).post(url(lg, battle), entries_list(("Warboss", 120)),
                               format="json").status_code == 201
    assert Battle.objects.get(pk=battle.pk).lists_revealed_at is not None
    seen = api(lg.a.user).get(url(lg, battle)).json()["lists"]
    assert [(x["player"], x["total"]) for x in seen] == [(lg.a.pk, 185), (lg.b.pk, 120)]
    again = api(lg.a.user).post(url(lg, battle), entries_list(("Librarian", 95)),
                                format="json")
    assert again.status_code == 409 and again.json()["code"] == "lists_revealed"
    assert ArmyList.objects.get(battle=battle, player=lg.a).total == 185


def test_r_arm_3_the_lists_deadline_reveals_and_closes(lg, battle):
    api(lg.a.user).post(url(lg, battle), CAPTAIN, format="json")
    rnd = Round.objects.get(pk=battle.round_id)
    Round.objects.filter(pk=rnd.pk).update(phase_deadline=timezone.now() - timedelta(seconds=1))
    # past the deadline, before the periodic job advanced: revealed and closed already
    assert [x["player"] for x in api(lg.b.user).get(url(lg, battle)).json()["lists"]] == [
        lg.a.pk]
    late = api(lg.b.user).post(url(lg, battle), entries_list(("Boyz", 100)), format="json")
    assert late.status_code == 409 and late.json()["code"] == "lists_revealed"


def test_r_arm_3_a_passed_lists_deadline_cannot_move_to_hide_the_lists_again(lg, battle):
    api(lg.a.user).post(url(lg, battle), CAPTAIN, format="json")
    rnd = Round.objects.get(pk=battle.round_id)
    deadline = lg.url(f"rounds/{rnd.number}/")
    later = (timezone.now() + timedelta(days=1)).isoformat()
    assert api(lg.admin).patch(deadline, {"phase_deadline": later},
                               format="json").status_code == 200  # before it passes: fine
    Round.objects.filter(pk=rnd.pk).update(phase_deadline=timezone.now() - timedelta(seconds=1))
    assert len(api(lg.b.user).get(url(lg, battle)).json()["lists"]) == 1  # ben has seen it
    moved = api(lg.admin).patch(deadline, {"phase_deadline": later}, format="json")
    assert moved.status_code == 409 and moved.json()["code"] == "lists_revealed"
    assert len(api(lg.b.user).get(url(lg, battle)).json()["lists"]) == 1
    late = api(lg.b.user).post(url(lg, battle), entries_list(("Boyz", 100)), format="json")
    assert late.status_code == 409


def test_r_rnd_3_advancing_past_lists_reveals_and_no_list_is_taken_after(lg, battle):
    api(lg.a.user).post(url(lg, battle), CAPTAIN, format="json")
    advance_to(battle.round, "battles")
    assert Battle.objects.get(pk=battle.pk).lists_revealed_at is not None
    assert len(api(lg.b.user).get(url(lg, battle)).json()["lists"]) == 1
    late = api(lg.b.user).post(url(lg, battle), CAPTAIN, format="json")
    assert late.status_code == 409 and late.json()["code"] == "wrong_phase"


def test_r_sec_2_who_sees_and_submits_lists(lg, battle):
    api(lg.a.user).post(url(lg, battle), CAPTAIN, format="json")
    assert api().get(url(lg, battle)).status_code == 401
    assert api().post(url(lg, battle), CAPTAIN, format="json").status_code == 401
    assert api(UserFactory()).get(url(lg, battle)).status_code == 404
    assert api(UserFactory()).post(url(lg, battle), CAPTAIN, format="json").status_code == 404
    assert api(lg.c.user).get(url(lg, battle)).status_code == 403
    assert api(lg.c.user).post(url(lg, battle), CAPTAIN, format="json").status_code == 403
    assert api(lg.admin).post(url(lg, battle), CAPTAIN, format="json").status_code == 403
    assert [x["player"] for x in api(lg.admin).get(url(lg, battle)).json()["lists"]] == [
        lg.a.pk]  # the admin sees every list, hidden or not
    assert api(lg.a.user).get(lg.url("battles/999999/army-list/")).status_code == 404


def test_checks_run_in_order_permission_before_phase_before_input(lg, battle):
    Round.objects.filter(pk=battle.round_id).update(phase="declare")
    assert api(lg.c.user).post(url(lg, battle), ["junk"], format="json").status_code == 403
    response = api(lg.a.user).post(url(lg, battle), ["junk"], format="json")
    assert response.status_code == 409 and response.json()["code"] == "wrong_phase"


@pytest.mark.parametrize("payload", [
    [], "text", {"name": "x"}, {"name": "x", "entries": "Captain 85"},
    {"name": "x", "entries": [{"name": "Captain", "points": "85"}]},
    {"name": "x", "entries": [{"name": "Captain", "points": -1}]},
    {"name": "x", "entries": [{"name": "", "points": 1}]},
    {"name": 5, "text": "Captain - 85"}, {"name": "x" * 201, "text": "Captain - 85"},
    {"text": 5}, {"text": "not a list line"}, {"text": ""}, {"name": "x", "text": "A - 1",
                                                             "faction": "y"},
    {"name": "x", "entries": [{"name": "A", "points": 1}], "colour": "red"},
    {"name": "x", "entries": [{"name": "A", "points": 10**30}]},
])
def test_r_arm_2_unreadable_json_or_text_is_400(lg, battle, payload):
    response = api(lg.a.user).post(url(lg, battle), payload, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid" and response.json()["detail"]
    assert not ArmyList.objects.exists()


@pytest.mark.parametrize("name,content", [
    ("list.ros", b"<not xml"),
    ("list.ros", b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "b">]><roster/>'),
    ("list.rosz", b"PK\x03\x04 broken zip"),
    ("list.rosz", b""),
    ("list.txt", b"Captain - 85"),
    ("list.json", b"{\"roster\": 5}"),
    ("list.json", b"\xff\xfe"),
])
def test_r_arm_2_bad_roster_files_are_400_with_a_message(lg, battle, name, content):
    response = api(lg.a.user).post(upload_url(lg, battle), upload(name, content),
                                   format="multipart")
    assert response.status_code == 400, response.content
    assert "file" in response.json()["errors"]


def test_huge_uploads_are_413_and_odd_content_types_are_refused(lg, battle):
    big = upload("big.ros", b"<" * (MAX_BYTES + 1))
    assert api(lg.a.user).post(upload_url(lg, battle), big, format="multipart").status_code == 413
    huge_json = {"name": "x", "text": "A - 1\n" * (MAX_BYTES // 6 + 20_000)}
    assert api(lg.a.user).post(url(lg, battle), huge_json, format="json").status_code == 413
    plain = api(lg.a.user).generic("POST", url(lg, battle), "Captain - 85",
                                   content_type="text/plain")
    assert plain.status_code == 415
    bad_json = api(lg.a.user).generic("POST", url(lg, battle), "{not json",
                                      content_type="application/json")
    assert bad_json.status_code == 400
    form = {"name": "x", "text": "Captain - 85"}
    multipart = api(lg.a.user).post(url(lg, battle), form, format="multipart")
    assert multipart.status_code == 415  # the JSON endpoint takes JSON only
    assert multipart.json()["code"] == "unsupported_media_type"
    no_file = api(lg.a.user).post(upload_url(lg, battle), form, format="multipart")
    assert no_file.status_code == 400 and "file" in no_file.json()["errors"]
    as_json = api(lg.a.user).post(upload_url(lg, battle), form, format="json")
    assert as_json.status_code == 415  # and the upload multipart only


def test_r_atk_4_a_neutral_garrison_battle_has_one_list_replaceable_until_the_deadline(lg):
    lg.set_rules(neutral_needs_battle=True, early_advance=False)  # see above
    alpha = lg.planet()
    row(alpha, lg.a, (0,))
    attack = declare(lg.a, lg.start(), tile(alpha, 1, 0, None))
    advance_to(attack.round, "lists")
    battle = Battle.objects.get(attack=attack)
    assert battle.neutral and list(battle.point_limits) == [str(lg.a.pk)]
    client = api(lg.a.user)
    assert client.post(url(lg, battle), CAPTAIN, format="json").status_code == 201
    assert client.post(url(lg, battle), CAPTAIN, format="json").status_code == 201
    assert Battle.objects.get(pk=battle.pk).lists_revealed_at is None
    detail = client.get(lg.url(f"battles/{battle.pk}/")).json()
    assert detail["lists_submitted"] == {str(lg.a.pk): True}


def test_r_atk_5_a_chain_link_settled_in_battles_takes_lists_then(lg):
    links = chain(lg)
    assert api(lg.b.user).post(url(lg, links[1]), CAPTAIN, format="json").json()["code"] == \
        "battle_pending"
    battle_result_enter(battle=links[0], by_admin_user=lg.admin, **LOSS)
    second = Battle.objects.get(pk=links[1].pk)
    assert second.status == "open" and second.point_limits
    assert api(lg.b.user).post(url(lg, second), CAPTAIN, format="json").status_code == 201
    assert api(lg.d.user).get(url(lg, second)).json()["lists"] == []  # still hidden
    assert api(lg.d.user).post(url(lg, second), entries_list(("Boyz", 100)),
                               format="json").status_code == 201
    assert len(api(lg.d.user).get(url(lg, second)).json()["lists"]) == 2
    # the first link's lists phase is over: it takes none
    first = api(lg.a.user).post(url(lg, links[0]), CAPTAIN, format="json")
    assert first.status_code == 409


def test_r_atk_5_a_late_links_window_ends_after_the_lists_hours(lg):
    links = chain(lg)
    battle_result_enter(battle=links[0], by_admin_user=lg.admin, **LOSS)
    second = Battle.objects.select_related("campaign").get(pk=links[1].pk)
    later = second.settled_at + timedelta(hours=25)  # phase_hours["lists"] is 24
    army_list_submit(battle=second, player=lg.b, parsed=parse_entries(CAPTAIN),
                     now=second.settled_at + timedelta(hours=1))
    from battles.services.lists import lists_reveal_late

    assert lists_reveal_late(now=second.settled_at + timedelta(hours=2)) == 0
    assert lists_reveal_late(now=later) == 1
    assert Battle.objects.get(pk=second.pk).lists_revealed_at == later
    assert lists_reveal_late(now=later) == 0
