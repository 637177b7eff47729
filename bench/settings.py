"""Settings of the gunicorn process that ``bench/league.py`` starts: production's
settings (``config.production``: the same DATABASES, so its persistent connections and health
checks), DEBUG off, plain HTTP on 127.0.0.1, static files without collectstatic's manifest,
and a URLconf that adds the benchmark's floor views. ``bench/league_http.py`` sets the
environment production requires (SECRET_KEY, ALLOWED_HOSTS). Used only by the benchmark."""

from config.production import *  # noqa: F403
from config.production import REST_FRAMEWORK, STORAGES

DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
SECURE_SSL_REDIRECT = False  # the load generator speaks plain HTTP to gunicorn
STORAGES = {**STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
WHITENOISE_USE_FINDERS = True
ROOT_URLCONF = "bench.league_urls"
# the load generator is one user asking thousands of times: no throttling in the benchmark
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
    key: "10000000/min" for key in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}}
