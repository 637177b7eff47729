"""Forms of the map editor's planets and tiles page: the shape of the input only; the
map services (``campaigns.services.map``) check the rules (R-MAP, R-MRK) and their refusal lands
on the field it names. Each has the admin's optional reason for a correction
(``OptionalReasonForm``)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.models import TILE_NAME_MAX, MarkerType, Planet, Player, Tile
from campaigns.services.map_facts import tile_label
from campaigns.values import COORDINATE_LIMIT
from web.forms.common import OptionalReasonForm
from web.templatetags.feldzug import marker_name

# service field -> form field, for add_service_error
SERVICE_FIELDS = {"type": "type", "b": "other", "a": "other", "tile": None}


def _coordinate(label):
    return forms.IntegerField(label=label, min_value=-COORDINATE_LIMIT,
                              max_value=COORDINATE_LIMIT,
                              widget=forms.NumberInput(attrs={"inputmode": "numeric"}))


class PlanetForm(OptionalReasonForm):
    name = forms.CharField(label=_("Planet name"), max_length=Planet._meta.get_field("name")
                           .max_length)


class HexForm(OptionalReasonForm):
    """A hex of the planet: where to add a tile, or where to move one."""

    q = _coordinate(_("q (column)"))
    r = _coordinate(_("r (row)"))


NEUTRAL = "neutral"


class TileForm(OptionalReasonForm):
    """The owner is always sent (``neutral`` for nobody), so a post without the form's fields
    is refused rather than clearing the tile."""

    name = forms.CharField(label=_("Tile name"), max_length=TILE_NAME_MAX, required=False,
                           help_text=_("Optional; without a name the map shows the "
                                       "coordinates."))
    owner = forms.ChoiceField(label=_("Owner"))
    features = forms.MultipleChoiceField(label=_("Features (R-MAP-2)"),
                                         choices=Tile.Feature.choices, required=False,
                                         widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = {str(p.pk): p for p in Player.objects.filter(campaign=campaign)
                        .select_related("user").order_by("faction", "user__username")}
        self.fields["owner"].choices = [(NEUTRAL, _("nobody (neutral)"))] + [
            (pk, f"{p.faction} ({p.user.username})") for pk, p in self.players.items()]

    def clean_owner(self):
        return self.players.get(self.cleaned_data["owner"])  # None: neutral


class DeleteForm(OptionalReasonForm):
    """A delete button's form: it says what it does, so a stray post deletes nothing."""

    confirm = forms.ChoiceField(choices=[("delete", "delete")], widget=forms.HiddenInput)


class MarkerForm(OptionalReasonForm):
    type = forms.ChoiceField(label=_("Marker type"))

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["type"].choices = sorted(
            ((code, marker_name(code, name)) for code, name in
             MarkerType.objects.filter(campaign=campaign).values_list("code", "name")),
            key=lambda choice: choice[1])


class LinkForm(OptionalReasonForm):
    """An explicit adjacency (R-MAP-1) from the open tile to ``other``, on any planet."""

    other = forms.ModelChoiceField(label=_("Link to tile"), queryset=Tile.objects.none())

    def __init__(self, *args, campaign, tile, **kwargs):
        super().__init__(*args, **kwargs)
        other = self.fields["other"]
        other.queryset = (Tile.objects.filter(campaign=campaign).exclude(pk=tile.pk)
                          .select_related("planet").order_by("planet_id", "r", "q"))
        other.label_from_instance = tile_label
