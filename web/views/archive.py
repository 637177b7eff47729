"""The campaign archive and the sandbox in pages: the manage page's
"Archive" section downloads the archive and clones the campaign as a sandbox; the home page
takes an archive to import as a new campaign. Each calls the service the API calls."""

import json

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaigns.errors import DomainError
from league.services.archive import archive_export, campaign_clone_sandbox
from league.services.archive_import import archive_import
from league.services.map_document import DocumentInvalid
from web.forms.archive import ArchiveImportForm
from web.forms.common import add_service_error
from web.views.home import may_create
from web.views.scope import Scope, campaign_page, forbidden


@require_GET
@campaign_page("admin")
def archive_download(request, scope: Scope):
    document = archive_export(campaign=scope.campaign, by=request.user, now=timezone.now())
    response = HttpResponse(json.dumps(document, ensure_ascii=False, indent=1),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="campaign-{scope.campaign.pk}-archive.json"')
    return response


@require_POST
@campaign_page("admin")
def sandbox_create(request, scope: Scope):
    sandbox = campaign_clone_sandbox(campaign=scope.campaign, by=request.user,
                                     now=timezone.now())
    messages.success(request, _("Sandbox created: try anything here, nothing reaches the "
                                "players."))
    return redirect("campaigns:manage", sandbox.pk)


@require_POST
def archive_upload(request):
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("campaigns:index"))
    if not may_create(request.user):
        return forbidden(request)
    form = ArchiveImportForm(request.POST, request.FILES)
    problems: dict = {}
    if form.is_valid():
        try:
            campaign = archive_import(document=form.cleaned_data["archive"], by=request.user,
                                      now=timezone.now())
        except DocumentInvalid as exc:
            form.add_error("archive", _("The archive was rejected; nothing was imported. "
                                        "Problems by place in the archive are listed below."))
            problems = exc.errors
        except DomainError as exc:
            add_service_error(form, exc, {exc.field: "archive"})
        else:
            messages.success(request, _("Campaign imported. Its seats have no accounts yet: "
                                        "hand them out with seat invitations."))
            return redirect("campaigns:manage", campaign.pk)
    return render(request, "web/archive_import.html", {"form": form, "problems": problems},
                  status=400)
