"""Bots: pure functions ``choose(view, legal, rng) -> action`` over a seat's view of the game.

A bot sees what a person in its seat sees (``games.engine.SeatView``) and the legal action codes; it
gets its randomness from the seeded ``rng`` it is handed, never from the global ``random``, and does no
I/O, so a bot's game replays exactly from its seed. ``BOTS`` maps a name to a bot; ``BOT_LEVELS``
orders the built-in bots from the weakest up (``manage.py rate_levels`` measures the order by play;
``beginner`` and ``casual`` are the rule bot with human-looking mistakes, ``games.bots.human``). A new
bot joins with ``register_bot`` and takes its place in ``BOT_LEVELS`` by an edit here.
"""

from __future__ import annotations

from random import Random
from typing import Final, Protocol

from games.engine import SeatView

from .human import beginner, casual
from .random import choose as random_choose
from .rule import choose as rule_choose
from .search import SearchBot


class Bot(Protocol):
    """A bot: one legal action code for the seat whose view it is handed."""

    def __call__(self, view: SeatView, legal: tuple[str, ...], rng: Random, /) -> str: ...


class UnknownBot(KeyError, ValueError):
    """A bot name that is not registered; the message lists the known names."""

    def __init__(self, name: object, known: list[str]) -> None:
        self.name = name
        self.known = known
        self.message = f"unknown bot {name!r}: known bots are {', '.join(known)}"
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


BOTS: Final[dict[str, Bot]] = {
    "random": random_choose,
    "beginner": beginner,
    "casual": casual,
    "rule": rule_choose,
    "search": SearchBot(),
}

#: Built-in bot names, weakest first.
BOT_LEVELS: Final[tuple[str, ...]] = ("random", "beginner", "casual", "rule", "search")

#: What each level plays like, in a sentence (the API's words; the website translates its own).
LEVEL_DESCRIPTIONS: Final[dict[str, str]] = {
    "random": "Any legal card: for a first game.",
    "beginner": "Plays like someone learning: knows the rules, often throws away an ace, trumps a trick "
    "worth nothing, forgets a cante or the swap, over-bids.",
    "casual": "Plays like a casual player: sound most of the time, now and then the beginner's mistakes.",
    "rule": "Plays by the book: follows the rules of thumb a club player knows.",
    "search": "Thinks ahead over the deals it may face, from what its seat can know: the strongest.",
}


def get_bot(name: str) -> Bot:
    """The bot registered as ``name``; ``UnknownBot`` (a ``KeyError`` and a ``ValueError``) otherwise."""
    try:
        return BOTS[name]
    except (KeyError, TypeError):
        raise UnknownBot(name, sorted(BOTS)) from None


def register_bot(name: str, bot: Bot, *, replace: bool = False) -> None:
    """Add ``bot`` to the registry under ``name``; a taken name needs ``replace=True``."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"a bot name is a non-empty string, not {name!r}")
    if name in BOTS and not replace:
        raise ValueError(f"a bot named {name!r} is registered already")
    BOTS[name] = bot


__all__ = ["BOTS", "BOT_LEVELS", "LEVEL_DESCRIPTIONS", "Bot", "UnknownBot", "get_bot", "register_bot"]
