"""The Django project: settings, URLs, the Celery app and the one error root."""

from tute_site.celery import app as celery_app

__all__ = ["celery_app"]
