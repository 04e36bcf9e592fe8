"""Action codes (docs/RULES.md section 8) and the small ints the engine computes with.

Ids: 0-47 play a card, 48-95 exchange a card, 96-99 sing a suit, 100 sing tute, 101 pass,
102 + n bid n. Codes are the stable wire format; ids never leave the engine.
"""

from __future__ import annotations

import re
from typing import Final

from .cards import CODE_OF, INDEX_OF_CODE, NUM_CARDS, SUITS

PLAY: Final = 0
EXCHANGE: Final = NUM_CARDS
SING: Final = 2 * NUM_CARDS
SING_TUTE: Final = SING + 4
PASS: Final = SING_TUTE + 1
BID: Final = PASS + 1
MAX_BID: Final = 48
NUM_ACTIONS: Final = BID + MAX_BID + 1

_CODE_RE: Final = re.compile(r"^(play|exchange|sing|bid|pass)(?::([0-9A-Za-z]{1,3}))?$")


def _code(action: int) -> str:
    if action < EXCHANGE:
        return f"play:{CODE_OF[action]}"
    if action < SING:
        return f"exchange:{CODE_OF[action - EXCHANGE]}"
    if action < SING_TUTE:
        return f"sing:{SUITS[action - SING]}"
    if action == SING_TUTE:
        return "sing:tute"
    if action == PASS:
        return "pass"
    return f"bid:{action - BID}"


CODE_OF_ACTION: Final = tuple(_code(a) for a in range(NUM_ACTIONS))
ACTION_OF_CODE: Final = {code: a for a, code in enumerate(CODE_OF_ACTION)}


def parse_action(code: object) -> int:
    """The id of an action code; ``ValueError`` explains a malformed one."""
    if isinstance(code, str):
        action = ACTION_OF_CODE.get(code)
        if action is not None:
            return action
        m = _CODE_RE.match(code)
        if m:
            kind, arg = m.groups()
            if kind in ("play", "exchange") and arg not in INDEX_OF_CODE:
                raise ValueError(f"{code!r}: {arg!r} is not a card code")
            if kind == "sing":
                raise ValueError(f"{code!r}: sing takes a suit (O, C, E, B) or tute")
            if kind == "bid":
                raise ValueError(f"{code!r}: bid takes a number of tricks from 0 to {MAX_BID}")
            if kind == "pass":
                raise ValueError(f"{code!r}: pass takes no argument")
        raise ValueError(
            f"{code!r} is not an action code (play:<card>, exchange:<card>, sing:<suit>, bid:<n>, pass)"
        )
    raise ValueError(f"an action code is a string, not {type(code).__name__}")
