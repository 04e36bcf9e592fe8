"""A request that meets a dead database connection gets a clean 503 with Retry-After, never a 500, and
the next request connects afresh (issue 30: sign-ups answered 500 after the backends were terminated)."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.db import connection
from django.test import Client

from tests.factories import PlayerFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_required")]


def _terminate_this_connection() -> None:
    """What `SELECT pg_terminate_backend(...)` by an operator (or a failover) does to a web thread."""
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid  # psycopg's own account of its server process
    params = connection.get_connection_params()
    with psycopg.connect(
        dbname=connection.settings_dict["NAME"],
        host=params.get("host"),
        port=params.get("port"),
        user=params.get("user"),
        autocommit=True,
    ) as admin:
        # The fault itself: PostgreSQL has no other way to end a session from outside.
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.fixture
def _static_without_manifest(settings: Any) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def _fresh_connection_after() -> Any:
    yield
    connection.close()  # a broken one must not reach the test's teardown (the flush)


@pytest.mark.usefixtures("_static_without_manifest", "_fresh_connection_after")
@pytest.mark.parametrize(
    ("path", "api"), [("/api/v1/ratings/tute2/leaderboard/", True), ("/leaderboards/tute2/", False)]
)
def test_a_request_on_a_terminated_connection_is_a_503_with_retry_after_then_the_next_one_works(
    path: str, api: bool
) -> None:
    PlayerFactory()
    browser = Client(raise_request_exception=False)
    _terminate_this_connection()

    # when: the request's first query meets the dead connection (the test client skips Django's
    # per-request health check, so this is the request that was under way when the backend died)
    lost = browser.get(path)

    # then: 503, Retry-After, and the API's error shape on an API path
    assert lost.status_code == 503 and lost["Retry-After"] == "2"
    if api:
        assert lost.json()["code"] == "database_unavailable"
    else:
        assert "Try again in a moment" in lost.content.decode()
    # and: once Django has dropped the broken connection (as it does after every request), all is well
    connection.close_if_unusable_or_obsolete()
    assert browser.get(path).status_code == 200
