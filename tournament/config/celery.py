"""The Celery app. With no CELERY_BROKER_URL the tasks run eagerly in the calling
process."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.config.settings")

app = Celery("fiftysix")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
