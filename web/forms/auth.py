"""The login page's form (config/urls.py). Django's ``AuthenticationForm`` only shows the
username's maximum length in the widget; a longer username reached ``authenticate`` and
django-axes, whose 255-character column refused it with a 500. Here it is a
form error and nothing is looked up or logged."""

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.validators import MaxLengthValidator
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from battles.models import NotificationKind
from campaigns.mail import absolute, display, profiles_of, queue_mail, recipient_locale
from campaigns.models import Profile
from campaigns.services.accounts import EMAIL_MAX
from web.forms.zones import ZoneChoiceField, suggest_browser_zone


class LoginForm(AuthenticationForm):
    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))


class ResetForm(PasswordResetForm):
    """Django's password reset; its mail is in the member's language, greets them by display
    name and links the site's address (``SITE_URL``), not the request's host. It
    is queued in the outbox (``campaigns.mail.queue_mail``), never sent by the request: a mail
    server that does not answer cannot hold the page."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email,
                  to_email, html_email_template_name=None):
        user = context["user"]
        profile = profiles_of([user]).get(user.pk)
        link = absolute(reverse("password_reset_confirm", kwargs={"uidb64": context["uid"],
                                                                  "token": context["token"]}))
        context = {**context, "recipient_name": display(user, profile), "link": link}
        with recipient_locale(profile):
            subject = "".join(render_to_string(subject_template_name, context).splitlines())
            body = render_to_string(email_template_name, context)
        queue_mail(subject, body, to_email)


class AdminLoginForm(AdminAuthenticationForm):
    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))


# --- accounts: sign-up, profile, e-mail change, deleting an account -------

def time_zone_field() -> ZoneChoiceField:
    return ZoneChoiceField(label=_("Time zone"), required=False,
                           empty_label=_("Default (the campaign's or the site's)"))


def language_choices():
    return [("", _("Default (the browser's)"))] + list(settings.LANGUAGES)


class SignupForm(UserCreationForm):
    """Username, e-mail, password (twice, checked by ``AUTH_PASSWORD_VALIDATORS``), language
    and time zone; ``campaigns.services.accounts.account_signup`` creates the account."""

    email = forms.EmailField(label=_("E-mail address"), max_length=EMAIL_MAX)
    language = forms.ChoiceField(label=_("Language"), choices=language_choices, required=False)
    time_zone = time_zone_field()
    next = forms.CharField(required=False, widget=forms.HiddenInput, max_length=2000)

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].validators.append(
            MaxLengthValidator(self.fields["username"].max_length))
        self.fields["username"].help_text = _("Letters, digits and @/./+/-/_ only.")
        if not self.is_bound and self.initial.get("time_zone") in ("", settings.CAMPAIGN_TIME_ZONE):
            suggest_browser_zone(self.fields["time_zone"], self.initial.get("time_zone", ""))


class ProfileForm(forms.Form):
    display_name = forms.CharField(label=_("Display name"), required=False,
                                   max_length=Profile.DISPLAY_NAME_MAX,
                                   help_text=_("Shown next to your username; one line."))
    language = forms.ChoiceField(label=_("Language"), choices=language_choices, required=False)
    time_zone = time_zone_field()


NOTIFICATION_LABELS = {
    NotificationKind.PHASE_OPENED: _("A phase opens"),
    NotificationKind.DEADLINE_SOON: _("A deadline is near and I still owe input"),
    NotificationKind.DATE_PROPOSED: _("A battle date is proposed"),
    NotificationKind.RESULT_TO_CONFIRM: _("A result waits for my confirmation"),
    NotificationKind.DISPUTE_RAISED: _("A result is disputed"),
}


class NotificationsForm(forms.Form):
    """One player's e-mail switches (``battles.services.notifications``)."""

    player = forms.IntegerField(widget=forms.HiddenInput, min_value=1)

    def __init__(self, *args, prefs: dict[str, bool] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in NotificationKind.values:
            self.fields[kind] = forms.BooleanField(label=NOTIFICATION_LABELS[kind],
                                                   required=False,
                                                   initial=(prefs or {}).get(kind, True))


def current_password_field():
    """The current password, which changing the address or the API token asks for (a stolen
    session alone cannot take the account over); checked through ``authenticate``."""
    return forms.CharField(label=_("Your current password"), strip=False,
                           widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))


class EmailChangeForm(forms.Form):
    email = forms.EmailField(label=_("New e-mail address"), max_length=EMAIL_MAX)
    current_password = current_password_field()


class TokenRotateForm(forms.Form):
    current_password = current_password_field()

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "id_token_%s")  # the e-mail form on the page has the name
        super().__init__(*args, **kwargs)


class PasswordConfirmForm(forms.Form):
    """The current password, checked through ``authenticate`` (so django-axes counts
    failures and the lockout applies)."""

    password = forms.CharField(label=_("Your password"), strip=False,
                               widget=forms.PasswordInput(
                                   attrs={"autocomplete": "current-password"}))
