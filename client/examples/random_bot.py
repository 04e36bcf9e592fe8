"""A bot that plays a uniformly random legal move, and accepts every challenge.

Run it from the repository's root with the bot's token (docs/BOTS.md):

    TUTE_URL=http://127.0.0.1:8000 TUTE_TOKEN=... python -m client.examples.random_bot

It stays connected to its event stream and reconnects when the stream drops; Ctrl-C stops it.
"""

import contextlib
import logging
import os
import random
from typing import Any

from client.tute_client import Event, TuteClient, run_bot


def choose(event: Event) -> str:
    """The move for a ``your_turn`` event: any of its legal action codes."""
    return random.choice(event["legal"])


def main(**run_options: Any) -> None:
    """Connect with TUTE_URL and TUTE_TOKEN and play until stopped (``run_options`` go to run_bot)."""
    if not os.environ.get("TUTE_TOKEN"):
        raise SystemExit("Set TUTE_TOKEN to the bot's token (and TUTE_URL to the site, if not local).")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    client = TuteClient(os.environ.get("TUTE_URL", "http://127.0.0.1:8000"), os.environ["TUTE_TOKEN"])
    print(f"playing as {client.me()['handle']} on {client.api_url}", flush=True)
    run_bot(client, choose, **run_options)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
