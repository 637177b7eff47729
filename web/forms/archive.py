"""The archive upload of the home page: a JSON file of bounded size; the
import service checks the archive itself."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.text import walk_text

ARCHIVE_BYTES = 10 * 1024 * 1024


class ArchiveImportForm(forms.Form):
    archive = forms.FileField(
        label=_("Campaign archive (JSON)"),
        help_text=_("A file downloaded from a campaign's manage page (at most 10 MB). It "
                    "becomes a new campaign that you administer."))

    def clean_archive(self):
        upload = self.cleaned_data["archive"]
        if upload.size > ARCHIVE_BYTES:
            raise forms.ValidationError(_("The archive is larger than 10 MB."))
        try:
            document = json.loads(upload.read().decode("utf-8"))
        except UnicodeDecodeError:
            raise forms.ValidationError(_("The archive is not UTF-8 text.")) from None
        except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
            raise forms.ValidationError(_("The archive is not valid JSON.")) from None
        for path, found in walk_text(document):
            raise forms.ValidationError(
                _("%(path)s contains U+%(code)s: NUL, control characters and lone "
                  "surrogates are not allowed.")
                % {"path": path or _("The archive"), "code": found.code})
        return document
