"""The home page's campaign cards as one markup string: a user may see dozens of
campaigns, so each card is formatted here once, labels translated once per request, instead of
template includes, filters and ``blocktranslate`` per card. Same markup as the templates
``web/_campaign_list.html`` and ``web/_deadline.html`` wrote."""

from html import escape

from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from web.presenters import times

DEADLINE = ('<p><span class="deadline">%s: %s\n<strong role="timer" data-countdown="%s" '
            'data-days="%s" data-passed="%s">%s</strong></span></p>')


class _Labels:
    """The words every card shares, translated once."""

    def __init__(self):
        from web.templatetags.feldzug import (  # the pages' one set of labels
            campaign_status_label,
            phase_label,
            visibility_label,
        )

        self.phase, self.status, self.visibility = (phase_label, campaign_status_label,
                                                    visibility_label)
        self.runs = escape(_("you run it"))
        self.deadline = escape(_("Deadline"))
        self.days = escape(pgettext("days, short", "d"))
        self.passed = escape(pgettext("deadline", "passed"))
        self.prefix = reverse("campaigns:detail", args=[0])[:-2]  # ".../campaigns/" + id + "/"


def campaign_cards(entries: list[dict]) -> str:
    """``entries``: ``{"campaign", "round" (dict or None), "faction", "runs"}`` as the home
    view lists them; the ``<li>`` cards of ``<ul class="campaigns">``."""
    labels = _Labels()
    return mark_safe("".join(_card(entry, labels) for entry in entries))  # noqa: S308


def _card(entry: dict, labels: _Labels) -> str:
    campaign, rnd = entry["campaign"], entry["round"]
    if rnd:
        state = (escape(_("Round %(n)s") % {"n": rnd["number"]}) + " · "
                 + escape(str(labels.phase(rnd["phase"]))))
    else:
        state = escape(str(labels.status(campaign.status)))
    meta = [state, escape(str(labels.visibility(campaign.visibility)))]
    if entry["faction"]:
        meta.append(escape(_("you play %(faction)s") % {"faction": entry["faction"]}))
    if entry["runs"]:
        meta.append(labels.runs)
    out = [f'<li class="card"><h3><a href="{labels.prefix}{campaign.pk}/">'
           f'{escape(campaign.name)}</a></h3><p class="meta">{" · ".join(meta)}</p>']
    deadline = rnd and rnd.get("phase_deadline")
    if deadline:
        out.append(DEADLINE % (labels.deadline, times.time_element(deadline),
                               times.utc_iso(deadline), labels.days, labels.passed,
                               escape(times.relative_text(deadline))))
    out.append("</li>")
    return "".join(out)
