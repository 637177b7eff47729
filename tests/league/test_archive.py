"""The campaign archive (export -> import round trip, R-DICE-2/3 on the
imported rounds, hidden information R-ARM-3/R-FLT-7/R-SEA-2) and the sandbox copy."""

import json
from datetime import UTC, datetime

import pytest
from django.core import mail
from django.utils import timezone, translation

from battles.models import Battle, ConquestRoll, Notification
from battles.services.results import battle_result_enter
from campaigns.errors import Conflict
from campaigns.models import AdminAction, Campaign, DiceRoll, Player, Round, RoundMap
from campaigns.selectors.rounds import verify_round
from fleets.models import NavalBattle
from league.selectors.standings import live_standings
from league.services.archive import archive_export, campaign_clone_sandbox
from league.services.archive_import import archive_import
from league.services.map_document import DocumentInvalid
from league.services.pause import campaign_resume
from league.services.rounds import round_advance
from tests.budget import examples
from tests.worlds import (
    advance_to,
    build_fleet_phase,
    declare,
    hand_in,
    row,
    tile,
    with_emails,
)

SENTINEL_LIST = "Sentinel Unrevealed Warlord"


def _enter(lg, battle, outcome="victory", vp=(10, 3)):
    battle_result_enter(battle=Battle.objects.get(pk=battle.pk), by_admin_user=lg.admin,
                        outcome=outcome, attacker_vp=vp[0], defender_vp=vp[1])


def _play_two_rounds():
    """Round 1: the scripted fleets world's orders on the real stream (naval battles), anna
    beats ben on Alpha and rolls conquest. Round 2: carl beats dora. Round 3 opens."""
    sc = build_fleet_phase()
    lg, rnd = sc.league, sc.rnd
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    row(alpha, lg.c, (5,))
    first = declare(lg.a, rnd, tile(alpha, 1, 0, lg.b))
    advance_to(rnd, Round.Phase.BATTLES)
    _enter(lg, Battle.objects.get(attack=first))
    advance_to(rnd, Round.Phase.CLOSED)
    second_round = lg.campaign.rounds.get(number=2)
    second = declare(lg.c, second_round, tile(alpha, 6, 0, lg.d))
    advance_to(second_round, Round.Phase.BATTLES)
    _enter(lg, Battle.objects.get(attack=second), "draw", (7, 7))
    advance_to(second_round, Round.Phase.CLOSED)
    return sc, lg.campaign.rounds.get(number=3)


def _rows(rows):
    """Standings rows without what names the seat's holder (ids and accounts differ)."""
    hidden = ("player", "username", "display_name")
    return [{k: v for k, v in row.items() if k not in hidden} for row in rows]


def _round_trip(campaign, admin):
    now = timezone.now()
    document = json.loads(json.dumps(archive_export(campaign=campaign, by=admin, now=now)))
    return document, archive_import(document=document, by=admin, now=now)


@pytest.mark.django_db
def test_round_trip_reproduces_standings_and_verifies_every_die():
    sc, open_round = _play_two_rounds()
    lg = sc.league
    assert NavalBattle.objects.filter(round__campaign=lg.campaign).exists()
    document, copy = _round_trip(lg.campaign, lg.admin)
    assert document["format"] == "feldzug-campaign" and document["version"] == 1
    assert copy.pk != lg.campaign.pk and lg.admin in copy.admins.all()
    for number in (1, 2):
        old = lg.campaign.rounds.get(number=number)
        new = copy.rounds.get(number=number)
        assert _rows(new.standings.rows) == _rows(old.standings.rows)
        assert new.dice_campaign == lg.campaign.pk  # R-DICE-2: the draws' campaign id
        report = verify_round(new)  # R-DICE-3 on the imported log
        assert report.verified and report.checked == DiceRoll.objects.filter(round=old).count()
        assert report.checked > 0 and bytes(new.server_seed) == bytes(old.server_seed)
    assert _rows(live_standings(copy)) == _rows(live_standings(lg.campaign))
    for model, fields in ((ConquestRoll, ("dice", "total", "success", "counter")),
                          (NavalBattle, ("attacker_vp", "defender_vp", "first_counter",
                                         "dice_count"))):
        facts = [list(model.objects.filter(round__campaign=c).order_by("round__number", "pk")
                      .values_list(*fields)) for c in (lg.campaign, copy)]
        assert facts[0] and facts[0] == facts[1], model
    for number in (1, 2):  # the map as it stood at each close, re-keyed
        old, new = (RoundMap.objects.get(round__campaign=c, round__number=number)
                    for c in (lg.campaign, copy))
        assert sorted(str(t["markers"]) for t in old.tiles.values()) == \
            sorted(str(t["markers"]) for t in new.tiles.values())
        assert len(old.fleets) == len(new.fleets)
    # R-DICE-2: the open round got a fresh secret seed
    new_open = copy.rounds.get(number=3)
    assert not new_open.seed_revealed
    assert new_open.seed_commitment != open_round.seed_commitment
    # seats without accounts: inactive placeholders, no address ([reading])
    seats = Player.objects.filter(campaign=copy).select_related("user")
    assert {p.faction for p in seats} == {p.faction for p in lg.players}
    assert all(not p.user.is_active and not p.user.email for p in seats)
    assert AdminAction.objects.filter(campaign=lg.campaign, kind="campaign.export",
                                      public=False).exists()


@pytest.mark.django_db
def test_r_dice_3_an_imported_round_names_its_draws_campaign_to_outside_verifiers(client):
    sc, _ = _play_two_rounds()
    _, copy = _round_trip(sc.league.campaign, sc.league.admin)
    client.force_login(sc.league.admin)
    body = client.get(f"/api/v1/campaigns/{copy.pk}/rounds/1/rolls/").json()
    assert body["dice_campaign"] == sc.league.campaign.pk != copy.pk
    own = client.get(f"/api/v1/campaigns/{copy.pk}/rounds/3/rolls/").json()
    assert own["dice_campaign"] == copy.pk  # the open round draws under the new id
    page = client.get(f"/campaigns/{copy.pk}/rounds/1/audit/").content.decode()
    assert f"<code>{sc.league.campaign.pk}</code>" in page


@pytest.mark.django_db
def test_archive_of_an_imported_campaign_still_verifies():
    sc, _ = _play_two_rounds()
    _, copy = _round_trip(sc.league.campaign, sc.league.admin)
    _, again = _round_trip(copy, sc.league.admin)
    assert verify_round(again.rounds.get(number=1)).verified


@pytest.mark.django_db
def test_export_never_holds_hidden_information_of_the_open_round():
    """R-DICE-2 (seed), R-ARM-3 (a list not revealed), R-FLT-7 (fleet orders)."""
    sc = build_fleet_phase()
    lg, rnd = sc.league, sc.rnd
    alpha = lg.planet("Alpha")
    row(alpha, lg.a, (0,))
    attack = declare(lg.a, rnd, tile(alpha, 1, 0, lg.b))
    advance_to(rnd, Round.Phase.LISTS)
    battle = Battle.objects.get(attack=attack)
    hand_in(battle, lg.a, SENTINEL_LIST)  # only one list: not revealed (R-ARM-3)
    text = json.dumps(archive_export(campaign=lg.campaign, by=lg.admin, now=timezone.now()))
    rnd.refresh_from_db()
    assert SENTINEL_LIST not in text
    assert bytes(rnd.server_seed).hex() not in text
    assert '"path"' not in text and '"orders"' not in text  # no fleet orders (R-FLT-7)
    document = json.loads(text)
    assert document["rounds"][0]["server_seed"] is None
    assert all(not r["purpose"].startswith(("fleets", "int", "naval", "sea"))
               for r in document["rounds"][0]["rolls"])  # only public draws of the open round
    # past the fleets phase: the naval summaries, but no players' order or dice ranges yet
    assert document["rounds"][0]["fleet_phase"] is None
    assert document["rounds"][0]["naval_battles"]
    assert all(n["first_counter"] is None and "events" not in n and "sides" not in n
               for n in document["rounds"][0]["naval_battles"])


@pytest.mark.django_db
def test_export_in_declare_leaves_out_the_orders_given():
    sc = build_fleet_phase()
    lg = sc.league
    document = archive_export(campaign=lg.campaign, by=lg.admin, now=timezone.now())
    assert all(set(f) >= {"standing_orders"} and "orders" not in f
               for f in document["map"]["fleets"])
    assert '"path"' not in json.dumps(document)


@pytest.mark.django_db
def test_only_a_campaign_admin_exports():
    sc = build_fleet_phase()
    with pytest.raises(Exception) as caught:
        archive_export(campaign=sc.league.campaign, by=sc.league.a.user, now=timezone.now())
    assert getattr(caught.value, "status", None) == 403


@pytest.mark.django_db
@pytest.mark.parametrize(("change", "path"), [
    (lambda d: d.update(version=2), "version"),
    (lambda d: d["players"][0].update(colour="red"), "players[0].colour"),
    (lambda d: d["rounds"][0]["battles"][0].update(attacker=999999), "rounds[0].battles[0]"
                                                                      ".attacker"),
    (lambda d: d["rounds"][0].update(server_seed="00" * 32), "rounds[0].server_seed"),
    (lambda d: d["map"]["planets"][0]["tiles"][0].update(q="x"), "map.planets[0].tiles[0].q"),
    (lambda d: d["rounds"][0]["attacks"].append({}), "rounds[0].attacks[1].id"),
    (lambda d: d["rounds"][0]["rolls"].insert(1, d["rounds"][0]["rolls"][0]),
     "rounds[0].rolls[1].counter"),
    (lambda d: d["rounds"][1]["attacks"].append(d["rounds"][0]["attacks"][0]),
     "rounds[1].attacks[1].id"),
])
def test_import_names_the_path_of_a_bad_field(change, path):
    sc, _ = _play_two_rounds()
    document = json.loads(json.dumps(archive_export(campaign=sc.league.campaign,
                                                    by=sc.league.admin, now=timezone.now())))
    change(document)
    before = Campaign.objects.count()
    with pytest.raises(DocumentInvalid) as caught:
        archive_import(document=document, by=sc.league.admin, now=timezone.now())
    assert path in caught.value.errors, caught.value.errors
    assert Campaign.objects.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize("document", [None, [], "x", {"format": "feldzug-campaign"},
                                      {"format": "feldzug-campaign", "version": 1}])
def test_import_of_junk_is_refused_by_path(document, django_user_model):
    user = django_user_model.objects.create_user("importer")
    with pytest.raises(DocumentInvalid):
        archive_import(document=document, by=user, now=timezone.now())


@pytest.mark.django_db
def test_sandbox_gets_a_fresh_seed_and_closing_it_reveals_nothing_real():
    """R-DICE-2: closing the sandbox's round reveals ITS seed, never the real round's."""
    sc, open_round = _play_two_rounds()
    lg = sc.league
    sandbox = campaign_clone_sandbox(campaign=lg.campaign, by=lg.admin, now=timezone.now())
    assert sandbox.is_sandbox and sandbox.sandbox_of_id == lg.campaign.pk
    assert sandbox.visibility == Campaign.Visibility.PRIVATE
    assert list(sandbox.admins.all()) == [lg.admin]
    copy_round = sandbox.rounds.get(number=3)
    advance_to(copy_round, Round.Phase.CLOSED)
    copy_round.refresh_from_db()
    open_round.refresh_from_db()
    assert copy_round.seed_revealed and not open_round.seed_revealed
    assert bytes(copy_round.server_seed) != bytes(open_round.server_seed)
    assert copy_round.seed_commitment != open_round.seed_commitment
    assert verify_round(copy_round).verified
    assert AdminAction.objects.filter(campaign=lg.campaign, kind="sandbox.create",
                                      public=False).exists()


@pytest.mark.django_db
def test_a_full_round_in_a_sandbox_sends_no_mail():
    sc, _ = _play_two_rounds()
    lg = with_emails(sc.league)
    sandbox = campaign_clone_sandbox(campaign=lg.campaign, by=lg.admin, now=timezone.now())
    for player in Player.objects.filter(campaign=sandbox).select_related("user"):
        player.user.email = f"{player.user.username}@example.org"  # as if handed out
        player.user.save(update_fields=["email"])
    mail.outbox.clear()
    rnd = sandbox.rounds.get(number=3)
    advance_to(rnd, Round.Phase.CLOSED)
    advance_to(sandbox.rounds.get(number=4), Round.Phase.BATTLES)
    assert mail.outbox == []
    assert not Notification.objects.filter(campaign=sandbox).exists()


@pytest.mark.django_db(transaction=True)
def test_a_sandbox_sends_no_invitation_mail():
    """``campaigns.mail``: invitations from a sandbox go nowhere."""
    from campaigns.services.invitations import invitations_create

    sc = build_fleet_phase()
    lg = sc.league
    sandbox = campaign_clone_sandbox(campaign=lg.campaign, by=lg.admin, now=timezone.now())
    mail.outbox.clear()
    invitations_create(campaign=sandbox, by=lg.admin, emails="friend@example.org")
    invitations_create(campaign=lg.campaign, by=lg.admin, emails="friend@example.org")
    assert [m.to for m in mail.outbox] == [["friend@example.org"]]
    assert lg.campaign.name in mail.outbox[0].subject


@pytest.mark.django_db
def test_open_round_draws_are_not_imported_and_new_ones_verify():
    """[reading R-DICE-2] The open round's logged draws could not be verified against its new
    seed: they are left out; what it draws after the import verifies under the new seed."""
    sc, _ = _play_two_rounds()
    lg = sc.league
    document = json.loads(json.dumps(archive_export(campaign=lg.campaign, by=lg.admin,
                                                    now=timezone.now())))
    document["rounds"][2]["rolls"] = [{"counter": 0, "purpose": "conquest:attack=1",
                                       "sides": 6, "faces": [6, 6], "object": ""}]
    copy = archive_import(document=document, by=lg.admin, now=timezone.now())
    rnd = copy.rounds.get(number=3)
    assert not DiceRoll.objects.filter(round=rnd).exists()
    campaign_resume(campaign=copy, by=lg.admin)  # an import starts paused
    advance_to(rnd, Round.Phase.CLOSED)
    assert verify_round(Round.objects.get(pk=rnd.pk)).verified


def _leaves(node, path=()):
    """Every place in a JSON document, as a path of keys and indexes."""
    yield path
    items = node.items() if isinstance(node, dict) else enumerate(node) \
        if isinstance(node, list) else ()
    for key, value in items:
        yield from _leaves(value, (*path, key))


@pytest.mark.django_db
def test_import_of_a_damaged_archive_is_refused_never_a_crash():
    """API.md "never 500": any place of an archive replaced by junk is a DocumentInvalid (or,
    where the junk happens to be valid, an import) - nothing else escapes."""
    import random

    from django.db import transaction

    sc, _ = _play_two_rounds()
    lg = sc.league
    original = json.loads(json.dumps(archive_export(campaign=lg.campaign, by=lg.admin,
                                                    now=timezone.now())))
    places = [p for p in _leaves(original) if p]
    chooser = random.Random(19)
    for place in chooser.sample(places, examples(40)):  # fuzzing: tests/budget.py
        for junk in (None, [], {"x": 1}, "x", -1, 10**12, True):
            document = json.loads(json.dumps(original))
            target = document
            for key in place[:-1]:
                target = target[key]
            target[place[-1]] = junk
            try:
                with transaction.atomic():
                    archive_import(document=document, by=lg.admin, now=timezone.now())
                    transaction.set_rollback(True)
            except DocumentInvalid:
                pass


IMPORTED_AT = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
IMPORTED = {"en": (" (imported 7 Dec 2026)", "Imported: check the campaign, then resume it"),
            "de": (" (importiert am 7. Dez. 2026)",
                   "Importiert: prüf die Kampagne, dann setz sie fort")}


def _exported(lg) -> dict:
    return json.loads(json.dumps(archive_export(campaign=lg.campaign, by=lg.admin,
                                                now=timezone.now())))


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de"])
def test_an_import_is_named_apart_and_starts_paused(language):
    """The copy is told apart by its name (the importer's language and date format) and
    holds its round until the admin has checked it (R-RND-1: the clock stands)."""
    lg = build_fleet_phase().league
    with translation.override(language):
        copy = archive_import(document=_exported(lg), by=lg.admin, now=IMPORTED_AT)
    suffix, reason = IMPORTED[language]
    copy = Campaign.objects.get(pk=copy.pk)
    assert copy.name == lg.campaign.name + suffix
    assert copy.paused_at == IMPORTED_AT and copy.pause_reason == reason
    rnd = copy.rounds.get(phase=Round.Phase.DECLARE)
    assert rnd.phase_deadline is None and rnd.deadline_left is not None
    with pytest.raises(Conflict) as refused:
        round_advance(round_id=rnd.pk, expected_phase=rnd.phase)
    assert refused.value.code == "campaign_paused"
    assert list(AdminAction.objects.filter(campaign=copy).values_list("kind", flat=True)
                .order_by("id")) == ["campaign.import", "campaign.pause"]
    campaign_resume(campaign=copy, by=lg.admin)
    assert round_advance(round_id=rnd.pk, expected_phase=rnd.phase).phase != "declare"


@pytest.mark.django_db
def test_a_long_name_is_shortened_to_keep_the_import_date():
    lg = build_fleet_phase().league
    document = _exported(lg)
    document["campaign"]["name"] = "N" * Campaign._meta.get_field("name").max_length
    copy = archive_import(document=document, by=lg.admin, now=IMPORTED_AT)
    assert len(copy.name) == 120 and copy.name.endswith("N (imported 7 Dec 2026)")


@pytest.mark.django_db
def test_a_sandbox_keeps_its_name_and_runs():
    lg = build_fleet_phase().league
    sandbox = campaign_clone_sandbox(campaign=lg.campaign, by=lg.admin, now=IMPORTED_AT)
    assert sandbox.paused_at is None and "imported" not in sandbox.name


@pytest.mark.django_db
def test_the_campaign_language_travels_with_the_archive_and_its_sandbox():
    lg = build_fleet_phase().league
    Campaign.objects.filter(pk=lg.campaign.pk).update(language="de")
    lg.campaign.refresh_from_db()
    document = _exported(lg)
    assert document["campaign"]["language"] == "de"
    assert archive_import(document=document, by=lg.admin, now=IMPORTED_AT).language == "de"
    sandbox = campaign_clone_sandbox(campaign=lg.campaign, by=lg.admin, now=IMPORTED_AT)
    assert sandbox.language == "de"


@pytest.mark.django_db
def test_an_archive_written_before_campaign_languages_imports_in_the_sites_language(settings):
    lg = build_fleet_phase().league
    document = _exported(lg)
    del document["campaign"]["language"]
    copy = archive_import(document=document, by=lg.admin, now=IMPORTED_AT)
    assert copy.language == settings.LANGUAGE_CODE
