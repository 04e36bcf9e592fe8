"""The rule bot: a sensible player of Tute 2, Tute 4 and Pocha, from its seat's view alone.

It reads the view once into ``Knowledge``: where every card can still be (its own hand, the cards
known to be in another hand, the unseen rest), and which cards a seat cannot hold, deduced from the
duties it obeyed in earlier tricks. From that it estimates, for each legal card, the chance that its
side takes the trick (a one-trick look-ahead in which every seat still to play beats the card when it
can, as the duties make it), and picks:

- Tute: the card with the best expected point swing ``(2p - 1) * trick points``, plus the cante that
  winning lets it sing, minus what the card is worth kept (trumps, aces still unbeaten, the 12 and 11
  of a pair it can sing). So it wins valuable tricks with its cheapest winning card, plays its
  cheapest card when it cannot win, keeps trumps for tricks that count, leaves a partner's sure
  winner alone and loads points onto it. It always swaps and always sings, the 40 first.
- The last tricks are searched instead: in Tute 2 once the stock is drawn both hands are known and the
  rest of the hand is solved exactly; in Tute 4's last four tricks deals of the unseen cards consistent
  with the view are sampled (``games.engine.sampling``) and each is solved exactly (the search bot's
  solver, on the engine's table).
- Pocha: it bids the tricks its hand is expected to take, then plays to make the bid exactly,
  winning while short of it and ducking (shedding its strongest cards) once it has enough.

It reads the game's flags from the view and asks the engine what the public play proves (which cards a
seat cannot hold, by the duties it obeyed): no rule of the game is copied here. The ``rng`` it is handed
only draws the endgame's deals, so the bot is deterministic for a seeded ``rng``; ties between cards go
by a fixed card order.

The package: ``knowledge`` (the view read once), ``tute`` (windows, cards, the exact last tricks),
``pocha`` (bids and play to the bid); ``choose`` here picks between them.
"""

from __future__ import annotations

import random

from games.engine import SeatView
from games.engine.cards import CODE_OF, INDEX_OF_CODE

from .knowledge import Knowledge, read_view
from .pocha import bid, pocha_card
from .tute import card_scores, tute_card, window_action


def choose(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> str:
    """The rule bot's action for the seat of ``view``; always one of ``legal``."""
    if not legal:
        raise ValueError(f"seat {view.seat} has no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    if view.phase == "bid":
        return bid(read_view(view), legal)
    special = window_action(view, legal)
    if special is not None:
        return special
    cards = [INDEX_OF_CODE[code[5:]] for code in legal if code.startswith("play:")]
    if not cards:  # not reached with the engine's actions: the window always comes with the lead
        return sorted(legal)[0]
    knowledge = read_view(view)
    card = pocha_card(knowledge, cards) if view.game == "pocha" else tute_card(knowledge, cards, rng)
    return f"play:{CODE_OF[card]}"


__all__ = ["Knowledge", "card_scores", "choose", "read_view"]
