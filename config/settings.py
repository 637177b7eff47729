"""Settings from the environment (django-environ). Defaults are the embedded set-up:
SQLite, console e-mail, Celery tasks run eagerly in-process (no REDIS_URL)."""

from pathlib import Path

import environ

from config.cache import local_caches, redis_caches

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env")

SECRET_KEY = env("SECRET_KEY", default="dev-only-insecure-key-change-me")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])


def first_host(hosts) -> str:
    """The first usable entry of ``ALLOWED_HOSTS`` (a leading "." dropped, "*" skipped), or
    "localhost"."""
    for host in hosts:
        host = host.strip().lstrip(".").lower()
        if host and host != "*":
            return host
    return "localhost"


# The site's public host name, configured rather than taken from each request so that calendar
# UIDs (battle-<id>@<SITE_HOST>, R-BAT-2) stay the same however a client connects.
SITE_HOST = env("SITE_HOST", default="").strip().lower() or first_host(ALLOWED_HOSTS)
# The site's address for absolute links (mail, invitations, feeds, webhooks). Unset (""):
# the address staff use, learned and editable on the site settings page; read it only through
# ``campaigns.site.site_url()``.
SITE_URL = env("SITE_URL", default="").strip().rstrip("/")
# Webhooks refuse private, loopback and link-local addresses unless this is set or the switch
# on the site settings page allows them (``campaigns.site.webhooks_allow_private()``).
WEBHOOKS_ALLOW_PRIVATE = env.bool("WEBHOOKS_ALLOW_PRIVATE", default=False)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from here, not from a CDN (CSP)
    "django_celery_beat",
    "django_htmx",
    "axes",
    "campaigns",
    "fleets",
    "battles",
    "league",
    "web",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # pages and API gzip-compressed (web/compression.py). Before every middleware
    # that reads or writes the body, as Django's docs ask; inside WhiteNoise, which serves
    # static files compressed already. CSRF tokens are masked per request (BREACH).
    "web.compression.ResponseGZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "web.middleware.LearnSiteAddress",  # the site's address from staff's requests
    "web.middleware.ActivateTimeZone",  # pages: the viewer's time zone
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.faults.FaultResponses",  # database down: 503; /api/ body too large: JSON 413
    "web.middleware.RefuseForbiddenCharacters",  # pages: NUL in a POST is a 400
    "api.errors.NotFoundAsJSON",  # inner: the headers above apply, APPEND_SLASH still redirects
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses logins while locked out
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The clock of `make run` writes from its own thread beside the requests: each transaction
    # takes SQLite's write lock when it begins and waits for it up to 20 s, so two writers
    # queue instead of one failing with "database is locked" (R-RND-2, league/clock.py).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"})
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # PostgreSQL searches every join order of up to join_collapse_limit (8) tables;
    # a battle read with its players, tile and round joins 12 and took 7-11 ms to plan (under
    # 1 ms to run). Searching groups of 4 plans it in about 1.3 ms: the ORM writes the joins
    # from the filtered table outwards, along foreign keys, an order that needs no search.
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options["options"] = f"-c join_collapse_limit=4 {options.get('options', '')}".strip()
# an attack declaration's statements are planned once per connection
# (campaigns/prepared.py); turn off behind a connection pooler in transaction mode
PREPARED_STATEMENTS = env.bool("PREPARED_STATEMENTS", default=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"

# Brute-force lockout (django-axes): an account from one address is locked after repeated
# failures, on the login page and the token endpoint; admins unlock under Admin > Axes.
# An address with AXES_ADDRESS_FAILURE_LIMIT failures (any usernames) is refused before any
# password is hashed (config/lockout.py); 0 turns that off.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_ADDRESS_FAILURE_LIMIT = env.int("AXES_ADDRESS_FAILURE_LIMIT", default=20)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=1.0)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_IPWARE_PROXY_COUNT = env.int("PROXY_COUNT", default=0)
# Lockouts and sessions live in the database: a login never depends on Redis.
AXES_HANDLER = "config.lockout.AccountAndAddressHandler"  # the database one, + per address
SESSION_ENGINE = "django.contrib.sessions.backends.db"
LOGIN_REDIRECT_URL = "/"
# Open sign-up (/accounts/signup/): on with DEBUG (`make run`), off by default otherwise. While
# closed, only a visitor whose ``next`` is an invitation link (/invite/<token>/) may sign up; the
# invitation page checks the token (web.views.accounts.signup).
OPEN_SIGNUP = env.bool("OPEN_SIGNUP", default=DEBUG)
SIGNUP_INVITATION_PREFIX = "/invite/"
# E-mail change links (campaigns.services.accounts) stay valid this long.
EMAIL_CHANGE_MAX_AGE = env.int("EMAIL_CHANGE_MAX_AGE_SECONDS", default=3 * 24 * 3600)
LOGOUT_REDIRECT_URL = "/"

# Security headers in every environment, so tests see them (HSTS and secure cookies:
# config/production.py). The pages load scripts and styles from /static/ only: no inline
# <script>, event handler or style attribute (config/security.py; tests/api/test_headers.py).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'self'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
}
# drf-spectacular's Swagger UI page starts itself with inline code; DRF's browsable API pages
# style a few elements inline (config/security.py). Their scripts stay strict.
CONTENT_SECURITY_POLICY_RELAXED = {
    "/api/docs/": {"script-src": "'self' 'unsafe-inline'", "style-src": "'self' 'unsafe-inline'"},
    "/api/v1/": {"style-src": "'self' 'unsafe-inline'"},
}

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# new campaigns' time zone (members and visitors without their own see this one).
CAMPAIGN_TIME_ZONE = env("CAMPAIGN_TIME_ZONE", default="UTC")

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = True  # serve without collectstatic on the embedded set-up

vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="feldzug@localhost")
# Seconds one SMTP connection may wait for the mail server: a server that never answers fails
# the attempt, and the outbox retries later (campaigns.services.outbox).
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)

# --- Celery (ARCHITECTURE.md "Background jobs") ---
REDIS_URL = env("REDIS_URL", default="")
# Throttle counters live in the cache: shared through Redis when there is one, with short
# socket timeouts and this process's memory while Redis is down (config/cache.py). Sessions
# and the login lockout (django-axes) live in the database, never in the cache.
# Values kept under a campaign's revision live in the alias "local".
CACHES = redis_caches(REDIS_URL) if REDIS_URL else local_caches()
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
# Nobody reads a task's result: with results ignored, ``delay`` never subscribes to one, so
# enqueueing touches only the broker (a task that is read, like ``campaigns.ping``, says so).
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_VISIBILITY_TIMEOUT = 3600
# A request that enqueues after commit must not hang on a broker that is down: connecting
# fails within ~2 s, publishing is retried once, and the caller logs the failure (the periodic
# job finds the round's work later).
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_BROKER_VISIBILITY_TIMEOUT,
                                   "socket_connect_timeout": 2, "socket_timeout": 2,
                                   "max_retries": 1}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0,
                                    "interval_step": 0.5, "interval_max": 0.5}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 2
# The result backend gives up after one quick retry (its default is 20, a second apart).
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_BROKER_VISIBILITY_TIMEOUT,
    "retry_policy": {"max_retries": 1, "interval_start": 0, "interval_step": 0.5,
                     "interval_max": 0.5, "timeout": 1}}
# Hard limit below the visibility timeout, so a stuck task dies before Redis redelivers it.
CELERY_TASK_TIME_LIMIT = 1800
CELERY_TASK_SOFT_TIME_LIMIT = 1500
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Mail and webhook deliveries wait on other servers: they run on their own queue, so they
# never take a round job's place (a worker runs `-Q celery,outbox`; README "Running on
# PostgreSQL and Redis"), each with a short time limit of its own (campaigns.tasks).
CELERY_TASK_ROUTES = {name: {"queue": "outbox"} for name in (
    "campaigns.send_outbox_mail", "campaigns.send_mail", "campaigns.deliver_webhooks",
    "battles.send_notifications")}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BEAT_SCHEDULE = {
    "advance-due-rounds": {"task": "campaigns.advance_due_rounds", "schedule": 60.0},
}
CELERY_TIMEZONE = TIME_ZONE
# The round machine (R-RND-2, league.services.rounds): an admin advance without an expected
# phase this soon after the campaign's previous one is refused; an automatic phase whose job
# has not finished after ROUND_STUCK_AFTER_SECONDS is run again by the periodic job; a round's
# task is retried ROUND_JOB_MAX_RETRIES times with exponential backoff, then the round "needs
# attention" and the periodic job tries it again every ROUND_ATTENTION_RETRY_SECONDS.
ROUND_ADVANCE_MIN_SECONDS = env.int("ROUND_ADVANCE_MIN_SECONDS", default=10)
ROUND_STUCK_AFTER_SECONDS = env.int("ROUND_STUCK_AFTER_SECONDS", default=300)
ROUND_JOB_MAX_RETRIES = env.int("ROUND_JOB_MAX_RETRIES", default=5)
ROUND_ATTENTION_RETRY_SECONDS = env.int("ROUND_ATTENTION_RETRY_SECONDS", default=900)
# The periodic job's clock (R-RND-2, league/clock.py): without a broker, `manage.py serve`
# (`make run`) runs it in its own process every CLOCK_SECONDS; with one, celery beat does.
# Every tick leaves a heartbeat (campaigns.ClockBeat); none for CLOCK_LATE_SECONDS and the
# organiser's pages and /healthz say the clock is late.
IN_PROCESS_CLOCK = env.bool("IN_PROCESS_CLOCK", default=not REDIS_URL)
CLOCK_SECONDS = env.float("CLOCK_SECONDS", default=60.0)
CLOCK_LATE_SECONDS = env.int("CLOCK_LATE_SECONDS", default=180)

# --- REST framework ---
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # DRF's, applying the user's profile language (api/authentication.py)
        "api.authentication.TokenAuthentication",
        "api.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON only (generated clients); an upload view adds SafeMultiPartParser itself.
    # Any other body is a 415 in the error shape. Each parser refuses NUL.
    "DEFAULT_PARSER_CLASSES": ["api.parsers.SafeJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.AnonRateThrottle",
                                 "api.throttling.UserRateThrottle",  # reads: no Redis trip
                                 "rest_framework.throttling.ScopedRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env("THROTTLE_ANON", default="120/min"),
        "user": env("THROTTLE_USER", default="600/min"),
        "token": env("THROTTLE_TOKEN", default="10/min"),
        "odds": env("THROTTLE_ODDS", default="10/min"),
        "invitations": env("THROTTLE_INVITATIONS", default="30/min"),
        "account": env("THROTTLE_ACCOUNT", default="10/min"),
    },
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer",
                                 "rest_framework.renderers.BrowsableAPIRenderer"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Feldzug API",
    "DESCRIPTION": "Club league map campaigns: map, rounds, battles, fleets (shared/API.md). "
                   "Texts (an error's `detail`, labels) are in the language of "
                   "`Accept-Language`, else the caller's profile language, else the campaign's "
                   "`language`, else the site's.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",  # from drf-spectacular-sidecar: no outside host (CSP)
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "api.schema.document_bad_credentials",
                             "api.schema.nullable_objects",  # strict OpenAPI 3.0
                             "api.schema.document_unsupported_media_type"],
    "ENUM_NAME_OVERRIDES": {
        "AreaKindEnum": "fleets.models.Area.Kind",
        "FleetKindEnum": "fleets.models.Fleet.Kind",
        "BattleStatusEnum": "battles.models.Battle.Status",
        "AttackStatusEnum": "campaigns.models.Attack.Status",
        "CampaignStatusEnum": "campaigns.models.Campaign.Status",
        "PhaseEnum": "campaigns.models.Round.Phase",
        "ResultStatusEnum": ["reported", "confirmed", "disputed"],
        "ChainDecisionEnum": ["roll", "waive"],  # R-CON-6
        "InvitationKindEnum": "campaigns.models.Invitation.Kind",
        "WebhookKindEnum": "campaigns.models.Webhook.Kind",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"axes": {"level": "WARNING"}},  # failed logins are still logged as warnings
}
