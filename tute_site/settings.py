"""Django settings for Tute Arena, read from the environment.

Every knob is an environment variable (README.md, "Configuration", lists them all). With none set the
service runs on embedded defaults meant for one machine: a SQLite file and a SQLite-backed Celery broker.
DEBUG is off unless DJANGO_DEBUG says otherwise, and with DEBUG off a real DJANGO_SECRET_KEY is required
and the HTTPS hardening below is on.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean: 1/true/yes/on or 0/false/no/off (any case); unset means `default`."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean; use 1/true/yes/on or 0/false/no/off.")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list; unset means `default`, empty means []."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


# --- core -----------------------------------------------------------------------------------------------

DEBUG = os.environ.get("DJANGO_DEBUG", "").strip().lower() in {"1", "true"}

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is required when DEBUG is off. Set it to a long random string, e.g. "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`, or set DJANGO_DEBUG=1 "
            "for local development."
        )
    SECRET_KEY = "django-insecure-dev-only-key-never-use-in-production"  # only ever with DEBUG on

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# Where the embedded defaults keep their files: the SQLite database and the filesystem broker's folders.
DATA_DIR = Path(os.environ.get("TUTE_DATA_DIR") or BASE_DIR)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc served from our own static files, no CDN
    "axes",
    "csp",
    "games",
    "tournaments",
    "ratings",
    "ladder",
    "lobby",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "tute_site.middleware.chunked_body_refusal",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.presence.presence",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into its 429 answer.
    "axes.middleware.AxesMiddleware",
]

# --- sign-in throttling (django-axes) and the Content-Security-Policy (django-csp) ------------------------

# Failed sign-ins (the website's /login/ and /admin/login/) are counted per account and per client address,
# in the database (shared by every process); past the limit that account, or that address, is refused
# with 429 for the cool-off time, before any password is hashed. A success resets the account's count.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("TUTE_LOGIN_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("TUTE_LOGIN_COOLOFF_MINUTES", 15))
# Locked per account (from anywhere, and so from one address) and per address (one address trying many
# accounts). A success clears only its own account's failures (web/receivers.py): axes' own reset on
# success deletes everything its lockout parameters match, the address's failures at other accounts too,
# so signing into one's own account every few guesses kept a victim's count from ever reaching the limit.
AXES_LOCKOUT_PARAMETERS = ["username", ["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = False
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Behind a reverse proxy: how many proxies append to X-Forwarded-For (0: the connection's own address).
TUTE_PROXY_COUNT = env_int("TUTE_PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "tute_site.api.client_address"

# Everything the site loads comes from itself: no inline script or style, no CDN, no framing. The API
# docs pages relax style-src only (tute_site/urls.py): Swagger UI's and Redoc's own inline styles.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

ROOT_URLCONF = "tute_site.urls"
WSGI_APPLICATION = "tute_site.wsgi.application"
ASGI_APPLICATION = "tute_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# --- database -------------------------------------------------------------------------------------------

DATABASES: dict[str, dict[str, Any]] = {
    "default": dict(
        dj_database_url.config(
            default=f"sqlite:///{DATA_DIR / 'db.sqlite3'}",
            conn_max_age=env_int("DJANGO_DB_CONN_MAX_AGE", 60),
            conn_health_checks=True,
        )
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # One machine only. The web process and a worker share the file: WAL lets readers go on while one
    # writes, IMMEDIATE takes the write lock when a transaction starts (no upgrade deadlocks), and a
    # writer waits up to 20 s for the lock instead of failing at once.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20, "init_command": "PRAGMA journal_mode=WAL;"}
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DJANGO_DB_PREPARED_STATEMENTS", True
):
    # Server-side parameters, and a statement run 5 times on a connection is prepared: PostgreSQL then
    # skips parsing and planning, which for the hot path's joins cost more than executing them. Turn
    # this off behind a pooler in transaction mode that cannot keep prepared statements (PgBouncer
    # before 1.21, or without max_prepared_statements).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": 5}
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- i18n -----------------------------------------------------------------------------------------------

# E-mail (password resets): SMTP when EMAIL_HOST is set, else the console (make run prints the mail).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Tute Arena <noreply@localhost>")

LANGUAGE_CODE = "en-us"
# The website speaks English and Spanish (LocaleMiddleware picks one; the switcher sets it).
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "web" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "web:home"

# --- static files (served by WhiteNoise) ----------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # The manifest storage needs `collectstatic` first; DEBUG serves from the apps' folders instead.
        "BACKEND": (
            "whitenoise.storage.CompressedStaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        ),
    },
}

# --- REST framework -------------------------------------------------------------------------------------

# API bodies are small JSON objects; anything bigger is refused with 413 before it is parsed.
API_MAX_BODY_BYTES = env_int("TUTE_API_MAX_BODY_BYTES", 16 * 1024)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    ],
    "DEFAULT_PARSER_CLASSES": ["tute_site.api.JSONParser"],
    # ``?format=`` is a filter (the tournaments list's), never a renderer override; only the schema view
    # reads it as one (tute_site/schema.py).
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_PAGINATION_CLASS": "tute_site.api.Pagination",
    "PAGE_SIZE": 20,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "tute_site.exceptions.exception_handler",
    # Per token (authenticated user) and per client address; 429 with Retry-After past the limit.
    "DEFAULT_THROTTLE_CLASSES": ["tute_site.api.AccountAndAddressThrottle"],
    # The client's address: the connection's, or the one TUTE_PROXY_COUNT proxies put in X-Forwarded-For
    # (never a header the client could have written itself).
    "NUM_PROXIES": TUTE_PROXY_COUNT,
    "DEFAULT_THROTTLE_RATES": {
        "user": os.environ.get("TUTE_THROTTLE_USER", "1200/min"),
        "address": os.environ.get("TUTE_THROTTLE_ADDRESS", "3000/min"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Tute Arena API",
    "DESCRIPTION": "Matches of Tute 2, Tute 4 and Pocha for people, apps and bots. Errors are always "
    '{"code", "message", "detail"}.',
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc from this site's static files (drf-spectacular-sidecar), never from a CDN.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tute_site.schema.error_responses",
        "tute_site.schema.text_without_nul",
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Choice sets shared by several fields get one name each (tournaments reuse the games' ones).
    "ENUM_NAME_OVERRIDES": {
        "MatchFormatEnum": "games.models.Match.Format",
        "TournamentFormatEnum": "tournaments.models.Tournament.Format",
        "HouseBotLevelEnum": "games.bots.BOT_LEVELS",
        "GameEnum": "games.models.Match.GameName",
    },
}

# Throttle counters live in the cache: locmem for one process; CACHE_URL (redis://...) shares them
# between web processes and nodes.
CACHE_URL = os.environ.get("CACHE_URL", "")
# How long an API token's row may be answered from the cache (0: never cache). Deleting a token or
# saving its account drops it at once; with the per-process cache, other processes may lag this long.
TUTE_TOKEN_CACHE_SECONDS = env_int("TUTE_TOKEN_CACHE_SECONDS", 10)

CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            # A Redis that is down must fail a request's cache call fast: the API then goes on without
            # the cache (tute_site.caching) instead of waiting on a socket.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Open streams (the bots' event stream, the match page's live feed) per account, per client address and
# per web process (0: no cap). Past the first two: 429 too_many_streams; past the third: 503
# streams_busy. Keep the per-process cap below the process's request threads (gunicorn's --threads), so
# requests always find a thread. With CACHE_URL the account and address caps hold across processes.
TUTE_STREAMS_PER_ACCOUNT = env_int("TUTE_STREAMS_PER_ACCOUNT", 3)
TUTE_STREAMS_PER_ADDRESS = env_int("TUTE_STREAMS_PER_ADDRESS", 10)
TUTE_STREAMS_PER_PROCESS = env_int("TUTE_STREAMS_PER_PROCESS", 8)

# --- Celery ---------------------------------------------------------------------------------------------

# The default broker needs no server: kombu's SQLAlchemy transport on a SQLite file of its own
# (tute_site.broker: WAL, a busy timeout, a short polling interval). It is for one machine only; any
# deployment with a second node uses Redis. Why not the filesystem transport: docs/DEPLOY.md.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or ""
if not CELERY_BROKER_URL:
    from tute_site.broker import sqlite_broker_url

    CELERY_BROKER_URL = sqlite_broker_url(DATA_DIR / "var" / "celery" / "broker.sqlite3")
if CELERY_BROKER_URL.startswith("sqlite://"):
    CELERY_BROKER_TRANSPORT = "tute_site.broker:Transport"
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # A Redis restart must not stop the workers (issue 14): they reconnect for as long as it takes, and
    # a task a worker was running when the connection dropped finishes and is acknowledged, not cancelled
    # and run again. A message delivered and not acknowledged (its worker died) comes back after the
    # visibility timeout, longer than any task runs. Sockets are checked and re-opened when stale.
    CELERY_BROKER_CONNECTION_RETRY = True
    CELERY_BROKER_CONNECTION_MAX_RETRIES = None
    CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
    # A task queued while Redis is away (the house bot's next turn, queued on commit) is retried for
    # about 10 s instead of 0.6 s, so a restart does not leave the turn to the sweeper; a longer outage
    # still does (turn deadlines, TUTE_SWEEP_SECONDS).
    CELERY_TASK_PUBLISH_RETRY_POLICY = {
        "max_retries": env_int("TUTE_BROKER_PUBLISH_RETRIES", 12),
        "interval_start": 0,
        "interval_step": 0.5,
        "interval_max": 1,
    }
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env_int("TUTE_BROKER_VISIBILITY_TIMEOUT", 3600),
        "retry_on_timeout": True,
        "health_check_interval": 10,
        "socket_keepalive": True,
    }
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
# Matches an account may have open or in play that it created itself (API and website; tournaments'
# and the ladder's do not count); the next gets 429 too_many_open_matches. 0: no cap.
TUTE_MAX_OPEN_MATCHES = env_int("TUTE_MAX_OPEN_MATCHES", 20)
# People playing people (docs/API.md, "Tables, seeks and challenges"). An open table nobody completes is
# called off after TUTE_TABLE_EXPIRE_SECONDS, a challenge nobody answers after TUTE_CHALLENGE_EXPIRE_SECONDS.
TUTE_TABLE_EXPIRE_SECONDS = env_int("TUTE_TABLE_EXPIRE_SECONDS", 1800)
TUTE_CHALLENGE_EXPIRE_SECONDS = env_int("TUTE_CHALLENGE_EXPIRE_SECONDS", 600)
# After a person declines someone's challenge, that someone waits this long to challenge them again (429).
TUTE_CHALLENGE_COOLDOWN_SECONDS = env_int("TUTE_CHALLENGE_COOLDOWN_SECONDS", 900)
# A person unseen this long (no page, poll or stream) is "away" at their table; at a table not yet started
# their seat is given up. Online: seen within TUTE_ONLINE_SECONDS.
TUTE_AWAY_SECONDS = env_int("TUTE_AWAY_SECONDS", 45)
TUTE_ONLINE_SECONDS = env_int("TUTE_ONLINE_SECONDS", 300)
# Quick pairing: seeks whose person has not polled or streamed for TUTE_SEEK_IDLE_SECONDS end; two seeks
# pair when their ratings differ by at most TUTE_SEEK_RATING_WINDOW, widened by TUTE_SEEK_WINDOW_GROWTH
# points a second of waiting.
TUTE_SEEK_IDLE_SECONDS = env_int("TUTE_SEEK_IDLE_SECONDS", 30)
TUTE_SEEK_RATING_WINDOW = env_int("TUTE_SEEK_RATING_WINDOW", 100)
TUTE_SEEK_WINDOW_GROWTH = float(os.environ.get("TUTE_SEEK_WINDOW_GROWTH", "10"))
TUTE_PAIR_SECONDS = float(os.environ.get("TUTE_PAIR_SECONDS", "2"))
# House-bot turns of matches where nobody (no person, no bot account) sits go on a queue of their own,
# which every worker reads in turn with the default one (kombu takes from each queue in rotation): a flood
# of bot-only matches never starves a match with players.
TUTE_BOT_ONLY_QUEUE = os.environ.get("TUTE_BOT_ONLY_QUEUE", "bots")
# Slow CPU-bound work that nobody waits for (a finished game's luck figure: its deal played again by the
# house bots) goes on a queue of its own, so the tasks players and bots wait for (house-bot turns, the
# clocks' sweeper, the ladder's matchmaker) never queue behind a burst of it. A worker without -Q reads
# it in turn with the others; a deployment can give it a worker of its own (docs/DEPLOY.md).
TUTE_BACKGROUND_QUEUE = os.environ.get("TUTE_BACKGROUND_QUEUE", "background")
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = [Queue("celery"), Queue(TUTE_BOT_ONLY_QUEUE), Queue(TUTE_BACKGROUND_QUEUE)]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A stopped worker waits this long for its running tasks, then stops them and gives their messages back
# to the broker (Celery's soft shutdown). 0, the default, waits for them to finish (a deploy's SIGTERM);
# `make run` sets 3 so that one Ctrl-C stops everything within seconds.
CELERY_WORKER_SOFT_SHUTDOWN_TIMEOUT = float(os.environ.get("TUTE_WORKER_SOFT_SHUTDOWN_SECONDS", "0"))
CELERY_TIMEZONE = TIME_ZONE
# Celery's Django fix-up closes the DB connection around every task unless told to reuse it: a new
# PostgreSQL connection per bot turn cost ~7 ms a reply (docs/PERFORMANCE.md, issue 4). A reused one
# that broke is closed around each task by tute_site.celery, as Django does around each request.
CELERY_DB_REUSE_MAX = env_int("TUTE_CELERY_DB_REUSE_MAX", 1000)
# Long countdowns are never left on the broker (Redis redelivers them after its visibility timeout):
# turn clocks are deadlines in the database, and this sweeper finds the overdue ones.
TUTE_SWEEP_SECONDS = float(os.environ.get("TUTE_SWEEP_SECONDS", "5"))
TUTE_TOURNAMENT_SWEEP_SECONDS = float(os.environ.get("TUTE_TOURNAMENT_SWEEP_SECONDS", "30"))
CELERY_BEAT_SCHEDULE = {
    # Quick pairing (lobby.pair_seeks): also queued at once by each new seek.
    "pair-seeks": {
        "task": "lobby.pair_seeks",
        "schedule": TUTE_PAIR_SECONDS,
        "options": {"expires": TUTE_PAIR_SECONDS * 2},
    },
    # Calls off expired open tables and challenges, frees the seats of people gone from unstarted tables.
    "sweep-open-tables": {
        "task": "games.sweep_open_tables",
        "schedule": 15.0,
        "options": {"expires": 30.0},
    },
    "sweep-overdue-turns": {
        "task": "games.sweep_overdue_turns",
        "schedule": TUTE_SWEEP_SECONDS,
        "options": {"expires": TUTE_SWEEP_SECONDS * 2},
    },
    # Starts tournaments at their time, records results whose task was lost, generates due rounds.
    "sweep-tournaments": {
        "task": "tournaments.sweep",
        "schedule": TUTE_TOURNAMENT_SWEEP_SECONDS,
        "options": {"expires": TUTE_TOURNAMENT_SWEEP_SECONDS * 2},
    },
    # The bot ladder's matchmaker: starts validation matches and pairs the online ladder bots.
    "ladder-matchmaker": {
        "task": "ladder.tick",
        "schedule": float(os.environ.get("TUTE_LADDER_TICK_SECONDS", "10")),
        "options": {"expires": float(os.environ.get("TUTE_LADDER_TICK_SECONDS", "10")) * 2},
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "var" / "celerybeat-schedule")

# Event streams wake up on Redis pub/sub when there is a Redis; otherwise they poll the database.
TUTE_EVENTS_URL = os.environ.get("TUTE_EVENTS_URL") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else ""
)

# --- ratings (Elo per pool) -----------------------------------------------------------------------------

RATINGS_INITIAL = 1500.0
RATINGS_K_NEW = float(os.environ.get("TUTE_RATINGS_K_NEW", "40"))  # the first RATINGS_NEW_MATCHES
RATINGS_K = float(os.environ.get("TUTE_RATINGS_K", "20"))
RATINGS_K_MASTER = float(os.environ.get("TUTE_RATINGS_K_MASTER", "10"))  # from RATINGS_MASTER_RATING up
RATINGS_NEW_MATCHES = env_int("TUTE_RATINGS_NEW_MATCHES", 30)
RATINGS_MASTER_RATING = float(os.environ.get("TUTE_RATINGS_MASTER_RATING", "2400"))
RATINGS_PROVISIONAL_MATCHES = env_int("TUTE_RATINGS_PROVISIONAL_MATCHES", 10)

# --- the bot ladder (docs/BOTS.md, "The ladder") --------------------------------------------------------

# Clean validation matches in a row a bot needs per game before rated matches and the ladder (0: none).
TUTE_LADDER_VALIDATION_MATCHES = env_int("TUTE_LADDER_VALIDATION_MATCHES", 3)
# A bot is online while its stream is open or it polled within this many seconds.
TUTE_LADDER_ONLINE_SECONDS = env_int("TUTE_LADDER_ONLINE_SECONDS", 30)
TUTE_LADDER_MAX_CONCURRENT = env_int("TUTE_LADDER_MAX_CONCURRENT", 2)  # ladder matches at once, per bot
TUTE_LADDER_MAX_PER_DAY = env_int("TUTE_LADDER_MAX_PER_DAY", 500)  # ladder matches in 24 hours, per bot
TUTE_LADDER_OWNER_MAX_CONCURRENT = env_int("TUTE_LADDER_OWNER_MAX_CONCURRENT", 6)  # all of an owner's bots
TUTE_LADDER_OWNER_MAX_PER_DAY = env_int("TUTE_LADDER_OWNER_MAX_PER_DAY", 2000)
TUTE_LADDER_MOVE_SECONDS = env_int("TUTE_LADDER_MOVE_SECONDS", 15)  # a bot's time per move on the ladder
# Push bots: seconds an endpoint has to answer (at most the move's time less one); TUTE_PUSH_ALLOW_LOCAL
# also allows plain http to loopback addresses, for tests only: never set it in production.
TUTE_PUSH_TIMEOUT_SECONDS = env_int("TUTE_PUSH_TIMEOUT_SECONDS", 5)
TUTE_PUSH_ALLOW_LOCAL = env_bool("TUTE_PUSH_ALLOW_LOCAL", False)
TUTE_LADDER_TUTE4_PARTNER = os.environ.get("TUTE_LADDER_TUTE4_PARTNER", "rule")  # a bot's house partner

# --- security (on when DEBUG is off; each overridable) --------------------------------------------------

SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
# Load balancers probe the health check over plain HTTP from inside the network.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("DJANGO_CSRF_COOKIE_SECURE", not DEBUG)
# The TLS-terminating proxy tells Django the original scheme in this header. Set the variable to "" when
# Django faces clients directly, or to another header as HEADER_NAME=value.
_proxy_header = os.environ.get(
    "DJANGO_SECURE_PROXY_SSL_HEADER", "" if DEBUG else "HTTP_X_FORWARDED_PROTO=https"
).strip()
if _proxy_header:
    _name, _sep, _value = _proxy_header.partition("=")
    if not _sep or not _name.strip() or not _value.strip():
        raise ImproperlyConfigured(
            f"DJANGO_SECURE_PROXY_SSL_HEADER={_proxy_header!r} must look like HTTP_X_FORWARDED_PROTO=https."
        )
    SECURE_PROXY_SSL_HEADER: tuple[str, str] | None = (_name.strip(), _value.strip())
else:
    SECURE_PROXY_SSL_HEADER = None

# --- logging --------------------------------------------------------------------------------------------

LOG_LEVEL = os.environ.get("DJANGO_LOG_LEVEL", "INFO").upper()
# Celery's own line for each task (the worker's "received" and "succeeded", celery.worker.strategy and
# celery.app.trace) and for each send of beat's ("Sending due task", celery.beat). The periodic tasks run
# every few seconds and mostly find nothing to do: at INFO these were thousands of lines an hour saying
# that nothing happened. So these loggers say what went wrong (WARNING: failures, rejections) and the
# tasks log what they did; TUTE_LOG_TASK_LINES=1 brings Celery's lines back.
TASK_LINES_LEVEL = LOG_LEVEL if env_bool("TUTE_LOG_TASK_LINES", False) else "WARNING"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "console": {"format": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "console"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        "celery": {"level": LOG_LEVEL},  # the worker installs its own handlers; keep them
        "celery.worker.strategy": {"level": TASK_LINES_LEVEL},
        "celery.app.trace": {"level": TASK_LINES_LEVEL},
        "celery.beat": {"level": TASK_LINES_LEVEL},
    },
}
