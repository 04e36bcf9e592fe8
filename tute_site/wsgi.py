"""WSGI entry point: `gunicorn tute_site.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

from tute_site.startup import freeze_startup_objects

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")

application = get_wsgi_application()
freeze_startup_objects(load_urls=True)
