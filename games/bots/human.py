"""Human-looking house levels: the rule bot's play with the mistakes people make, at graded rates.

A ``HumanBot`` plays what the rule bot plays, except where one of a few named mistakes fits the moment:
then, with that mistake's rate, it makes it. Every mistake is a plausible pattern, chosen from the
legal actions, never a random card:

- ``no_count``: Tute, the last tricks (which the rule bot counts out exactly) are played by rule of
  thumb, as the early ones are.
- ``waste_high``: it cannot win the trick the other side is taking, and throws its ace or three on it
  (Tute: points given away; Pocha, still short of its bid: a winner spent for nothing).
- ``cheap_trump``: Tute, the other side is taking a trick worth next to nothing (4 points or less) in a
  plain suit: it trumps it with its strongest trump.
- ``trump_partner``: Tute 4, its partner is taking the trick: it trumps in all the same (it was free to
  discard).
- ``overkill``: it takes the trick with its strongest winning card where a cheaper one wins as well.
- ``break_pair``: Tute, it plays the knight or the king of a pair it could still sing.
- ``ace_into_void``: it leads its ace (or three) of a plain suit where an opponent may trump it: one
  likely void in the suit (by the card counting the rule bot does), or in Tute 2 while the stock
  lasts, the other player, free to trump.
- ``skip_swap``: it forgets to swap the 7 (or the 2) of trumps for the face-up card when it may.
- ``skip_cante``: it forgets to sing a pair (or tute) when it may.
- ``overbid``: Pocha, it bids by counting its high cards (aces, threes, the king of trumps and the
  trumps above it) when that comes to more than the rule bot's bid.
- ``overtrick``: Pocha, its bid already made, it takes a trick anyway with its strongest winning card.

A mistake is made only where it plays differently from the rule bot (``Decision.mistake`` names the
one made). The rule bot's own randomness (its endgame deals) comes first from ``rng``, then one draw per
mistake that fits, in the order above, so the bot is deterministic for a seeded ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from games.engine import SeatView
from games.engine.cards import (
    CODE_OF,
    INDEX_OF_CODE,
    PAIR_MASK,
    POINTS,
    RANK_OF,
    STRENGTH,
    SUIT_MASK,
    SUIT_OF,
)
from games.engine.tricks import beats

from .rule import card_scores, read_view
from .rule import choose as rule_choose
from .rule.knowledge import Knowledge, winner
from .rule.tute import TUTE2_ENDGAME_CARDS, TUTE4_ENDGAME_CARDS

#: The named mistakes, in the order they are considered.
MISTAKES: Final[tuple[str, ...]] = (
    "no_count",
    "waste_high",
    "cheap_trump",
    "trump_partner",
    "overkill",
    "break_pair",
    "ace_into_void",
    "skip_swap",
    "skip_cante",
    "overbid",
    "overtrick",
)

#: A trick worth this many card points or fewer is "worth next to nothing" (``cheap_trump``).
CHEAP_TRICK: Final = 4
#: ``ace_into_void``: an opponent holds a card of the suit with less than this chance.
LIKELY_VOID: Final = 0.5
#: ``overbid``: trumps from this rank up count as high cards (the king, the three and the ace).
HIGH_TRUMP_RANKS: Final = frozenset({12, 3, 1})
HIGH_RANKS: Final = frozenset({3, 1})


@dataclass(frozen=True, slots=True)
class Decision:
    """The action chosen, and the mistake it is (None: the rule bot's own choice)."""

    action: str
    mistake: str | None


def _card(code: str) -> int:
    return INDEX_OF_CODE[code[5:]]


def _plays(legal: tuple[str, ...]) -> list[int]:
    return [_card(code) for code in legal if code.startswith("play:")]


def _play(card: int) -> str:
    return f"play:{CODE_OF[card]}"


def _without(legal: tuple[str, ...], prefix: str) -> tuple[str, ...]:
    return tuple(code for code in legal if not code.startswith(prefix))


def _other_side_wins(k: Knowledge, win_seat: int) -> bool:
    return k.side(win_seat) != k.side(k.seat) if k.partners else win_seat != k.seat


def _mistakes(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> dict[str, str]:
    """Each mistake that fits this moment, with the action it plays."""
    out: dict[str, str] = {}
    if view.phase == "bid":
        k = read_view(view)
        high_cards = sum(
            1
            for card in k.cards
            if RANK_OF[card] in (HIGH_TRUMP_RANKS if SUIT_OF[card] == k.trump else HIGH_RANKS)
        )
        bids = [int(code[4:]) for code in legal if code.startswith("bid:")]
        if bids:
            out["overbid"] = f"bid:{min(bids, key=lambda b: (abs(b - high_cards), -b))}"
        return out
    if any(code.startswith("exchange:") for code in legal):
        out["skip_swap"] = _rule_or_pass(view, _without(legal, "exchange:"), rng)
    if any(code.startswith("sing:") for code in legal):
        out["skip_cante"] = _rule_or_pass(view, _without(legal, "sing:"), rng)
    cards = _plays(legal)
    if not cards:
        return out
    k = read_view(view)
    trump = k.trump
    pocha = view.game == "pocha"
    need = (view.bids[k.seat] or 0) - view.tricks_won[k.seat] if pocha else 1
    if not pocha and _counted(view, k):
        scores = card_scores(k, cards)
        out["no_count"] = _play(max(cards, key=lambda c: (round(scores[c], 6), -STRENGTH[c], -c)))
    if view.trick:
        win_seat, win = winner(view.trick, trump)
        lead = SUIT_OF[INDEX_OF_CODE[view.trick[0][1]]]
        winning = [c for c in cards if beats(c, win, trump)]
        if _other_side_wins(k, win_seat):
            high = [c for c in cards if POINTS[c] >= 10]
            if high and not winning and need > 0:
                out["waste_high"] = _play(max(high, key=lambda c: (POINTS[c], SUIT_OF[c] == lead, c)))
            trick_points = sum(POINTS[INDEX_OF_CODE[code]] for _, code in view.trick)
            ruffs = [c for c in winning if SUIT_OF[c] == trump]
            if not pocha and lead != trump and trick_points <= CHEAP_TRICK and ruffs:
                out["cheap_trump"] = _play(max(ruffs, key=lambda c: (STRENGTH[c], c)))
            if len(winning) > 1 and (not pocha or need > 0):
                out["overkill"] = _play(max(winning, key=lambda c: (SUIT_OF[c] == trump, STRENGTH[c], c)))
        elif k.partners and lead != trump:
            trumps = [c for c in cards if SUIT_OF[c] == trump]
            if trumps and len(trumps) < len(cards):
                out["trump_partner"] = _play(min(trumps, key=lambda c: (STRENGTH[c], c)))
        if pocha and need <= 0 and winning:
            out["overtrick"] = _play(max(winning, key=lambda c: (STRENGTH[c], c)))
    elif need > 0:
        free_to_trump = view.game == "tute2" and view.stock_size > 0
        opponents = [s for s in range(k.n) if s != k.seat and (not k.partners or k.side(s) != k.side(k.seat))]
        leads = []
        for card in cards:
            suit = SUIT_OF[card]
            if suit == trump or POINTS[card] < 10:
                continue
            if any(
                (free_to_trump or k.p_any(s, SUIT_MASK[suit]) < LIKELY_VOID)
                and k.p_any(s, SUIT_MASK[trump]) > 0
                for s in opponents
            ):
                leads.append(card)
        if leads:
            out["ace_into_void"] = _play(max(leads, key=lambda c: (POINTS[c], c)))
    if not pocha and len(k.cards) > 1:
        broken = [
            c
            for c in cards
            if RANK_OF[c] in (11, 12)
            and not (k.sung >> SUIT_OF[c]) & 1
            and k.hand & PAIR_MASK[SUIT_OF[c]] == PAIR_MASK[SUIT_OF[c]]
        ]
        if broken:
            out["break_pair"] = _play(min(broken, key=lambda c: (SUIT_OF[c] == trump, STRENGTH[c], c)))
    return out


def _counted(view: SeatView, k: Knowledge) -> bool:
    """Whether the rule bot counts this trick's card out exactly (its endgame) rather than by its rules."""
    if view.game == "tute2":
        return view.faceup is None and len(k.cards) <= TUTE2_ENDGAME_CARDS
    return view.game == "tute4" and len(k.cards) <= TUTE4_ENDGAME_CARDS


def _rule_or_pass(view: SeatView, legal: tuple[str, ...], rng: random.Random) -> str:
    """The rule bot's choice among ``legal`` (a window left out); "pass" when nothing else is left."""
    if not legal:
        return "pass"
    return rule_choose(view, legal, rng)


class HumanBot:
    """The rule bot with the named mistakes at the rates given (0 to 1 each, absent: never)."""

    def __init__(self, rates: Mapping[str, float]) -> None:
        unknown = sorted(set(rates) - set(MISTAKES))
        if unknown:
            raise ValueError(f"unknown mistakes {unknown}: known are {', '.join(MISTAKES)}")
        if any(not 0.0 <= rate <= 1.0 for rate in rates.values()):
            raise ValueError("a mistake's rate is between 0 and 1")
        self.rates: dict[str, float] = {name: float(rates.get(name, 0.0)) for name in MISTAKES}

    def decide(self, view: SeatView, legal: tuple[str, ...], rng: random.Random) -> Decision:
        """The action and the mistake it is, if any; always one of ``legal``."""
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action to choose from")
        if len(legal) == 1:
            return Decision(legal[0], None)
        best = rule_choose(view, legal, rng)
        for name, action in _mistakes(view, legal, rng).items():
            rate = self.rates[name]
            if not rate or action == best or action not in legal:
                continue
            if name == "overbid" and int(action[4:]) <= int(best[4:]):
                continue  # counting high cards came to no more than the sound bid: no over-bid
            if rng.random() < rate:
                return Decision(action, name)
        return Decision(best, None)

    def __call__(self, view: SeatView, legal: tuple[str, ...], rng: random.Random, /) -> str:
        return self.decide(view, legal, rng).action


#: The two human-looking levels: a beginner makes these mistakes often, a casual player now and then.
BEGINNER_RATES: Final[Mapping[str, float]] = {
    "no_count": 0.9,
    "waste_high": 0.9,
    "cheap_trump": 0.9,
    "trump_partner": 0.9,
    "overkill": 0.9,
    "break_pair": 0.4,
    "ace_into_void": 0.9,
    "skip_swap": 0.9,
    "skip_cante": 0.5,
    "overbid": 0.9,
    "overtrick": 0.9,
}
#: A casual player makes the same mistakes, four times in ten as often.
CASUAL_RATES: Final[Mapping[str, float]] = {
    name: round(0.4 * rate, 2) for name, rate in BEGINNER_RATES.items()
}

beginner = HumanBot(BEGINNER_RATES)
casual = HumanBot(CASUAL_RATES)

__all__ = ["BEGINNER_RATES", "CASUAL_RATES", "MISTAKES", "Decision", "HumanBot", "beginner", "casual"]
