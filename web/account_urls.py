"""Addresses of the account pages, without a namespace as Django's
own (``login``, ``password_reset``...); they come before ``django.contrib.auth.urls``, whose
log-out and "done" pages stay as they are."""

from django.urls import path

from web.views import accounts, unsubscribe

urlpatterns = [
    path("login/", accounts.LoginView.as_view(), name="login"),
    path("signup/", accounts.signup, name="signup"),
    path("signup/confirm/<str:nonce>/", accounts.signup_confirm, name="signup-confirm"),
    path("password_change/", accounts.PasswordChangeView.as_view(), name="password_change"),
    path("password_reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path("reset/<uidb64>/<token>/", accounts.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("profile/", accounts.profile, name="profile"),
    path("profile/notifications/", accounts.notifications_save, name="profile-notifications"),
    path("profile/email/", accounts.email_change, name="email-change"),
    path("profile/token/", accounts.token_rotate_page, name="token-rotate"),
    path("profile/data.json", accounts.data_download, name="account-data"),
    path("profile/delete/", accounts.account_delete_page, name="account-delete"),
    path("email/confirm/<str:token>/", accounts.email_confirm, name="email-confirm"),
    path("unsubscribe/<str:token>/", unsubscribe.unsubscribe, name="unsubscribe"),
]
