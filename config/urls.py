from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.health import healthz
from web.forms.auth import AdminLoginForm
from web.views import accounts

admin.site.login_form = AdminLoginForm  # usernames too long for django-axes: a form error

urlpatterns = [
    # the API first: Django tries patterns in order, and the pages' are many
    path("api/v1/", include("api.urls")),
    path("", include("web.urls")),  # the pages; "/" lists the campaigns
    path("healthz", healthz, name="healthz"),
    # browsers that ignore the icon links ask for /favicon.ico: the PNG (static/icons)
    path("favicon.ico", lambda request: HttpResponsePermanentRedirect(
        static("icons/favicon-32.png"))),
    path("accounts/", include("web.account_urls")),  # log in, sign up, profile
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/setlang/", accounts.language_switch, name="set_language"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]
