"""Fixtures shared by the whole suite."""

import os
from collections.abc import Iterator

import pytest
from django.db import connection

from tests.services import require_service

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


#: Fixtures that bring up a real server-side process (a Celery worker on Redis, a live web server for a
#: browser): a test that asks for one is marked ``slow`` (``make pytest-quick`` leaves those out).
SLOW_FIXTURES = frozenset({"redis_url", "live_server"})


#: The files that take longest, longest first (their summed test durations in a ``make test`` run,
#: 2026-12-07: 235, 228, 188, 173, 160 and 108 s): started first, so that a process is not left running
#: one of them alone at the end. The Makefile passes ``--no-loadscope-reorder``: without it pytest-xdist
#: hands out the files with the most tests first, whatever this order says.
LONGEST_FIRST = (
    "tests/web/test_browser.py",
    "tests/test_schemathesis.py",
    "tests/tournaments/test_workers.py",
    "tests/web/test_browser_people.py",
    "tests/games/bots/test_legality.py",
    "tests/web/test_demo_data.py",
)


@pytest.hookimpl(trylast=True)  # after pytest-django's ordering, which it keeps within each file
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` what waits on real processes: whatever asks for SLOW_FIXTURES (modules that start
    processes of their own say so with ``pytestmark``). Then run the files with slow tests first,
    LONGEST_FIRST at the head (pytest-xdist hands out a file at a time in this order): the long files
    overlap each other and the short ones fill in at the end."""
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def rank(path: str) -> tuple[int, int]:
        if path in LONGEST_FIRST:
            return (0, LONGEST_FIRST.index(path))
        return (1 if any(i.get_closest_marker("slow") for i in files[path]) else 2, 0)

    items[:] = [item for path in sorted(files, key=rank) for item in files[path]]


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """On SQLite the test database is a file, as the embedded default is, not Django's in-memory one.

    With an in-memory database every thread of ``live_server`` shares the test's one connection, so
    concurrent requests (bots streaming events while they act) interleave their transactions on it. A
    file gives each thread its own connection, with the settings' WAL and write-lock timeout.
    """
    from django.conf import settings

    for db in settings.DATABASES.values():
        test = db.setdefault("TEST", {})
        if db["ENGINE"] == "django.db.backends.sqlite3" and not test.get("NAME"):
            test["NAME"] = str(tmp_path_factory.mktemp("sqlite") / "test.sqlite3")


@pytest.fixture
def postgres_required() -> None:
    """For tests whose point is PostgreSQL's behaviour (row locks, concurrency): skip on SQLite."""
    require_service(
        "PostgreSQL",
        connection.vendor == "postgresql",
        f"the default database is {connection.vendor}; set DATABASE_URL=postgres://... to run this test",
    )


@pytest.fixture
def redis_url() -> str:
    """A Redis URL that answers PING: TUTE_TEST_REDIS_URL, else the local default.

    Not CELERY_BROKER_URL: pytest sets that to ``memory://`` (pyproject.toml), so that nothing a test
    queues reaches the developer's broker.
    """
    import redis

    url = os.environ.get("TUTE_TEST_REDIS_URL") or DEFAULT_REDIS_URL
    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    try:
        reachable, reason = bool(client.ping()), ""
    except redis.RedisError as exc:
        reachable, reason = False, f"{url}: {exc}"
    finally:
        client.close()
    require_service("Redis", reachable, reason)
    return url


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hasher() -> Iterator[None]:
    """Passwords hashed with MD5 in tests, as Django's testing docs advise: the production hasher costs
    about 0.3 s of CPU a hash by design, and sign-ups, sign-ins and the demo content hash hundreds. What
    a hasher stores is Django's to test; the tests check who may sign in, which any hasher decides."""
    from django.test import override_settings

    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    fast.enable()
    yield
    fast.disable()


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Every test starts in the default language: one that activated Spanish (a page asked for in
    Spanish, a translated message) must not leave the next test in this process speaking it."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _cache_in_use() -> Iterator[None]:
    """Every test starts with the cache in use: a test that made it fail (tute_site.caching skips it for
    a few seconds after a failure) must not leave the next test without it."""
    from tute_site import caching

    caching._skip_until = 0.0
    yield
    caching._skip_until = 0.0
