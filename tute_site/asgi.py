"""ASGI entry point, for the long-lived streams that must not hold a sync worker (docs/DEPLOY.md)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")

application = get_asgi_application()
