"""The shape every form post of the pages shares: validate the form, call the service, then go
back with a success message, or show the page again (400) with the refusal next to the field
it names."""

from django.contrib import messages

from campaigns.errors import DomainError
from league.services import readiness
from web.forms.common import add_service_error


def form_action(request, form, call, *, done, again, refusal=add_service_error):
    """``call(cleaned_data)`` runs the service and returns the success message; ``done()``
    answers a success, ``again(form)`` an invalid form or a refusal (the page bound, 400).
    ``refusal(form, exc)`` places a service's DomainError on the form."""
    if form.is_valid():
        try:
            message = call(form.cleaned_data)
        except DomainError as exc:
            refusal(form, exc)
        else:
            messages.success(request, message)
            return done()
    return again(form)


def advance_if_ready(round_id: int) -> bool:
    """After a player's input committed: the phase advances at once if everyone who can act
    in it is done (R-RND-2 [reading]); a failure is left to the periodic job."""
    return readiness.advance_if_ready(round_id=round_id)


def campaign_advance_if_ready(campaign_id: int) -> bool:
    """``advance_if_ready`` for the campaign's current round, after an input that names no
    round (an absence, a seat handed over) committed."""
    return readiness.campaign_advance_if_ready(campaign_id=campaign_id)
