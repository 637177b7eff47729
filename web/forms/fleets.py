"""Forms of the fleets page (R-FLT-4, R-FLT-5, R-FLT-8).

The forms check the shape of the input only; the services check the rules and their
``DomainError`` lands on the form field it names (``web.forms.common.add_service_error``)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.values import parse_numbers
from fleets.models import Fleet
from rules.ship_values import MAX_DETACHMENT_POINTS, MIN_DETACHMENT_POINTS, NAME_LIMIT


def _ids(value: str) -> list[int]:
    parts = [p for p in value.replace(",", " ").split() if p]
    numbers = parse_numbers(parts)
    if len(numbers) != len(parts):
        raise forms.ValidationError(_("Give area numbers separated by commas."))
    return numbers


class FleetOrderForm(forms.Form):
    path = forms.CharField(
        label=_("Path (area numbers in order)"), required=False, max_length=600,
        help_text=_("Click the areas in the order the fleet should enter them, or type their "
                    "numbers. Empty: the fleet stays where it is."))

    def clean_path(self) -> list[int]:
        return _ids(self.cleaned_data["path"])


class StandingOrdersForm(forms.Form):
    """Interception policy, benefit preference, stance and the battle line (R-FLT-5): one
    position field per ship, flagship = 1."""

    interception = forms.ChoiceField(label=_("Intercept passing enemies"),
                                     choices=Fleet.Interception.choices)
    benefits = forms.CharField(
        label=_("Benefit preference"), required=False, max_length=20,
        help_text=_("Letters in order of preference, e.g. “a, c”: a) advantage in the "
                    "battle that follows, b) move on, c) avoid combat, d) withdraw."))
    stance = forms.ChoiceField(label=_("Battle stance"), choices=Fleet.Stance.choices)

    def __init__(self, *args, ships=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.ships = list(ships)
        for ship in self.ships:
            self.fields[f"line_{ship['id']}"] = forms.IntegerField(
                label=_("Position of %(ship)s") % {"ship": ship["name"]}, min_value=1,
                max_value=max(1, len(self.ships)), initial=ship["position"])

    def line_fields(self):
        return [self[f"line_{ship['id']}"] for ship in self.ships]

    def clean_benefits(self) -> list[str]:
        return [p for p in self.cleaned_data["benefits"].lower().replace(",", " ").split()]

    def clean(self):
        data = super().clean()
        positions = [data.get(f"line_{ship['id']}") for ship in self.ships]
        if None not in positions and len(set(positions)) != len(positions):
            raise forms.ValidationError(_("Give every ship its own position in the line."))
        return data

    def changes(self) -> dict:
        data = self.cleaned_data
        line = sorted(self.ships, key=lambda ship: data[f"line_{ship['id']}"])
        return {"interception": data["interception"], "benefits": data["benefits"],
                "stance": data["stance"], "line": [ship["id"] for ship in line]}


class EmbarkForm(forms.Form):
    ship = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    name = forms.CharField(label=_("Detachment"), max_length=NAME_LIMIT)
    # R-FLT-2 (rules.ship_values); the service checks the campaign's detachment_points
    points = forms.IntegerField(label=_("Army points"), min_value=MIN_DETACHMENT_POINTS,
                                max_value=MAX_DETACHMENT_POINTS)


class DisembarkForm(forms.Form):
    ship = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    index = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
