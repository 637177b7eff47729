"""/site/settings/: the site's own settings, for staff (is_staff or superuser): the public
address absolute links start with and whether webhooks may reach private addresses
(``campaigns.site``; written by ``campaigns.services.site``)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns import site
from campaigns.errors import DomainError
from campaigns.services.site import is_staff, site_settings_update
from web.forms.common import add_service_error
from web.forms.site import SiteSettingsForm
from web.views.scope import forbidden


def _form(data=None) -> SiteSettingsForm:
    stored = site.read_stored()
    initial = {"site_url": site.configured_url() or stored.site_url,
               "webhooks_allow_private": site.webhooks_allow_private()}
    return SiteSettingsForm(data, initial=initial, address_locked=bool(site.configured_url()),
                            private_locked=site.configured_webhooks_allow_private())


@login_required
@require_http_methods(["GET", "POST"])
def site_settings_page(request):
    if not is_staff(request.user):
        return forbidden(request)
    form, status = _form(), 200
    if request.method == "POST":
        form = _form(request.POST)
        if form.is_valid():
            values = {name: form.cleaned_data[name] for name in form.fields
                      if not form.fields[name].disabled}
            try:
                site_settings_update(by=request.user, values=values)
            except DomainError as exc:
                add_service_error(form, exc)
            else:
                messages.success(request, _("Site settings saved."))
                return redirect("campaigns:site-settings")
        status = 400
    stored = site.read_stored()
    return render(request, "web/site_settings.html", {
        "form": form, "address": site.site_url(), "configured": bool(site.configured_url()),
        "learned": bool(stored.site_url) and stored.learned,
        "typed": bool(stored.site_url) and not stored.learned,
        "private_configured": site.configured_webhooks_allow_private()}, status=status)
