"""How the website names who sits where: one helper for every page, so a house bot has one name.

A house bot is named by its level ("Rule bot"); with several house bots of one level at a table they are
told apart by their place in seat order ("Rule bot 2"). Seats are numbered from 1 on the pages. Around the
table the person looking sits at the bottom and play passes to their right (counter-clockwise, as Spanish
card games are played); a spectator looks from the first seat.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.bots import BOT_LEVELS
from games.engine.rules import side_of
from games.models import Seat

#: Where each seat sits around the table, counted from the viewer's seat in play order.
POSITIONS: dict[int, tuple[str, ...]] = {
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
    5: ("bottom", "right", "top-right", "top-left", "left"),
    6: ("bottom", "right", "top-right", "top", "top-left", "left"),
}


def bot_level_name(level: str) -> str:
    """A house bot's level as people read it: "Rule bot", "Random bot"."""
    names = {
        "rule": _("Rule bot"),
        "random": _("Random bot"),
        "beginner": _("Beginner bot"),
        "casual": _("Casual bot"),
        "search": _("Search bot"),
    }
    return names.get(level, _("%(level)s bot") % {"level": level.capitalize()})


def bot_level_choice(level: str) -> str:
    """A level in a list to choose from: what it plays like."""
    names = {
        "rule": _("Rule bot: plays by the book (recommended)"),
        "random": _("Random bot: any legal card (for beginners)"),
        "beginner": _("Beginner bot: plays like someone learning the game"),
        "casual": _("Casual bot: sound, with a beginner's mistake now and then"),
        "search": _("Search bot: thinks ahead over the deals it may face (strongest)"),
    }
    return names.get(level, bot_level_name(level))


def bot_level_description(level: str) -> str:
    """What a level plays like, in a sentence (games.bots.LEVEL_DESCRIPTIONS in the reader's language)."""
    descriptions = {
        "random": _("Any legal card: for a first game."),
        "beginner": _(
            "Plays like someone learning: knows the rules, often throws away an ace, trumps a trick worth "
            "nothing, forgets a cante or the swap, over-bids."
        ),
        "casual": _(
            "Plays like a casual player: sound most of the time, now and then the beginner's mistakes."
        ),
        "rule": _("Plays by the book: follows the rules of thumb a club player knows."),
        "search": _("Thinks ahead over the deals it may face, from what its seat can know: the strongest."),
    }
    return descriptions.get(level, "")


_DEFAULT_ENTRANT = re.compile(r"^([a-z]+) (bot|pair) (\d+)$")


def entrant_name(name: str) -> str:
    """A tournament entrant's name, with the names given to house-bot entrants ("Rule bot 3", "Rule pair
    2") in the reader's language; a name an organiser chose stays as it is."""
    found = _DEFAULT_ENTRANT.match(name.lower())
    if found is None or found.group(1) not in BOT_LEVELS or name[0].islower():
        return name
    level, kind, number = found.groups()
    if kind == "pair":
        return _("%(level)s pair %(n)s") % {"level": bot_level_name(level), "n": number}
    return f"{bot_level_name(level)} {number}"


def house_bot_names(levels: Sequence[str]) -> list[str]:
    """Names for house-bot seats given in seat order (empty level: not a house bot, named ``""``)."""
    counts = Counter(level for level in levels if level)
    seen: Counter[str] = Counter()
    out = []
    for level in levels:
        if not level:
            out.append("")
            continue
        seen[level] += 1
        base = bot_level_name(level)
        out.append(f"{base} {seen[level]}" if counts[level] > 1 else base)
    return out


def relation(game: str, seat: int, viewer: int | None) -> str | None:
    """``you``, ``partner`` or ``opponent`` of seat ``seat`` for the viewer's seat (None: a spectator)."""
    if viewer is None:
        return None
    if seat == viewer:
        return "you"
    if side_of(game, seat) == side_of(game, viewer):
        return "partner"
    return "opponent"


def relation_name(value: str | None) -> str:
    names = {"you": _("you"), "partner": _("partner"), "opponent": _("opponent")}
    return names.get(value or "", "")


def seat_labels(seats: Sequence[Seat], *, game: str, viewer: int | None = None) -> list[dict[str, Any]]:
    """Per seat, in seat order: its name, the player's handle (or None), whether a bot plays it, its
    number from 1, its relation to the viewer and its place around the table."""
    bots = house_bot_names([s.bot_level if s.player_id is None else "" for s in seats])
    places = POSITIONS.get(len(seats), ())
    origin = viewer if viewer is not None else 0
    out = []
    for seat, bot_name in zip(seats, bots, strict=True):
        if seat.player is not None:
            name, handle, bot = seat.player.display_name, seat.player.handle, seat.player.is_bot
        elif seat.bot_level:
            name, handle, bot = bot_name, None, True
        else:
            name, handle, bot = pgettext("empty seat", "empty seat"), None, False
        rel = relation(game, seat.index, viewer)
        offset = (seat.index - origin) % len(seats)
        out.append(
            {
                "index": seat.index,
                "number": seat.index + 1,
                "name": name,
                "handle": handle,
                "bot": bot,
                "relation": rel,
                "relation_name": relation_name(rel),
                "position": places[offset] if offset < len(places) else "top",
                "side": side_of(game, seat.index),
            }
        )
    return out
