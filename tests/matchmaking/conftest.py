"""The bot client's fixtures (a live server, accounts, bots in threads) for the ladder's end-to-end test."""

from tests.client.conftest import (  # noqa: F401  (fixtures used by tests here)
    _fresh_process_state,
    bot_account,
    bots,
    person,
    server,
)
