"""Import a campaign archive (``docs/archive.md``) as a NEW campaign: the importer
administers it, every seat is a placeholder account (inactive, no address, the archived
display name) that the admin hands out with a seat invitation (
``campaigns.services.invitations``), the map goes through the map import
(``league.services.map_document``), and every round gets its facts back.

Dice (R-DICE-2/3): a closed round keeps its revealed seed and its whole log; its draws were
made in the exported campaign, whose id ``Round.dice_campaign`` keeps for the verifier
(``campaigns.selectors.rounds.dice_campaign_id``). The open round (the archive never holds
its seed) gets a fresh secret seed; its draws logged before the export are not imported (they
could not be verified against the new seed), their results stay as facts."""

import copy
import secrets
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import DataError, IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.models import (
    ArmyList,
    Battle,
    ConquestChoice,
    ConquestRoll,
    ResultChange,
)
from campaigns import formats
from campaigns.errors import DomainError
from campaigns.models import (
    Attack,
    Campaign,
    DiceRoll,
    MarkerType,
    Player,
    Profile,
    Purchase,
    Round,
    RoundMap,
    RoundStandings,
    Tile,
)
from campaigns.revision import bump
from campaigns.services.admin_log import record
from campaigns.services.campaigns import _colour, _faction, campaign_create
from campaigns.services.seats import seat_start
from fleets.models import Area, Fleet, FleetPhase, NavalBattle, SeaHazard
from league.services import map_document
from league.services.archive import FORMAT, VERSION
from league.services.archive_check import (
    DOCUMENT,
    Walker,
    check_unique,
    declared,
    parse_time,
)
from league.services.map_document import DocumentInvalid
from league.services.pause import campaign_pause
from rules.dice import commitment, new_seed, verify
from rules.fleet_phase import standing_orders_error

FLEET_EXTRAS = ("standing_orders", "arrived_round", "arrived_step")
SEAT_PREFIX = "seat-"  # placeholder accounts of imported seats
NAME_MAX = Campaign._meta.get_field("name").max_length


def _fail(path: str, message: str):
    raise DocumentInvalid({path: [message]})


def _check_head(document) -> None:
    if not isinstance(document, dict):
        _fail("non_field_errors", _("an archive is a JSON object"))
    if document.get("format") != FORMAT:
        _fail("format", _("must be %(value)s") % {"value": repr(FORMAT)})
    if document.get("version") != VERSION:
        _fail("version", _("this server reads version %(version)s archives only")
              % {"version": VERSION})


def _check_rounds(walker: Walker, rounds: list[dict]) -> None:
    """Rounds 1..n in order; all but the last closed with a seed that matches its
    commitment (R-DICE-2); the last may be open."""
    for i, rnd in enumerate(rounds):
        path = f"rounds[{i}]"
        if rnd["number"] != i + 1:
            walker.error(f"{path}.number", _("must be %(number)s (rounds in order from 1)")
                         % {"number": i + 1})
        closed = rnd["phase"] == Round.Phase.CLOSED
        if not closed and i != len(rounds) - 1:
            walker.error(f"{path}.phase", _("only the last round may be open"))
        rolls_ok = all([_check_roll(walker, roll, f"{path}.rolls[{j}]")
                        for j, roll in enumerate(rnd["rolls"])])
        if closed and _check_seed(walker, rnd, path) and rolls_ok:
            _check_draws(walker, rnd, path)


def _check_roll(walker: Walker, roll: dict, path: str) -> bool:
    """A die has 2..256 sides and every face is one of them (R-DICE-2)."""
    sides = roll["sides"]
    if not 2 <= sides <= 256:
        walker.error(f"{path}.sides", _("a die has %(low)s to %(high)s sides")
                     % {"low": 2, "high": 256})
    elif not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= sides
                 for f in roll["faces"]):
        walker.error(f"{path}.faces", _("faces are whole numbers from 1 to %(sides)s")
                     % {"sides": sides})
    else:
        return True
    return False


def _check_seed(walker: Walker, rnd: dict, path: str) -> bool:
    """The closed round's seed matches its commitment (R-DICE-2); True when it does and the
    round names the campaign its draws were made in."""
    try:
        seed = bytes.fromhex(rnd["server_seed"] or "")
    except ValueError:
        seed = b""
    ok = True
    if len(seed) != 32:
        walker.error(f"{path}.server_seed", _("a closed round needs its 32-byte seed as hex"))
        ok = False
    elif commitment(seed) != rnd["seed_commitment"]:
        walker.error(f"{path}.server_seed", _("does not match seed_commitment (R-DICE-2)"))
        ok = False
    if not isinstance(rnd["dice_campaign"], int) or rnd["next_counter"] is None:
        walker.error(f"{path}.dice_campaign", _("a closed round needs dice_campaign and "
                                                "next_counter"))
        ok = False
    return ok


def _check_draws(walker: Walker, rnd: dict, path: str) -> None:
    """R-DICE-3: a closed round's log is what its revealed seed gives, as ``verify_round``
    recomputes it after the import; the first draw that is not is named, and nothing is
    imported (an archive whose dice can not be verified is no record of the campaign)."""
    seed = bytes.fromhex(rnd["server_seed"])
    for index, roll in enumerate(rnd["rolls"]):
        report = verify(seed, [roll], rnd["dice_campaign"], rnd["number"])
        if not report.verified:
            first = report.mismatches[0]
            walker.error(f"{path}.rolls[{index}].faces", _(
                "Round %(round)s, draw %(counter)s (%(purpose)s): the faces %(logged)s are not "
                "what the round's revealed seed gives (%(expected)s), so the dice log can not "
                "be verified (R-DICE-3).") % {
                    "round": rnd["number"], "counter": first["counter"],
                    "purpose": first["purpose"], "logged": first["logged"],
                    "expected": first["expected"]})
            return


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _map_owner_paths(game_map: dict):
    """(path, owner) of every owner field in the map part."""
    for i, planet in enumerate(_list(game_map.get("planets"))):
        for j, tile in enumerate(_list(planet.get("tiles")) if isinstance(planet, dict)
                                 else []):
            if isinstance(tile, dict):
                yield f"map.planets[{i}].tiles[{j}].owner", tile.get("owner")
    for kind in ("areas", "fleets"):
        for i, item in enumerate(_list(game_map.get(kind))):
            if isinstance(item, dict):
                yield f"map.{kind}[{i}].owner", item.get("owner")


def validate(document) -> dict:
    """The document if it is a valid archive; ``DocumentInvalid`` naming every bad path."""
    _check_head(document)
    walker = Walker(declared(document))
    if walker.record(document, DOCUMENT, ""):
        _check_rounds(walker, document["rounds"])
        check_unique(walker, document)
        for path, owner in _map_owner_paths(document["map"]):
            walker.field(owner, ("ref", "player?"), path)
    walker.raise_if_any()
    return document


# --- writing ---------------------------------------------------------------------------------

class Ids:
    """Archive id -> new row id, per kind of record."""

    def __init__(self):
        self.player: dict = {}
        self.tile: dict = {}
        self.area: dict = {}
        self.attack: dict = {}
        self.battle: dict = {}

    def players_keyed(self, mapping: dict) -> dict:
        """A JSON object keyed by player ids (``point_limits``, ``bonus``) with new keys."""
        by_text = {str(old): str(new) for old, new in self.player.items()}
        return {by_text.get(str(k), str(k)): v for k, v in mapping.items()}


def _seats(campaign: Campaign, players: list[dict], ids: Ids) -> None:
    User = get_user_model()
    for index, seat in enumerate(players, start=1):
        try:
            faction, colour = _faction(seat["faction"]), _colour(seat["colour"])
        except DomainError as exc:
            _fail(f"players[{index - 1}].{exc.field or 'faction'}", exc.message)
        user = User(username=f"{SEAT_PREFIX}{campaign.pk}-{index:04d}-{secrets.token_hex(3)}",
                    email="", is_active=False)
        user.set_unusable_password()
        user.save()
        Profile.objects.create(user=user, display_name=(seat["display_name"]
                                                        or seat["faction"])[:60])
        player = Player.objects.create(campaign=campaign, user=user, faction=faction,
                                       colour=colour, requisition=seat["requisition"])
        seat_start(player)
        ids.player[seat["id"]] = player.pk


def _marker_types(campaign: Campaign, types: list[dict]) -> None:
    for spec in types:
        MarkerType.objects.update_or_create(campaign=campaign, code=spec["code"],
                                            defaults={k: v for k, v in spec.items()
                                                      if k != "code"})


def _map(campaign: Campaign, game_map: dict, ids: Ids) -> list[dict]:
    """The map through the map import's own checks and writer; returns the fleets' extras."""
    doc = copy.deepcopy(game_map)
    owner = ids.player.get
    for planet in _list(doc.get("planets")):
        for tile in _list(planet.get("tiles")) if isinstance(planet, dict) else []:
            if isinstance(tile, dict):
                tile["owner"] = owner(tile.get("owner"))
                for marker in _list(tile.get("markers")):
                    if isinstance(marker, dict) and "owner" in marker:
                        marker["owner"] = tile["owner"]
    extras = []
    for item in _list(doc.get("areas")) + _list(doc.get("fleets")):
        if isinstance(item, dict):
            item["owner"] = owner(item.get("owner"))
    for fleet in _list(doc.get("fleets")):
        extras.append({key: fleet.pop(key, None) for key in FLEET_EXTRAS}
                      if isinstance(fleet, dict) else {})
    try:
        plan = map_document.parse(
            doc, players=set(ids.player.values()),
            marker_types=dict(MarkerType.objects.filter(campaign=campaign)
                              .values_list("code", "pk")),
            detachment_points=campaign.ruleset.get("detachment_points", 500))
    except DocumentInvalid as exc:
        raise DocumentInvalid({f"map.{path}": messages
                               for path, messages in exc.errors.items()}) from None
    map_document.write(campaign, plan)
    old_tiles = [t["id"] for p in game_map["planets"] for t in p.get("tiles", [])]
    new_tiles = Tile.objects.filter(campaign=campaign).order_by("id").values_list("pk", flat=True)
    ids.tile = dict(zip(old_tiles, new_tiles, strict=True))
    new_areas = Area.objects.filter(campaign=campaign).order_by("id").values_list("pk", flat=True)
    ids.area = dict(zip([a.get("id") for a in game_map.get("areas", [])], new_areas,
                        strict=True))
    return _fleet_extras(list(Fleet.objects.filter(campaign=campaign).order_by("id")), extras)


def _fleet_extras(fleets: list[Fleet], extras: list[dict]) -> list[dict]:
    for i, (fleet, extra) in enumerate(zip(fleets, extras, strict=True)):
        orders = extra.get("standing_orders") or {}
        if not isinstance(orders, dict) or standing_orders_error(orders, ()) is not None:
            _fail(f"map.fleets[{i}].standing_orders", _("not valid standing orders (R-FLT-5)"))
        fleet.standing_orders = {k: v for k, v in orders.items() if k != "line"}
        arrived = extra.get("arrived_round")
        fleet.arrived_round = arrived if isinstance(arrived, int) and arrived >= 0 else None
        step = extra.get("arrived_step")
        fleet.arrived_step = step if isinstance(step, int) and step >= 0 else 0
    Fleet.objects.bulk_update(fleets, ["standing_orders", "arrived_round", "arrived_step"])
    return extras


def _hazards(campaign: Campaign, hazards: list[dict], ids: Ids) -> None:
    SeaHazard.objects.bulk_create(SeaHazard(
        campaign=campaign, area_id=ids.area[h["area"]], owner_id=ids.player.get(h["owner"]),
        name=h["name"][:80], attack=h["attack"], defence=h["defence"], agility=h["agility"],
        hits=h["hits"], active=h["active"], triggered_at=parse_time(h["triggered_at"]))
        for h in hazards)


def _round_row(campaign: Campaign, data: dict, fresh_seed: bool) -> Round:
    if fresh_seed:  # R-DICE-2: the open round's seed never leaves its campaign
        seed = new_seed()
        counter = 1 + max([r["counter"] for r in data["conquest_rolls"]], default=-1)
    else:
        seed, counter = bytes.fromhex(data["server_seed"]), data["next_counter"]
    rnd = Round.objects.create(
        campaign=campaign, number=data["number"], phase=data["phase"],
        phase_deadline=parse_time(data["phase_deadline"]),
        phase_started_at=parse_time(data["phase_started_at"]),
        server_seed=seed, seed_commitment=commitment(seed), seed_revealed=not fresh_seed,
        next_counter=counter, conquest_resolved_at=parse_time(data["conquest_resolved_at"]),
        closed_at=parse_time(data["closed_at"]),
        dice_campaign=None if fresh_seed else data["dice_campaign"])
    if data["opened_at"]:
        Round.objects.filter(pk=rnd.pk).update(opened_at=parse_time(data["opened_at"]))
    if not fresh_seed:
        DiceRoll.objects.bulk_create(DiceRoll(round=rnd, **roll) for roll in data["rolls"])
    return rnd


def _declarations(rnd: Round, data: dict, ids: Ids) -> None:
    Purchase.objects.bulk_create(Purchase(round=rnd, player_id=ids.player[p["player"]],
                                          attack_armies=p["attack_armies"], cost=p["cost"])
                                 for p in data["purchases"])
    for a in data["attacks"]:
        attack = Attack.objects.create(
            round=rnd, player_id=ids.player[a["player"]], tile_id=ids.tile[a["tile"]],
            source=a["source"], order=a["order"], status=a["status"],
            status_reason=a["status_reason"][:200])
        ids.attack[a["id"]] = attack.pk


def _battles(rnd: Round, data: dict, ids: Ids) -> None:
    times = ("settled_at", "scheduled_at", "reported_at", "confirmed_at", "lists_revealed_at")
    for b in data["battles"]:
        battle = Battle.objects.create(
            campaign_id=rnd.campaign_id, round=rnd, attack_id=ids.attack[b["attack"]],
            tile_id=ids.tile[b["tile"]], attacker_id=ids.player[b["attacker"]],
            defender_id=ids.player.get(b["defender"]), neutral=b["neutral"],
            chain_position=b["chain_position"], chain_length=b["chain_length"],
            status=b["status"], point_limits=ids.players_keyed(b["point_limits"]),
            bonus=ids.players_keyed(b["bonus"]), place=b["place"][:200],
            outcome=b["outcome"], attacker_vp=b["attacker_vp"], defender_vp=b["defender_vp"],
            result_status=b["result_status"], chain_decision=b["chain_decision"][:5],
            **{t: parse_time(b[t]) for t in times})
        ids.battle[b["id"]] = battle.pk
        for h in b["history"]:  # ``at`` is set on create: kept with an update
            change = ResultChange.objects.create(battle=battle, old=h["old"], new=h["new"])
            if h["at"]:
                ResultChange.objects.filter(pk=change.pk).update(at=parse_time(h["at"]))
        if battle.lists_revealed_at is not None:  # R-ARM-3: only revealed lists are kept
            ArmyList.objects.bulk_create(ArmyList(
                battle=battle, player_id=ids.player[item["player"]],
                **{k: v for k, v in item.items() if k not in ("player", "submitted_at")},
                submitted_at=parse_time(item["submitted_at"])) for item in b["army_lists"])


def _conquest(rnd: Round, data: dict, ids: Ids) -> None:
    ConquestChoice.objects.bulk_create(ConquestChoice(
        round=rnd, player_id=ids.player[c["player"]], defaulted=c["defaulted"],
        rolls=[ids.attack[a] for a in c["rolls"]]) for c in data["conquest_choices"])
    ConquestRoll.objects.bulk_create(ConquestRoll(
        round=rnd, attack_id=ids.attack[r["attack"]], battle_id=ids.battle.get(r["battle"]),
        tile_id=ids.tile[r["tile"]], player_id=ids.player[r["player"]],
        **{k: r[k] for k in ("dice", "modifiers", "total", "threshold", "threshold_rule", "k",
                             "success", "immediate", "counter")})
        for r in data["conquest_rolls"])


def _naval(rnd: Round, data: dict, ids: Ids) -> None:
    phase = data["fleet_phase"]
    if phase is not None:
        FleetPhase.objects.create(
            round=rnd, resolved_at=parse_time(phase["resolved_at"]),
            player_order=[ids.player[p] for p in phase["player_order"]],
            first_counter=phase["first_counter"], dice_count=phase["dice_count"])
    for n in data["naval_battles"]:
        sides, outcome = _naval_summary(n)
        NavalBattle.objects.create(
            round=rnd, area_id=ids.area.get(n["area"]), sequence=n["sequence"],
            engine=n["engine"], attacker_id=ids.player.get(n["attacker"]),
            defender_id=ids.player.get(n["defender"]), attacker_vp=n["attacker_vp"],
            defender_vp=n["defender_vp"], sides=sides, outcome=outcome, events=[],
            first_counter=n["first_counter"] or 0, dice_count=n["dice_count"] or 0)


def _naval_summary(battle: dict) -> tuple[list, dict]:
    """The members' summary as ``sides``/``outcome`` rows that ``naval_losses`` reads back:
    only the lost ships' names and classes (R-FLT-7; the replay is not in the archive)."""
    sides, results, number = [], [], 0
    for side in ("attacker", "defender"):
        ships = []
        losses = battle["losses"].get(side) if isinstance(battle["losses"], dict) else None
        for state in ("sunk", "captured"):
            found = losses.get(state) if isinstance(losses, dict) else None
            for ship in found if isinstance(found, list) else []:
                if not isinstance(ship, dict):
                    continue
                number += 1
                ships.append({"id": number, "name": str(ship.get("name", "")),
                              "class": str(ship.get("class", ""))})
                results.append({"id": number, "side": side, "state": state})
        sides.append({"side": side, "ships": ships})
    return sides, {"winner": battle["winner"], "ships": results}


def _key(value):
    """An archive id to look up, or None for anything that can not be one."""
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None


def _records(rnd: Round, data: dict, ids: Ids) -> None:
    if data["standings"] is not None:
        usernames = dict(Player.objects.filter(campaign_id=rnd.campaign_id)
                         .values_list("pk", "user__username"))
        rows = []
        for row in data["standings"]:
            player = ids.player.get(_key(row.get("player"))) if isinstance(row, dict) else None
            if player is not None:
                rows.append({**row, "player": player, "username": usernames[player]})
        RoundStandings.objects.create(round=rnd, rows=rows)
    if data["map_snapshot"] is not None:
        _snapshot(rnd, data["map_snapshot"], ids)


def _snapshot(rnd: Round, snapshot: dict, ids: Ids) -> None:
    """The map at the round's close, re-keyed; what names nothing is dropped."""
    raw_tiles, raw_fleets = snapshot.get("tiles"), snapshot.get("fleets")
    tiles = {str(ids.tile[int(k)]): {**v, "owner": ids.player.get(_key(v.get("owner")))}
             for k, v in (raw_tiles.items() if isinstance(raw_tiles, dict) else ())
             if k.isdigit() and int(k) in ids.tile and isinstance(v, dict)}
    fleets = [{**f, "area": ids.area.get(_key(f.get("area"))),
               "owner": ids.player.get(_key(f.get("owner")))}
              for f in (raw_fleets if isinstance(raw_fleets, list) else ())
              if isinstance(f, dict)]
    RoundMap.objects.create(round=rnd, tiles=tiles, fleets=fleets)


def _rounds(campaign: Campaign, rounds: list[dict], ids: Ids) -> None:
    """Every round with its facts."""
    for data in rounds:
        fresh = data["phase"] != Round.Phase.CLOSED
        rnd = _round_row(campaign, data, fresh)
        _declarations(rnd, data, ids)
        _battles(rnd, data, ids)
        _conquest(rnd, data, ids)
        _naval(rnd, data, ids)
        _records(rnd, data, ids)


def _write(campaign: Campaign, document: dict) -> None:
    ids = Ids()
    _marker_types(campaign, document["marker_types"])
    _seats(campaign, document["players"], ids)
    _map(campaign, document["map"], ids)
    _hazards(campaign, document["hazards"], ids)
    _rounds(campaign, document["rounds"], ids)
    bump(campaign.pk)  # bulk writes send no signals (campaigns/revision.py)


def imported_name(name: str, now: datetime) -> str:
    """``Liga Nord (imported 7 Dec 2026)``: the importer's language and date format, so the
    copy is told apart from the campaign it came from (the admin renames it at will); the
    original name is shortened when the whole would not fit."""
    day = formats.date_text(timezone.localdate(now), "medium")  # the one format
    full = _("%(name)s (imported %(date)s)") % {"name": name, "date": day}
    overflow = len(full) - NAME_MAX
    return full if overflow <= 0 else imported_name(name[:len(name) - overflow].rstrip(), now)


def import_document(*, document, by, now: datetime, sandbox_of: Campaign | None = None
                    ) -> Campaign:
    """Validate and write ``document`` as a new campaign administered by ``by`` (call inside a
    transaction). A sandbox is private and marked."""
    validate(document)
    head = document["campaign"]
    name = imported_name(head["name"], now) if sandbox_of is None \
        else f"Sandbox: {head['name']}"
    visibility = head["visibility"] if sandbox_of is None else Campaign.Visibility.PRIVATE
    try:
        campaign = campaign_create(creator=by, name=name[:120], ruleset=head["ruleset"],
                                   visibility=visibility, time_zone=head["time_zone"],
                                   language=head.get("language"))
    except DomainError as exc:  # the campaign's own checks (name, ruleset, zone)
        _fail(f"campaign.{exc.field or 'name'}", exc.message)
    status = head["status"] if head["status"] in Campaign.Status.values else "setup"
    Campaign.objects.filter(pk=campaign.pk).update(
        status=status, is_sandbox=sandbox_of is not None, sandbox_of=sandbox_of)
    campaign.refresh_from_db()
    try:
        with transaction.atomic():  # a savepoint: what the database refuses is a 400
            _write(campaign, document)
    except (IntegrityError, DataError):
        _fail("non_field_errors", _("the archive contradicts itself (records that refer to "
                                    "each other do not fit together)"))
    record(campaign=campaign, actor=by, kind="campaign.import", target=head["name"],
           after={"from": head["id"]}, public=False)
    return campaign


@transaction.atomic
def archive_import(*, document, by, now: datetime) -> Campaign:
    """A new campaign from an archive; ``by`` administers it. It is named
    apart from its original (``imported_name``) and starts paused with a reason, so that no
    deadline runs out and no player writes before the admin has checked it and resumed it
    (``league.services.pause``); a finished campaign has nothing to hold."""
    campaign = import_document(document=document, by=by, now=now)
    if campaign.status != Campaign.Status.FINISHED:
        campaign = campaign_pause(campaign=campaign, by=by, now=now, reason=_(
            "Imported: check the campaign, then resume it"))
    return campaign
