"""Account pages: log in (sets the member's language), sign up,
password change and reset (styled; both revoke the API token and other sessions), the profile
page (display name, language, time zone, notification switches, e-mail change, API token),
the personal data download and deleting the account.

Sign-up is open when ``settings.OPEN_SIGNUP`` is on. While it is closed, a visitor whose
``next`` is an invitation link (starts with ``settings.SIGNUP_INVITATION_PREFIX``, /invite/)
may still sign up: the invitation page itself checks its token after the sign-up, so a made-up
/invite/ address creates an account but joins no campaign. POSTs of sign-up, password reset,
e-mail change and the password confirmations are throttled per address
(``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["account"]``); password confirmations go through
``authenticate`` so django-axes counts failures and locks the account as on the login page."""

import contextlib
import json
from urllib.parse import unquote

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate, login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.hashers import make_password
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse, reverse_lazy
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n as i18n_views
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.throttling import ScopedRateThrottle

from battles.services.notifications import preferences_of, preferences_update
from campaigns.errors import DomainError
from campaigns.mail import (
    absolute,
    display,
    mail_after_commit,
    mail_users_after_commit,
    profiles_of,
    queue_mail,
    recipient_locale,
)
from campaigns.models import Player
from campaigns.selectors.invitations import ACTIVE, invitation_by_token, invitation_state
from campaigns.services.accounts import (
    account_delete,
    credentials_revoke,
    email_change_confirm,
    email_change_read,
    email_change_token,
    profile_read,
    profile_update,
    signup_check,
    signup_finish,
    signup_pending,
    signup_pending_create,
    token_of,
    token_rotate,
)
from league.selectors.accounts import personal_data
from web.forms.auth import (
    EmailChangeForm,
    LoginForm,
    NotificationsForm,
    PasswordConfirmForm,
    ProfileForm,
    ResetForm,
    SignupForm,
    TokenRotateForm,
)
from web.forms.common import add_service_error
from web.middleware import activate_reader_language

LOCKED = "registration/locked_out.html"


# --- helpers --------------------------------------------------------------------------------

class _Scoped:
    throttle_scope = "account"


def throttled(request) -> bool:
    """Count one attempt of this caller (the user, or the address when anonymous) against
    the API's "account" throttle (``DEFAULT_THROTTLE_RATES``): pages and API share one count."""
    return not ScopedRateThrottle().allow_request(request, _Scoped)


def _too_many(request):
    return render(request, "web/too_many.html", status=429)


def safe_next(request, value: str | None) -> str:
    """``value`` if it is a local address, else ""."""
    if value and url_has_allowed_host_and_scheme(value, allowed_hosts={request.get_host()},
                                                 require_https=request.is_secure()):
        return value
    return ""


def signup_allowed(next_url: str) -> bool:
    """Open sign-up, or a visitor on their way to an invitation (see the module docstring)."""
    return settings.OPEN_SIGNUP or next_url.startswith(settings.SIGNUP_INVITATION_PREFIX)


def signup_invitation(next_url: str):
    """The invitation the visitor comes from (``next`` is its page), or None."""
    prefix = settings.SIGNUP_INVITATION_PREFIX
    token = next_url[len(prefix):].split("/", 1)[0] if next_url.startswith(prefix) else ""
    return invitation_by_token(unquote(token)) if token else None


def signup_initial(next_url: str, language: str) -> dict:
    """The sign-up form's suggestions: the reader's language; the zone of the
    campaign whose invitation the visitor comes from (else the site's default), and the
    address an e-mail invitation was sent to (a link invitation has none; the visitor may
    change it)."""
    invitation = signup_invitation(next_url)
    zone = invitation.campaign.time_zone if invitation else settings.CAMPAIGN_TIME_ZONE
    usable = invitation is not None and invitation_state(invitation) == ACTIVE
    return {"next": next_url, "language": language, "time_zone": zone,
            "email": invitation.email if usable else ""}


def _with_language(response, language: str):
    """Switch the UI to ``language`` (the member's choice) via the language cookie, which
    ``LocaleMiddleware`` reads; the switcher in the top bar keeps working."""
    if language:
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language,
                            max_age=settings.LANGUAGE_COOKIE_AGE,
                            path=settings.LANGUAGE_COOKIE_PATH,
                            domain=settings.LANGUAGE_COOKIE_DOMAIN,
                            secure=settings.LANGUAGE_COOKIE_SECURE,
                            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                            samesite=settings.LANGUAGE_COOKIE_SAMESITE)
    return response


def _password_ok(request, password: str) -> bool:
    """The current password, through django-axes (failures count towards the lockout)."""
    return authenticate(request, username=request.user.get_username(),
                        password=password) is not None


def _locked(request) -> bool:
    return AxesProxyHandler.is_locked(request, {"username": request.user.get_username()})


# --- log in and sign up ---------------------------------------------------------------------

class LoginView(auth_views.LoginView):
    authentication_form = LoginForm

    def form_valid(self, form):
        response = super().form_valid(form)
        return _with_language(response, profile_read(form.get_user()).language)


@require_http_methods(["GET", "POST"])
def signup(request):
    """Step one: check the form, keep the sign-up in this browser's session and mail the
    address; the answer is the same whether the address has an account or not."""
    next_url = safe_next(request, request.POST.get("next") or request.GET.get("next"))
    allowed = signup_allowed(next_url)
    if request.user.is_authenticated:
        return redirect(next_url or "campaigns:index")
    if not allowed:
        return render(request, "registration/signup.html", {"closed": True}, status=403)
    invitation = signup_invitation(next_url)
    if invitation is not None:  # someone new, invited: the campaign's language
        activate_reader_language(request, invitation.campaign)
    if request.method == "POST":
        if throttled(request):
            return _too_many(request)
        form = SignupForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            if AxesProxyHandler.is_locked(request, {"username": data["username"]}):
                return render(request, LOCKED, status=429)
            try:
                owner = signup_check(username=data["username"], email=data["email"],
                                     language=data["language"], time_zone=data["time_zone"])
            except DomainError as exc:
                add_service_error(form, exc)
            else:
                _signup_pending(request, data, next_url, owner)
                return render(request, "registration/signup.html",
                              {"sent": data["email"], "closed": False})
        status = 400
    else:
        form = SignupForm(initial=signup_initial(next_url, request.LANGUAGE_CODE))
        status = 200
    return render(request, "registration/signup.html",
                  {"form": form, "next": next_url, "closed": False}, status=status)


def _signup_pending(request, data: dict, next_url: str, owner) -> None:
    """The same work for a new and a known address (hash, one mail): a new one gets the link
    that finishes the sign-up (in any browser), a known one's owner a note."""
    password_hash = make_password(data["password1"])
    context = {"hours": settings.EMAIL_CHANGE_MAX_AGE // 3600,
               "login_link": absolute(reverse("login")),
               "reset_link": absolute(reverse("password_reset"))}
    if owner is None:
        token = signup_pending_create(
            username=data["username"], email=data["email"], password_hash=password_hash,
            language=data["language"], time_zone=data["time_zone"], next_url=next_url or "",
            now=timezone.now())
        mail_after_commit(to=[data["email"]], name="signup_confirm", language=data["language"],
                          context={**context, "username": data["username"], "link": absolute(
                              reverse("signup-confirm", args=[token]))})
    else:
        mail_users_after_commit(users=[owner], name="signup_known", context=context)


@require_http_methods(["GET", "POST"])
def signup_confirm(request, nonce: str):
    """Step two, from the mailed link, in whichever browser opens it: GET shows the account,
    POST (the button) creates it and logs in. An old or a used link: 400."""
    pending = signup_pending(token=nonce, now=timezone.now())
    if pending is None:
        return render(request, "registration/signup_confirm.html", {}, status=400)
    if request.method == "GET":
        return render(request, "registration/signup_confirm.html", {"pending": pending})
    if throttled(request):
        return _too_many(request)
    try:
        user = signup_finish(token=nonce, now=timezone.now())
    except DomainError as exc:
        return render(request, "registration/signup_confirm.html", {"error": exc.message},
                      status=exc.status)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Welcome, %(name)s! Your account is ready.")
                     % {"name": user.username})
    return _with_language(redirect(pending.next_url or "profile"), pending.language)


# --- passwords ------------------------------------------------------------------------------

class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's page with the site's template; the current password is checked through
    django-axes, and the API token and every other session stop working (point 7)."""

    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("password_change_done")

    def post(self, request, *args, **kwargs):
        if throttled(request):
            return _too_many(request)
        if _locked(request):
            return render(request, LOCKED, status=429)
        # counted by django-axes; the form itself refuses a wrong password
        _password_ok(request, request.POST.get("old_password", ""))
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        response = super().form_valid(form)  # keeps this session (update_session_auth_hash)
        credentials_revoke(user=form.user)  # the other sessions end with the old password
        return response


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "registration/password_reset_form.html"
    form_class = ResetForm  # the mail in the member's language, linking SITE_URL
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def post(self, request, *args, **kwargs):
        if throttled(request):
            return _too_many(request)
        return super().post(request, *args, **kwargs)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Setting a new password from the mailed link ends every session and the API token."""

    template_name = "registration/password_reset_confirm.html"

    def post(self, request, *args, **kwargs):
        if throttled(request):
            return _too_many(request)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        response = super().form_valid(form)
        credentials_revoke(user=form.user)
        return response


# --- the profile page -----------------------------------------------------------------------

def _profile_page(request, *, profile_form=None, email_form=None, notification_forms=None,
                  token_form=None, status: int = 200):
    profile = profile_read(request.user)
    if profile_form is None:
        profile_form = ProfileForm(initial={"display_name": profile.display_name,
                                            "language": profile.language,
                                            "time_zone": profile.time_zone})
    seats = list(Player.objects.filter(user=request.user).select_related("campaign")
                 .order_by("campaign__name", "id"))
    forms = notification_forms or {}
    notifications = [
        {"player": p, "form": forms.get(p.pk) or NotificationsForm(
            prefix=f"n{p.pk}", initial={"player": p.pk}, prefs=preferences_of(p))}
        for p in seats]
    return render(request, "registration/profile.html", {
        "profile": profile, "profile_form": profile_form,
        "email_form": email_form or EmailChangeForm(), "notifications": notifications,
        "token_form": token_form or TokenRotateForm(),
        "token": token_of(request.user), "new_token": request.session.pop("new_token", None),
        "site_zone": settings.CAMPAIGN_TIME_ZONE,
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    if request.method == "GET":
        return _profile_page(request)
    form = ProfileForm(request.POST)
    if form.is_valid():
        try:
            saved = profile_update(user=request.user, **form.cleaned_data)
        except DomainError as exc:
            add_service_error(form, exc)
        else:
            # The message in the chosen language (without leaking it beyond this request).
            with translation.override(saved.language or translation.get_language()):
                messages.success(request, _("Profile saved."))
            response = _with_language(redirect("profile"), saved.language)
            if not saved.language:  # the default: the browser's language again
                response.delete_cookie(settings.LANGUAGE_COOKIE_NAME,
                                       path=settings.LANGUAGE_COOKIE_PATH,
                                       domain=settings.LANGUAGE_COOKIE_DOMAIN)
            return response
    return _profile_page(request, profile_form=form, status=400)


@login_required
@require_POST
def notifications_save(request):
    seat = request.POST.get("player", "")
    player = Player.objects.filter(user=request.user, pk=int(seat)).first() \
        if seat.isascii() and seat.isdigit() and len(seat) <= 18 else None
    if player is None:
        return render(request, "web/forbidden.html", status=404)
    form = NotificationsForm(request.POST, prefix=f"n{player.pk}",
                             prefs=preferences_of(player))
    # the hidden "player" field is outside the prefix: the form checks the switches only
    form.fields.pop("player")
    if not form.is_valid():
        return _profile_page(request, notification_forms={player.pk: form}, status=400)
    preferences_update(player=player, changes=dict(form.cleaned_data))
    messages.success(request, _("Notification settings for %(campaign)s saved.")
                     % {"campaign": player.campaign.name})
    return redirect(reverse("profile") + "#notifications")


def _password_refused(request, form) -> bool:
    """The form's ``current_password`` through django-axes; a wrong one is its field's error."""
    if form.is_valid() and not _password_ok(request, form.cleaned_data["current_password"]):
        form.add_error("current_password", _("Your password was entered incorrectly."))
    return not form.is_valid()


@login_required
@require_POST
def email_change(request):
    if throttled(request):
        return _too_many(request)
    if _locked(request):
        return render(request, LOCKED, status=429)
    form = EmailChangeForm(request.POST)
    if not _password_refused(request, form):
        try:
            token = email_change_token(user=request.user, new_email=form.cleaned_data["email"])
        except DomainError as exc:
            add_service_error(form, exc)
        else:
            _mail_email_change(request.user, token, form.cleaned_data["email"])
            messages.success(request, _("We sent a confirmation link to %(email)s. Your "
                                        "address changes when you open it.")
                             % {"email": form.cleaned_data["email"]})
            return redirect("profile")
    return _profile_page(request, email_form=form, status=400)


def _mail_email_change(user, token: str, address: str) -> None:
    """The confirmation link (``SITE_URL``), in the member's language."""
    profile = profiles_of([user]).get(user.pk)
    context = {"user": user, "recipient_name": display(user, profile),
               "link": absolute(reverse("email-confirm", args=[token])),
               "hours": settings.EMAIL_CHANGE_MAX_AGE // 3600}
    with recipient_locale(profile):
        subject = " ".join(render_to_string("registration/email_change_subject.txt",
                                            context).split())
        body = render_to_string("registration/email_change_email.txt", context)
    queue_mail(subject, body, address)  # the outbox sends it after commit (campaigns.mail)


@require_http_methods(["GET", "POST"])
def email_confirm(request, token: str):
    """GET shows what changes; POST (the button) applies it. The signed token is the proof:
    the link works in any browser, logged in or not."""
    try:
        change = email_change_read(token)
    except DomainError as exc:
        return render(request, "registration/email_confirm.html", {"error": exc.message},
                      status=400)
    if request.method == "POST":
        if throttled(request):
            return _too_many(request)
        try:
            email_change_confirm(token=token)
        except DomainError as exc:
            return render(request, "registration/email_confirm.html", {"error": exc.message},
                          status=400)
        messages.success(request, _("Your e-mail address is now %(email)s.")
                         % {"email": change["new"]})
        return redirect("profile" if request.user.is_authenticated else "login")
    return render(request, "registration/email_confirm.html",
                  {"new_email": change["new"], "account": change["user"].username})


@login_required
@require_POST
def token_rotate_page(request):
    if throttled(request):
        return _too_many(request)
    if _locked(request):
        return render(request, LOCKED, status=429)
    form = TokenRotateForm(request.POST)
    if _password_refused(request, form):
        return _profile_page(request, token_form=form, status=400)
    token = token_rotate(user=request.user)
    request.session["new_token"] = token.key  # shown once on the next page
    messages.success(request, _("A new API token was made; the old one no longer works."))
    return redirect(reverse("profile") + "#api-token")


@login_required
@require_http_methods(["GET"])
def data_download(request):
    body = json.dumps(personal_data(request.user), indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="feldzug-personal-data.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def account_delete_page(request):
    form = PasswordConfirmForm(request.POST or None)
    if request.method == "POST":
        if throttled(request):
            return _too_many(request)
        if _locked(request):
            return render(request, LOCKED, status=429)
        if form.is_valid() and _password_ok(request, form.cleaned_data["password"]):
            try:
                account_delete(user=request.user)
            except DomainError as exc:  # e.g. the only admin of a campaign
                form.add_error(None, exc.message)
                return render(request, "registration/account_delete.html", {"form": form},
                              status=exc.status)
            logout(request)
            messages.success(request, _("Your account was deleted. Your seats stay in their "
                                        "campaigns as “former member”."))
            return redirect("campaigns:index")
        if form.is_valid():
            form.add_error("password", _("Your password was entered incorrectly."))
        return render(request, "registration/account_delete.html", {"form": form}, status=400)
    return render(request, "registration/account_delete.html", {"form": form})



@require_POST
def language_switch(request):
    """The top bar's language switcher (Django's ``set_language``); a logged-in member's choice
    is kept in their profile too, so it comes back at the next login."""
    response = i18n_views.set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and translation.check_for_language(language):
        # a language the profile does not offer: the cookie still switches
        with contextlib.suppress(DomainError):
            profile_update(user=request.user, language=language)
    return response
