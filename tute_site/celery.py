"""The Celery app. Workers start with `celery -A tute_site worker`.

Configuration comes from Django's settings, from the names that start with CELERY_ (CELERY_BROKER_URL,
CELERY_TASK_ACKS_LATE, ...). Tasks are found in each installed app's tasks.py.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")

app = Celery("tute_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
