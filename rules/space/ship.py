"""A ship's state during a D6 space battle: damage, hit table, damage bands, repair.

R-SPC-5 (damage bands), R-SPC-6 (hit table), R-SPC-7 (repair). Damage is tracked as dice lost
per system (and speed points lost) so repair can give it back. Mutable and internal to the
engine; ``rules.space`` turns it into frozen results.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Final

from rules.dice import Dice
from rules.dicecode import DiceCode
from rules.space.model import CODE_SYSTEMS, SIDES, Captain, Datasheet, ShipResult, SpaceShip

# The systems a ship state keeps per index (``SYSTEMS`` order): the dice codes, then
# speed (lists, not dicts: the battle loop reads them often). Final: the compiled build reads
# these values directly, not by name from the module.
SYSTEMS: Final = (*CODE_SYSTEMS, "speed")
MANEUVER: Final = 0
TARGETING: Final = 1
GUNS: Final = 2
SHIELDS: Final = 3
HULL: Final = 4
SPEED: Final = 5
_INDEX: Final = {name: index for index, name in enumerate(SYSTEMS)}
assert [_INDEX[name] for name in SYSTEMS] == [MANEUVER, TARGETING, GUNS, SHIELDS, HULL, SPEED]
# R-SPC-6 hit table faces -> system; 1 (engines) and 6 (bridge) are handled specially.
HIT_TABLE = {1: "engines", 2: "gun_damage", 3: "targeting", 4: "shields", 5: "hull", 6: "bridge"}
# faces 2-5 as system indices (0 and 1 are placeholders: face 1 is handled specially)
_HIT_BY_FACE: Final = (0, 0, *(_INDEX[HIT_TABLE[face]] for face in range(2, 6)))
# R-SPC-7 [reading] "shields first, then any": then hull, guns, targeting, engines.
REPAIR_ORDER = ("shields", "hull", "gun_damage", "targeting", "maneuver", "speed")
_REPAIR_ORDER: Final = tuple(_INDEX[name] for name in REPAIR_ORDER)
_OUT: Final = (0, 0)  # a system at 0D
# R-SPC-5 damage bands: (lowest difference, hit-table rolls, dice lost per roll)
BANDS: Final = ((20, 0, 0), (16, 2, 2), (12, 1, 2), (8, 2, 1), (4, 1, 1), (0, 0, 0))
# the band of each difference below the highest band's
_BAND_OF: Final = tuple(next(band for band in BANDS if difference >= band[0])
                 for difference in range(BANDS[0][0]))
BAND_NAMES = {20: "destroyed", 16: "2D off two systems", 12: "2D off one system",
              8: "1D off two systems", 4: "1D off one system", 0: "shields down"}


def band_name(difference: int) -> str:
    """R-SPC-5: what an attack beating the defence by ``difference`` does."""
    if difference < 0:
        return "no effect"
    return BAND_NAMES[next(band[0] for band in BANDS if difference >= band[0])]


class ShipState:
    """One ship in battle. Codes are kept as (dice, pips) tuples, refreshed on every change:
    ``live`` is what the ship rolls now, ``speed`` its speed now, ``hull_key`` its remaining
    hull for target choice (without this round's cancellation of the captain bonus).

    For the battle loop the rolled sets are cached too: ``init_code`` (maneuver),
    ``attack_code`` (targeting + gun damage, R-SPC-4; no dice: the ship does not attack),
    ``defence_code`` (shields + hull) and ``hull_code`` (R-SPC-5); ``hurt`` says whether any
    damage is left to repair (R-SPC-7); ``purposes`` the ends of its dice purposes, naming
    its side and place in the line (``_purposes``), never the ship (R-DICE-3)."""

    __slots__ = ("ship", "id", "side", "base", "bonus", "cap_dice", "lost",
                 "captain_alive", "bonus_off", "bridge_hit", "destroyed", "shields_down",
                 "advance", "initiative", "live", "speed", "hull_key", "init_code",
                 "attack_code", "defence_code", "hull_code", "hurt", "purposes", "perm",
                 "foe")
    # the attributes' types (a compiled build, see ``pyproject.toml``, relies on them)
    ship: SpaceShip
    id: int
    side: str
    foe: str
    # per system (``SYSTEMS`` index): (dice, pips) of the datasheet, with the captain's bonus,
    # dice lost, permanent (dice, pips) now, rolled (dice, pips) now (codes only)
    base: list[tuple[int, int]]
    bonus: list[tuple[int, int]]
    lost: list[int]
    perm: list[tuple[int, int]]
    live: list[tuple[int, int]]
    cap_dice: int  # the system of the captain's dice bonus; -1: no captain
    captain_alive: bool
    bonus_off: bool
    bridge_hit: bool
    destroyed: bool
    shields_down: bool
    hurt: bool
    advance: int
    initiative: int
    purposes: dict[str, str]
    speed: int
    hull_key: tuple[int, int]
    init_code: tuple[int, int]
    attack_code: tuple[int, int]
    defence_code: tuple[int, int]
    hull_code: tuple[int, int]

    def __init__(self, ship: SpaceShip, side: str, *, blank: bool = False,
                 slot: int = 1) -> None:
        if blank:  # the ship's values before any battle (``_pristine``), for no side yet
            self._setup(ship)
            return
        # the ship's values before the battle are computed once per ship (``_pristine``) and
        # copied: an odds preview fights the same ships thousands of times
        entry = _PRISTINE.get(id(ship))
        fresh = entry[1] if entry is not None and entry[0] is ship else _pristine(ship)
        self.ship = ship
        self.id = fresh.id
        self.side = side
        self.foe = SIDES[side == SIDES[0]]  # the enemy side's key
        self.base = fresh.base
        self.bonus = fresh.bonus
        self.cap_dice = fresh.cap_dice
        self.lost = list(fresh.lost)
        self.captain_alive = fresh.captain_alive
        self.bonus_off = False  # captain bonus cancelled for this round (R-SPC-3, R-SPC-4)
        self.bridge_hit = False
        self.destroyed = False
        self.shields_down = False
        self.hurt = False
        self.advance = 0
        self.initiative = 0
        self.purposes = _purposes(side, slot)
        self.live = list(fresh.live)
        self.perm = list(fresh.perm)
        self.speed = fresh.speed
        self.hull_key = fresh.hull_key
        self.init_code = fresh.init_code
        self.attack_code = fresh.attack_code
        self.defence_code = fresh.defence_code
        self.hull_code = fresh.hull_code

    def _setup(self, ship: SpaceShip) -> None:
        """The ship's values before the battle, from its datasheet and captain."""
        self.ship = ship
        self.id = ship.id
        sheet = ship.datasheet
        self.base = _base(sheet.maneuver, sheet.speed, sheet.targeting, sheet.gun_damage,
                          sheet.shields, sheet.hull)
        captain = ship.captain
        self.cap_dice = _INDEX[captain.dice_system] if captain else -1
        self.bonus = self.base if captain is None else _with_captain(self.base, captain)
        self.lost = [0] * len(SYSTEMS)
        self.captain_alive = captain is not None
        self.bonus_off = False
        self.purposes = _purposes(SIDES[0], 1)
        self.live = [_OUT] * len(CODE_SYSTEMS)
        self.perm = [_OUT] * len(SYSTEMS)
        self._refresh()

    # --- codes --------------------------------------------------------------------------

    def _refresh(self) -> None:
        """Recompute the cached values of every system."""
        for system in range(len(SYSTEMS)):
            self._update(system)

    @property
    def damage(self) -> dict[str, int]:
        """Dice lost per system (speed: points), by name."""
        return dict(zip(SYSTEMS, self.lost, strict=True))

    def _update(self, system: int) -> None:
        """Recompute one system's (dice, pips) with damage and the captain bonus while alive
        (``perm``; for speed (speed, 0)), what it rolls now (``live``: this round's cancellation
        of the bonus honoured), and the rolled set it is part of."""
        lost = self.lost[system]
        dice, pips = (self.bonus if self.captain_alive else self.base)[system]
        perm = self.perm[system] = (dice - lost if dice > lost else 0, pips)
        if self.bonus_off and self.captain_alive:  # a fumble cancelled the bonus this round
            dice, pips = self.base[system]
            dice = dice - lost if dice > lost else 0
        else:
            dice = perm[0]
        if system == SPEED:
            self.speed = dice
            return
        live = self.live
        # R-SPC-4: a system at 0D adds no dice (guns at 0D: the targeting dice alone);
        # [reading] R-SPC-6: a system at 0D is out, its pips do not count on their own either.
        code = live[system] = (dice, pips) if dice > 0 else _OUT
        if system == MANEUVER:
            self.init_code = code
        elif system <= GUNS:  # targeting or guns (``SYSTEMS`` order)
            targeting, guns = live[TARGETING], live[GUNS]
            self.attack_code = (targeting[0] + guns[0], targeting[1] + guns[1])
        else:  # shields or hull
            if system == HULL:
                self.hull_key = perm
                self.hull_code = code
            shields, hull = live[SHIELDS], live[HULL]
            self.defence_code = (shields[0] + hull[0], shields[1] + hull[1])

    def code(self, system: str) -> DiceCode:
        """The code rolled now (damage and this round's captain bonus applied)."""
        return DiceCode(*self.live[_INDEX[system]])

    def dice_left(self, system: str) -> int:
        """Permanent dice of a system (the 0D tests of R-SPC-6)."""
        return self.perm[_INDEX[system]][0]

    def speed_left(self) -> int:
        return self.perm[SPEED][0]

    def end_round(self) -> None:
        """Shields and a captain bonus cancelled by a fumble return next round."""
        self.shields_down = False
        if self.bonus_off:
            self.bonus_off = False
            self._refresh()

    # --- R-SPC-6 ------------------------------------------------------------------------

    def lose_captain(self) -> None:
        """Bridge hit: the bonus is lost for good. Damage taken stays, capped at the datasheet's
        dice (the bonus die cannot be repaired any more); hull may so drop to 0D."""
        self.captain_alive = False
        system = self.cap_dice
        assert system >= 0, "only a ship with a captain loses one"
        self.lost[system] = min(self.lost[system], self.base[system][0])
        self.hurt = _any_damage(self.lost)
        self._refresh()
        self._check_hull()

    def hit_step(self, face: int) -> str:
        """Lose 1D by hit-table face, with the fall-through of R-SPC-6; returns what was hit."""
        if face == 6:
            if not self.bridge_hit:
                # [reading] the first 6 is the bridge hit even without a captain (then it costs
                # nothing); only later 6s count as 5.
                self.bridge_hit = True
                if self.captain_alive:
                    self.lose_captain()
                return "bridge"
            face = 5
        perm = self.perm
        if face == 1:  # engines
            system = MANEUVER if perm[MANEUVER][0] > 0 else SPEED if perm[SPEED][0] > 0 else HULL
        else:
            system = _HIT_BY_FACE[face]
            if system != HULL and perm[system][0] == 0:
                system = HULL
        # lose 1D (speed: one point)
        self.lost[system] += 1
        self.hurt = True
        self._update(system)
        if system == HULL and perm[HULL][0] == 0:
            self.destroyed = True
        return SYSTEMS[system]

    def fumble_step(self, face: int) -> str:
        """A fumble's random system (R-SPC-3, R-SPC-4): a bridge result with a live captain only
        cancels the bonus for this round; anything else is an ordinary hit-table step."""
        if face == 6 and self.captain_alive:
            self.bonus_off = True
            self._refresh()
            return "bridge (bonus off this round)"
        return self.hit_step(face)

    def _check_hull(self) -> None:
        if self.dice_left("hull") == 0:
            self.destroyed = True

    # --- R-SPC-5 ------------------------------------------------------------------------

    def take_hit(self, dice: Dice, difference: int, purpose: str, ev: list | None,
                 d6: Callable[[], int] | None = None) -> None:
        """Apply the damage band for attack - defence = difference >= 0. ``d6``: the next
        face of the d6 stream of ``SimulationDice`` (odds previews), as its ``one_face``."""
        if difference < 0:
            raise ValueError(f"a hit needs a difference of at least 0, not {difference}")
        low, rolls, lost = BANDS[0] if difference >= BANDS[0][0] else _BAND_OF[difference]
        if low == 20:
            self.destroyed = True
        elif low == 0:
            self.shields_down = True
        for _ in range(rolls):
            face = dice.one_face(6, purpose) if d6 is None else d6()
            # [reading] 2D off a system is two 1D steps on the same face, each re-checking the
            # fall-through (a system at 0D passes the rest to hull).
            hit: list[str] = []
            for _ in range(lost):
                if self.destroyed:
                    break
                system = self.hit_step(face)
                if ev is not None:
                    hit.append(system)
            if ev is not None:
                ev.append({"rule": "R-SPC-6", "step": "hit_table", "ship": self.id,
                           "dice": [face], "dice_lost": lost, "hit": hit,
                           "destroyed": self.destroyed})
            if self.destroyed:
                break

    # --- R-SPC-7 ------------------------------------------------------------------------

    def damaged(self) -> bool:
        return self.hurt

    def repair(self, count: int) -> list[str]:
        """Give back up to ``count`` damage in REPAIR_ORDER; the captain is not restored."""
        done: list[str] = []
        lost = self.lost
        for system in _REPAIR_ORDER:
            left = count
            while count and lost[system]:
                lost[system] -= 1
                done.append(SYSTEMS[system])
                count -= 1
            if count < left:
                self._update(system)
            if not count:
                break
        if done:
            self.hurt = _any_damage(lost)
        return done

    # --- results ------------------------------------------------------------------------

    def datasheet_now(self) -> Datasheet:
        if not self.hurt and self.ship.captain is None:  # nothing changed: the datasheet
            return self.ship.datasheet
        perm = self.perm
        return _datasheet(perm[MANEUVER], perm[SPEED][0], perm[TARGETING], perm[GUNS],
                          perm[SHIELDS], perm[HULL])

    def result(self) -> ShipResult:
        return ShipResult(self.id, self.ship.name, self.side,
                          "destroyed" if self.destroyed else "active", self.datasheet_now(),
                          {SYSTEMS[i]: v for i, v in enumerate(self.lost) if v},
                          self.captain_alive,
                          self.bridge_hit)


# --- small immutable values, shared (every battle of an odds preview builds them again) -------


def _any_damage(damage: list[int]) -> bool:
    """Whether any damage is left to repair (a loop: cheaper than ``any`` when compiled)."""
    for lost in damage:  # noqa: SIM110 - mypyc compiles the loop, not ``any``
        if lost:
            return True
    return False


def _base(maneuver: DiceCode, speed: int, targeting: DiceCode, gun_damage: DiceCode,
          shields: DiceCode, hull: DiceCode) -> list[tuple[int, int]]:
    """A datasheet as (dice, pips) per system and (speed, 0), in ``SYSTEMS`` order."""
    return [(maneuver.dice, maneuver.pips), (targeting.dice, targeting.pips),
            (gun_damage.dice, gun_damage.pips), (shields.dice, shields.pips),
            (hull.dice, hull.pips), (speed, 0)]


def _with_captain(base: list[tuple[int, int]], captain: Captain) -> list[tuple[int, int]]:
    """R-SPC-1: the (dice, pips) with the captain's bonus: +1D to one system, +1 pip to
    another ([reading] as +1 speed for speed)."""
    table = list(base)
    system = _INDEX[captain.dice_system]
    dice, pips = table[system]
    table[system] = (dice + 1, pips)
    system = _INDEX[captain.pip_system]
    dice, pips = table[system]
    table[system] = (dice + 1, 0) if system == SPEED else (dice, pips + 1)
    return table


_PRISTINE: Final[dict[int, tuple[SpaceShip, ShipState]]] = {}  # id(ship) -> (ship, its fresh state)


def _pristine(ship: SpaceShip) -> ShipState:
    """The ship's state before any battle (per ship, not per battle: a preview fights the same
    ships many times). Read only; keyed by identity, the ship kept alive with it."""
    state = ShipState(ship, SIDES[0], blank=True)
    if len(_PRISTINE) >= 4096:
        _PRISTINE.clear()
    _PRISTINE[id(ship)] = (ship, state)
    return state


@lru_cache(maxsize=4096)
def _purposes(side: str, slot: int) -> dict[str, str]:
    """The ship's parts of its dice purposes ``spc:r<round>:<kind>:<a|d><slot>``: its side
    (attacker, defender) and its place in that side's line when the battle began, 1 the
    flagship. R-DICE-3 [decision]: the dice log is public after the close, so it names the step
    of the battle, never the ship (R-FLT-7). Read only."""
    return {kind: f"{kind}:{side[0]}{slot}"
            for kind in ("init", "attack", "defence", "hit", "fumble", "repair")}


@lru_cache(maxsize=4096)
def _datasheet(maneuver: tuple[int, int], speed: int, targeting: tuple[int, int],
               gun_damage: tuple[int, int], shields: tuple[int, int],
               hull: tuple[int, int]) -> Datasheet:
    """A datasheet from (dice, pips) codes; frozen, so equal ones are shared."""
    return Datasheet(DiceCode(*maneuver), speed, DiceCode(*targeting), DiceCode(*gun_damage),
                     DiceCode(*shields), DiceCode(*hull))
