"""Production settings: everything of config.settings, hardened. SECRET_KEY and ALLOWED_HOSTS
must come from the environment; passes `manage.py check --deploy --fail-level WARNING`."""

from config.settings import *  # noqa: F403
from config.settings import env, first_host

SECRET_KEY = env("SECRET_KEY")
# persistent database connections (a new PostgreSQL connection per request cost more
# than most pages' queries), checked before reuse so a restarted database costs one failed
# check, not one failed request. ``?conn_max_age=`` in DATABASE_URL wins; CONN_MAX_AGE=0 turns
# them off (e.g. behind a transaction-mode pgbouncer).
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))  # noqa: F405
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)  # noqa: F405
DEBUG = False
OPEN_SIGNUP = env.bool("OPEN_SIGNUP", default=False)  # by invitation unless set
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
SITE_HOST = env("SITE_HOST", default="").strip().lower() or first_host(ALLOWED_HOSTS)

SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
WHITENOISE_USE_FINDERS = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
