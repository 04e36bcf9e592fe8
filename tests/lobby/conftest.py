"""Fixtures for the lobby's tests: people and API clients speaking for them."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games.models import Player
from tests.factories import token_for


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Throttle counters and presence marks start empty in every test."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def client_for(db: None) -> Callable[[Player], APIClient]:
    """A client that speaks for ``player`` with an API token."""

    def make(player: Player) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(player)}")
        return client

    return make
