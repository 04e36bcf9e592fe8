"""A bot that plays a uniformly random legal move, and accepts every challenge.

Run it from the repository's root with the bot's token (docs/BOTS.md):

    TUTE_URL=http://127.0.0.1:8000 TUTE_TOKEN=... python -m client.examples.random_bot

It stays connected to its event stream and reconnects when the stream drops; Ctrl-C stops it. A bad
token or an unreachable server ends it with a one-line message.
"""

import random
from typing import Any

from client.tute_client import Event, run_forever


def choose(event: Event) -> str:
    """The move for a ``your_turn`` event: any of its legal action codes."""
    return random.choice(event["legal"])


def main(**run_options: Any) -> None:
    """Connect with TUTE_URL and TUTE_TOKEN and play until stopped (``run_options`` go to run_bot)."""
    run_forever(choose, **run_options)


if __name__ == "__main__":
    main()
