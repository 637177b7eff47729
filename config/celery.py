"""The Celery app: Redis broker and results via REDIS_URL; eager in-process without it."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("feldzug")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
