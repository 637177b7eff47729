"""The map document upload shared by the manage page and the map editor: the form
and the import service; the caller answers success or shows its page again."""

from django.utils.translation import gettext as _

from campaigns.errors import DomainError
from league.services.map_document import DocumentInvalid, map_import
from web.forms.common import add_service_error
from web.forms.manage import MapImportForm


def import_upload(request, scope) -> tuple[MapImportForm, dict, int | None]:
    """Replace the map with the uploaded document, the admin as the actor (a correction in a
    running campaign, with the form's optional reason). Returns the bound form, the problems
    by path in the document, and None on success, else the status to answer with (400, or the
    refusal's: 409)."""
    form = MapImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return form, {}, 400
    try:
        map_import(campaign=scope.campaign, document=form.cleaned_data["document"],
                   actor=request.user, reason=form.cleaned_data["reason"])
    except DocumentInvalid as exc:
        form.add_error("document", _("The document was rejected; nothing was imported. "
                                     "Problems by place in the document are listed below."))
        return form, exc.errors, 400
    except DomainError as exc:
        add_service_error(form, exc, None if exc.field == "reason" else {exc.field: "document"})
        return form, {}, exc.status
    return form, {}, None
