"""Settings for bench/api.py only: the production settings with the bench's URLs and no throttling limit.

``bench/api.py`` sets DJANGO_SETTINGS_MODULE=bench.bench_settings, DATABASE_URL (its own PostgreSQL
database) and a throwaway DJANGO_SECRET_KEY for the processes it starts. Everything else is what
production runs: DEBUG off, the same middleware, authentication and throttle classes (their counters
still cost what they cost; only the limits are out of reach).
"""

from tute_site.settings import *  # noqa: F403
from tute_site.settings import REST_FRAMEWORK as _SITE_REST_FRAMEWORK

DEBUG = False
ROOT_URLCONF = "bench.bench_urls"
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
# The bench speaks plain HTTP to gunicorn on loopback, with no TLS-terminating proxy in front.
SECURE_SSL_REDIRECT = False
SECURE_PROXY_SSL_HEADER = None

REST_FRAMEWORK = {
    **_SITE_REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {"user": "10000000/min", "address": "10000000/min"},
}
