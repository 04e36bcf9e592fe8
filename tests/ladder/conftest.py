"""Fixtures for the ladder's tests: the bot client's (a live server, accounts, bots in threads), the
games API clients and static files without collectstatic's manifest for the website's pages."""

from tests.client.conftest import (  # noqa: F401  (fixtures used by tests here)
    _fresh_process_state,
    bot_account,
    bots,
    person,
    server,
)
from tests.games.conftest import anon_client, session_client, token_client, url  # noqa: F401
from tests.web.conftest import _static_without_manifest  # noqa: F401
