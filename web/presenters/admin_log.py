"""The corrections log in readable form (issue 18): each ``AdminAction`` as who, when, a
translated label of what was done, to what, and a row per changed fact (before -> after).
Kinds or facts this module does not know show as their codes."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from web.templatetags.feldzug import feature_label

KIND_LABELS = {
    "map.import": gettext_lazy("Map replaced by an import"),
    "planet.create": gettext_lazy("Planet added"),
    "planet.update": gettext_lazy("Planet renamed"),
    "planet.delete": gettext_lazy("Planet deleted"),
    "tile.create": gettext_lazy("Tile added"),
    "tile.update": gettext_lazy("Tile changed"),
    "tile.delete": gettext_lazy("Tile deleted"),
    "link.create": gettext_lazy("Tiles linked"),
    "link.delete": gettext_lazy("Tile link removed"),
    "marker.create": gettext_lazy("Marker added"),
    "marker.update": gettext_lazy("Marker changed"),
    "marker.delete": gettext_lazy("Marker removed"),
    "area.create": gettext_lazy("Area added"),
    "area.update": gettext_lazy("Area changed"),
    "area.delete": gettext_lazy("Area deleted"),
    "area.link": gettext_lazy("Areas linked"),
    "area.unlink": gettext_lazy("Area link removed"),
    "area.borders": gettext_lazy("Coastal borders changed"),
    "fleet.create": gettext_lazy("Fleet placed"),
    "fleet.update": gettext_lazy("Fleet changed"),
    "fleet.delete": gettext_lazy("Fleet removed"),
    "ship.create": gettext_lazy("Ship added"),
    "ship.update": gettext_lazy("Ship changed"),
    "ship.delete": gettext_lazy("Ship removed"),
    "hazard.create": gettext_lazy("Hazard placed"),
    "hazard.update": gettext_lazy("Hazard changed"),
    "hazard.delete": gettext_lazy("Hazard removed"),
    "player.update": gettext_lazy("Player changed"),
    "player.replace": gettext_lazy("Seat handed over"),
    "admin.add": gettext_lazy("Admin named"),
    "admin.remove": gettext_lazy("Admin removed"),
}

FIELD_LABELS = {
    "name": gettext_lazy("name"),
    "owner": gettext_lazy("owner"),
    "features": gettext_lazy("features"),
    "markers": gettext_lazy("markers"),
    "coordinates": gettext_lazy("coordinates"),
    "planet": gettext_lazy("planet"),
    "planets": gettext_lazy("planets"),
    "tile": gettext_lazy("tile"),
    "tiles": gettext_lazy("tiles"),
    "type": gettext_lazy("type"),
    "link": gettext_lazy("link"),
    "areas": gettext_lazy("areas"),
}

NOTHING = "—"


def kind_label(kind: str) -> str:
    return str(KIND_LABELS.get(kind, kind))


def value_text(key: str, value) -> str:
    if value is None or value == [] or value == "":
        return NOTHING
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key == "coordinates" and isinstance(value, list) and len(value) == 2:
        return f"({value[0]}, {value[1]})"
    if isinstance(value, list):
        shown = [feature_label(v) if key == "features" else v for v in value]
        return ", ".join(value_text("", v) for v in shown)
    if isinstance(value, dict):
        return "; ".join(f"{FIELD_LABELS.get(k, k)}: {value_text(k, v)}"
                         for k, v in value.items())
    return str(value)


def change_rows(before, after) -> list[dict]:
    """One row per fact that an entry records: its label, before and after."""
    if isinstance(before, dict) or isinstance(after, dict):
        old, new = before if isinstance(before, dict) else {}, after if isinstance(
            after, dict) else {}
        keys = list(dict.fromkeys([*old, *new]))
        return [{"field": str(FIELD_LABELS.get(key, key)),
                 "before": value_text(key, old.get(key)) if before is not None else NOTHING,
                 "after": value_text(key, new.get(key)) if after is not None else NOTHING}
                for key in keys]
    if before is None and after is None:
        return []
    return [{"field": "", "before": value_text("", before), "after": value_text("", after)}]


def log_entries(actions) -> list[dict]:
    return [{"action": action, "kind": kind_label(action.kind),
             "changes": change_rows(action.before, action.after)} for action in actions]
