"""A fleet in full on the map page, for its owner and the admin only (R-FLT-7): name, kind,
admiral, each ship with class, values, cargo and crew, and the standing orders. Built as
markup once per request (labels translated once) since the admin sees every fleet here."""

from html import escape

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from fleets.models import Fleet
from rules.fleet_phase import standing_orders

ROW = "<tr><td>%s</td><td>%s</td><td>%d/%d/%d</td><td>%s</td><td>%s</td></tr>"


class FleetDetails:
    def __init__(self):
        from web.templatetags.feldzug import (
            benefit_label,
            fleet_kind_label,
            interception_label,
            stance_label,
        )

        self.labels = {"interception": interception_label, "stance": stance_label,
                       "benefit": benefit_label}
        self.kinds = {k: escape(str(fleet_kind_label(k))) for k in Fleet.Kind.values}
        self.admiral = _("admiral %(rating)s")
        values = escape(_("Attack / defence / agility"))
        self.head = ('<div class="table-wrap"><table><thead><tr>'
                     + "".join(f'<th scope="col">{escape(_(word))}</th>'
                               for word in ("Ship", "Class"))
                     + f'<th scope="col" title="{values}">{escape(_("A/D/Ag"))}</th>'
                     + "".join(f'<th scope="col">{escape(_(word))}</th>'
                               for word in ("Cargo", "Crew"))
                     + "</tr></thead><tbody>")
        self.orders = escape(_("Standing orders"))
        self.intercept = _("intercept: %(i)s; stance: %(s)s")
        self.benefits, self.line = _("benefits"), _("line")

    def html(self, fleet: dict) -> str:
        """A fleet row of ``fleets.selectors.fleet_view.full_fleets`` as a ``<details>``."""
        rows = [ROW % (escape(s["name"]), escape(s["ship_class"]), s["attack"], s["defence"],
                       s["agility"], _items(s["cargo"], "points", "%s (%s)"),
                       _items(s["crew"], "cp", "%s (%s CP)"))
                for s in fleet["ships"]]
        admiral = escape(self.admiral % {"rating": fleet["admiral_rating"]})
        orders = self._orders(fleet)
        kind = fleet["kind"]
        return mark_safe(  # noqa: S308 (every text escaped above)
            f'<details class="fleet-full"><summary><strong>{escape(fleet["name"])}</strong> — '
            f'{self.kinds.get(kind, escape(kind))}, {admiral}</summary>'
            f'{self.head}{"".join(rows)}</tbody></table></div>{orders}</details>')

    def _orders(self, fleet: dict) -> str:
        """R-FLT-5: the standing orders in force (the fleet card's words), when the owner gave
        any; a key the rules do not know is shown as stored."""
        stored = fleet["standing_orders"]
        if not stored:
            return ""
        merged, label = standing_orders(stored), self.labels
        benefits = ", ".join(f"{b}) {label['benefit'](b)}" for b in merged["benefits"]) or "—"
        parts = [self.intercept % {"i": label["interception"](merged["interception"]),
                                   "s": label["stance"](merged["stance"])},
                 f"{self.benefits}: {benefits}"]
        if "line" in stored:
            parts.append(f"{self.line}: {', '.join(s['name'] for s in fleet['ships'])}")
        parts += [f"{k}: {v}" for k, v in stored.items() if k not in merged and k != "line"]
        return f"<p>{self.orders}: {'; '.join(escape(str(part)) for part in parts)}</p>"


def _items(items: list, number: str, pattern: str) -> str:
    return ", ".join(pattern % (escape(str(i.get("name", ""))), escape(str(i.get(number, ""))))
                     for i in items or ()) or "—"
