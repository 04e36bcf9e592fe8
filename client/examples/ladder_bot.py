"""A ladder bot: puts itself on the ladder, then plays until stopped (docs/BOTS.md, "The ladder").

    TUTE_URL=http://127.0.0.1:8000 TUTE_TOKEN=<the bot's token> TUTE_OWNER_TOKEN=<the owner's token> \\
        python -m client.examples.ladder_bot

With TUTE_OWNER_TOKEN (the owner's personal token) it first opts the bot in to the games of
TUTE_LADDER_GAMES (default ``tute2,tute4,pocha``), which starts its validation; without it, the owner
does that on the website (My bots, status and ladder). The bot then plays: it sings a cante whenever it
can and otherwise plays a random legal move. While it runs it is online, so the matchmaker plays its
validation matches and then pairs it on the ladder. Add ``--poll`` to play by polling instead of the
event stream.
"""

import os
import random
import sys

from client.tute_client import Event, TuteClient, run_forever


def choose(event: Event) -> str:
    legal = event["legal"]
    sings = [code for code in legal if code.startswith("sing:")]
    return sings[0] if sings else random.choice(legal)


def opt_in() -> None:
    """With the owner's token: put the bot on the ladder for TUTE_LADDER_GAMES, and say where it is."""
    url = os.environ.get("TUTE_URL", "http://127.0.0.1:8000")
    owner_token = os.environ.get("TUTE_OWNER_TOKEN")
    bot_token = os.environ.get("TUTE_TOKEN")
    if not owner_token or not bot_token:
        return
    handle = TuteClient(url, bot_token).me()["handle"]
    games = [
        g.strip() for g in os.environ.get("TUTE_LADDER_GAMES", "tute2,tute4,pocha").split(",") if g.strip()
    ]
    bot = TuteClient(url, owner_token).set_ladder_games(handle, games)
    for game, state in sorted(bot["validation"].items()):
        print(
            f"{handle} {game}: validation {state['status']} ({state['passed']}/{state['required']})",
            flush=True,
        )


if __name__ == "__main__":
    try:
        opt_in()
    except Exception as exc:  # a one-line message, then play anyway: the owner may opt in on the website
        print(f"could not opt in to the ladder: {exc}", file=sys.stderr)
    run_forever(choose, poll="--poll" in sys.argv)
