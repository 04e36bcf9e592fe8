"""Tests that need a real server (PostgreSQL, Redis) skip when it is missing, except under CI.

Locally, a missing server is a visible skip (pytest -ra lists the reason). With TUTE_REQUIRE_SERVICES=1,
as .ci/run sets it, the same missing server fails the test: CI never passes by skipping what it meant
to check.
"""

import os
from typing import NoReturn

import pytest

REQUIRE_SERVICES_ENV = "TUTE_REQUIRE_SERVICES"


def services_required() -> bool:
    return os.environ.get(REQUIRE_SERVICES_ENV, "").strip().lower() in {"1", "true", "yes"}


def require_service(name: str, reachable: bool, reason: str) -> None:
    """Return if `reachable`; else skip the test, or fail it when TUTE_REQUIRE_SERVICES=1."""
    if reachable:
        return
    _missing(name, reason)


def _missing(name: str, reason: str) -> NoReturn:
    if services_required():
        pytest.fail(f"{name} is required ({REQUIRE_SERVICES_ENV}=1) but unavailable: {reason}", pytrace=False)
    pytest.skip(f"{name} unavailable: {reason}")
