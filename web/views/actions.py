"""The shape every form post of the pages shares: validate the form, call the service, then go
back with a success message, or show the page again (400) with the refusal next to the field
it names."""

from django.contrib import messages

from campaigns.errors import DomainError
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
