"""The league-scale campaign of ``bench/league.py``, at any number of players: the
map page's league (``bench/map_page.py``, scaled: at 64 players 732 tiles on 8 planets, 36
areas, 200 fleets of 6 ships with movement orders) plus closed earlier rounds, players with
e-mail addresses and requisition, and the declarations (300 at 64 players, a fifth of them
second links of chains, R-ATK-5) with their purchases. Bulk-created: setting up is not what is
measured."""

import random
from dataclasses import dataclass

from bench import map_page

DECLARATIONS_AT_64 = 300
OLD_ROUNDS = 4


@dataclass
class World:
    campaign: object
    player: object  # a player who declared attacks
    admin: object
    rnd: object  # the current round, in declare
    players: int


def scale(players: int) -> None:
    """Set ``bench/map_page.py``'s sizes for ``players`` (its ``build`` reads them)."""
    factor = players / 64
    planets = max(1, round(8 * factor))
    map_page.PLAYERS = players
    map_page.PLANETS = planets
    map_page.TILES = round(732 * factor)
    map_page.AREAS = 2 * planets + max(4, round(20 * factor))
    map_page.FLEETS = round(200 * factor)


def build(players: int, seed: int = 1) -> World:
    from campaigns.models import Player, Round

    rng = random.Random(seed)
    scale(players)
    campaign, player, admin = map_page.build(rng)
    for user in (admin, *(p.user for p in Player.objects.filter(campaign=campaign)
                          .select_related("user"))):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    Player.objects.filter(campaign=campaign).update(requisition=100)
    rnd = Round.objects.get(campaign=campaign)
    _old_rounds(campaign, rnd)
    declarations = round(DECLARATIONS_AT_64 * players / 64)
    _declarations(campaign, rnd, declarations, rng)
    rnd.refresh_from_db()
    return World(campaign, player, admin, rnd, players)


def _old_rounds(campaign, rnd) -> None:
    from django.utils import timezone

    from campaigns.models import Round

    Round.objects.filter(pk=rnd.pk).update(number=OLD_ROUNDS + 1)
    Round.objects.bulk_create(
        Round(campaign=campaign, number=n, phase="closed", server_seed=rnd.server_seed,
              seed_commitment=rnd.seed_commitment, phase_started_at=timezone.now())
        for n in range(1, OLD_ROUNDS + 1))


def _declarations(campaign, rnd, count: int, rng: random.Random) -> None:
    """``count`` attacks; every fifth is a second attack on the tile before it (a chain)."""
    from campaigns.models import Attack, Player, Purchase, Tile

    players = list(Player.objects.filter(campaign=campaign).order_by("pk"))
    tiles = rng.sample(list(Tile.objects.filter(campaign=campaign)), count)
    rows, taken = [], set()
    for i in range(count):
        player = players[i % len(players)]
        tile = rows[-1].tile if i % 5 == 4 and rows[-1].player != player else tiles[i]
        if tile.owner_id == player.pk or (player.pk, tile.pk) in taken:
            tile = tiles[i]
            if tile.owner_id == player.pk:
                continue
        taken.add((player.pk, tile.pk))
        rows.append(Attack(round=rnd, player=player, tile=tile, source="adjacent",
                           order=len(rows) + 1))
    Attack.objects.bulk_create(rows)
    per_player = {}
    for attack in rows:
        per_player[attack.player_id] = per_player.get(attack.player_id, 0) + 1
    Purchase.objects.bulk_create(Purchase(round=rnd, player_id=p, attack_armies=n, cost=n)
                                 for p, n in per_player.items())
