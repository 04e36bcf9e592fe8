"""The search bot: perfect-information Monte Carlo over deals sampled from what its seat has seen.

Each decision samples deals consistent with the seat's view (``games.engine.sampling.DealSampler``: the
cards seen, the face-up card and swaps, cantes, and the voids and limits the public play proves), and on
each deal scores every legal action by playing the rest of the hand out with a rule-guided policy on the
engine's own ``Table`` (the same code that decides legality, stepped in place). Once few cards are left
the deal is solved exactly instead (alpha-beta over the rest of the hand, cantes and the last trick
included); in Tute 2 once the stock is drawn every card is known, so that solve is the exact answer.
Pocha bids are chosen by playing each sample out once per candidate bid, the bot steering to that bid
(taking tricks while short of it, ducking once it has it), and keeping the bid with the best score.

The work per decision is a number of samples and playouts (``Budget``), never a clock, so a decision is
reproducible for a seed and a budget. Perfect-information Monte Carlo was chosen over information-set
MCTS for its cost: in pure Python a decision affords a few hundred playouts, and spread over sampled
deals they buy more than a tree would (docs/PERFORMANCE.md has the figures).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from games.engine import SeatView
from games.engine.actions import ACTION_OF_CODE, BID, CODE_OF_ACTION, EXCHANGE, PASS, SING, SING_TUTE
from games.engine.cards import KNIGHTS_MASK, PAIR_MASK, POINTS, STRENGTH, STRONGER, SUIT_MASK, SUIT_OF
from games.engine.sampling import DealSampler
from games.engine.table import BIDDING, OVER, PARTNER_SINGING, Table, beats, duty_mask

from .solver import TUTE_VALUE, WIN_BONUS, Solver

__all__ = [
    "DEFAULT_WEIGHTS",
    "TUTE4_BUDGET",
    "TUTE_VALUE",
    "WIN_BONUS",
    "Budget",
    "CheatBot",
    "PolicyWeights",
    "SearchBot",
    "Solver",
]


@dataclass(frozen=True, slots=True)
class PolicyWeights:
    """The playout policy's constants, one value each, so variants are measured without editing code
    (``bench/policy_tune.py`` plays them against each other; ``Budget.weights`` puts them in the search).
    """

    #: The chance a playout seat plays a random legal card instead of the policy's (keeps playouts varied).
    epsilon: float = 0.05
    #: A card kept is worth (points): a trump's base and per step of strength, and the share of a cante a
    #: card of a pair still to sing stands for.
    keep_trump: float = 3.0
    keep_trump_slope: float = 0.8
    pair_keep: float = 0.4
    #: The share of a cante a trick is worth when winning it lets the winner sing.
    cante_weight: float = 0.8
    #: Tute 4: a trick of fewer points (with the trump spent) is not worth trumping in unless last to play.
    tute4_ruff_points: float = 10.0
    #: Tute 2, stock open: the share of the difference between the two cards drawn next (points, and a
    #: trump's worth kept) that winning the trick is worth (0: the stock is not looked at).
    draw_weight: float = 0.0
    #: Tute 4: lead the richest side card none of the others can beat (both opponents hold its suit and
    #: nobody a higher card of it), before the cheapest card.
    tute4_sure_leads: bool = False
    #: Tute 4: take a trick with the cheapest card the opponent still to play cannot beat (not merely the
    #: cheapest that beats the table); none: a cheap discard where the duties allow it.
    tute4_cover: bool = False

    @classmethod
    def parse(cls, text: str) -> PolicyWeights:
        """``keep_trump:2.5/tute4_cover:1`` (the fields not named keep their default; a flag is 0 or 1)."""
        values: dict[str, Any] = {}
        for item in filter(None, text.split("/")):
            key, _, value = (part.strip() for part in item.partition(":"))
            if key not in cls.__dataclass_fields__:
                raise ValueError(f"PolicyWeights has no field {key!r}")
            flag = isinstance(getattr(DEFAULT_WEIGHTS, key), bool)
            values[key] = value.lower() in ("1", "true") if flag else float(value)
        return cls(**values)


#: Today's policy, as set by hand.
DEFAULT_WEIGHTS: Final = PolicyWeights()
#: A hand's worth where a playout stops early: per trump (base and per step of strength), per card point
#: of a side card, and the share of a pair still to sing.
EST_TRUMP: Final = 4.0
EST_TRUMP_SLOPE: Final = 1.0
EST_POINTS: Final = 0.4
EST_PAIR: Final = 0.7


@dataclass(frozen=True, slots=True)
class Budget:
    """The work a decision may do: ``samples`` deals, at most ``playouts`` playouts over them, and an exact
    solve once at most ``solve_cards`` cards are left in the hands and on the table (Tute 4; Tute 2 is
    solved as soon as its stock is drawn, whatever its size)."""

    samples: int = 16
    playouts: int = 96
    solve_cards: int = 16
    solve_nodes: int = 20000
    solve_samples: int = 16  # Tute 4: the sampled deals the exact solve is run on (the first ones)
    horizon: int = 0  # Tute: tricks a playout plays before the position is scored (0: to the end)
    #: Tute: points of value given to the rule bot's choice, so the playouts overturn it only by more
    #: than their noise and bias (Pocha: none, the playouts are the stronger there).
    prior: float = 6.0
    #: The rule bot's choice stands unless another action beats it on the same deals by this many
    #: standard errors of their paired differences (0: off): the samples' noise does not overturn it.
    confidence: float = 0.0
    #: Inference from the others' choices: a sampled deal in which another seat's past card is not the
    #: one the playout policy would have played there counts this much (1: no inference).
    mismatch: float = 1.0
    draws: int = 1  # deals sampled per deal kept, when weighing them
    weights: PolicyWeights = DEFAULT_WEIGHTS  # the playout policy's constants
    #: Tute 2's stock phase: "pimc" (score each action on each deal), "ismcts" (one tree over the
    #: seat's information sets, ``games.bots.ismcts``: its iterations and UCB exploration in points) or
    #: "replies" (below).
    method: str = "pimc"
    iterations: int = 400
    explore: float = 40.0
    #: "replies" (``games.bots.replies``): Tute 2's stock-phase leads scored against the other seat's
    #: best reply, each reply's value a mean over this many stock orders.
    reshuffles: int = 2
    #: Tute: a swap or cante the rule bot makes is made without search. Skipping one loses its points
    #: unless the seat wins another trick, yet the best of the leads scored instead beats it on a few
    #: sampled deals by their noise alone (the winner's curse).
    windows: bool = False
    #: Tute: every card's score by the rule bot (points: the trick's expected swing less the card's
    #: worth kept) is added to its playouts' mean times this (0: off; ``prior`` still goes to its pick).
    rule_weight: float = 0.0


#: Tute 4's default level (``SearchBot``'s ``tute4``): three hands are hidden, so more deals (the exact
#: solve still on 16 of them, the p99), and no prior: the rule bot's choice gains nothing here.
TUTE4_BUDGET: Final = Budget(samples=48, playouts=480, solve_samples=16, prior=0.0)


class SearchBot:
    """A bot (``games.bots.Bot``): ``bot(view, legal, rng)``; ``choose_full`` is the bench-only cheat."""

    def __init__(self, budget: Budget | None = None, *, tute4: Budget | None = None) -> None:
        """``budget`` for every game; ``tute4``, Tute 4's own (by default ``TUTE4_BUDGET`` when no budget
        is given, else ``budget``): its three hidden hands are measured apart (docs/PERFORMANCE.md)."""
        self.budget = budget or Budget()
        self.tute4 = tute4 or (budget if budget is not None else TUTE4_BUDGET)

    def budget_for(self, game: str) -> Budget:
        return self.tute4 if game == "tute4" else self.budget

    def __call__(self, view: SeatView, legal: tuple[str, ...], rng: random.Random, /) -> str:
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        assert view.seat is not None
        budget = self.budget_for(view.game)
        if (
            budget.windows
            and view.game != "pocha"
            and (view.game != "tute2" or view.faceup is not None)  # Tute 2's arrastre: the exact solve
            and any(not code.startswith("play:") for code in legal)
        ):
            from .rule import choose as rule_choose

            window = rule_choose(view, legal, rng)
            if not window.startswith("play:"):
                return window
        sampler = DealSampler(view)
        if view.game == "tute2" and view.stock_size == 0 and view.faceup is None:
            samples = 1  # every card is known: the one deal is the real one
        else:
            samples = budget.samples
        tables: list[Table] = []
        weights: list[float] = []
        for _ in range(samples):
            table = None
            weight = 1.0
            for _ in range(budget.draws if budget.mismatch < 1.0 and samples > 1 else 1):
                seen = [1.0]

                def watch(t: Table, legal: list[int], action: int, seen: list[float] = seen) -> None:
                    if t.to_act != view.seat and greedy(t, legal, budget.weights) != action:
                        seen[0] *= budget.mismatch

                found = sampler.sample(rng, watch if budget.mismatch < 1.0 else None)
                if found is not None and (table is None or seen[0] > weight):
                    table, weight = found, seen[0]
                if weight >= 1.0:
                    break
            if table is not None:
                tables.append(table)
                weights.append(weight)
        if not tables:
            from .rule import choose as rule_choose  # a rare spot the sampler cannot fill

            return rule_choose(view, legal, rng)
        guide = None
        if (budget.prior or budget.confidence) and view.game != "pocha":
            # Tute only: in Pocha the playouts are clearly stronger than the rule bot (docs/PERFORMANCE.md)
            from .rule import choose as rule_choose

            guide_rng = random.Random(rng.random())

            def guide() -> int:
                return ACTION_OF_CODE[rule_choose(view, legal, guide_rng)]

        if budget.method == "ismcts" and view.game == "tute2" and view.faceup is not None:
            from . import ismcts

            return ismcts.decide(tables, legal, view.seat, rng, budget, guide)
        if budget.method == "replies" and view.game == "tute2" and view.faceup is not None and not view.trick:
            from . import replies

            lead = replies.decide(tables, legal, view.seat, rng, budget, None if guide is None else guide())
            if lead is not None:
                return lead
        scores = None
        if budget.rule_weight and view.game != "pocha" and all(code.startswith("play:") for code in legal):
            from .rule import card_scores, read_view

            by_card = card_scores(read_view(view), [ACTION_OF_CODE[code] for code in legal])
            scores = {card: budget.rule_weight * score for card, score in by_card.items()}
        return self._decide(tables, legal, view.seat, rng, guide=guide, weights=weights, scores=scores)

    def choose_full(self, table: Table, legal: tuple[str, ...], rng: random.Random) -> str:
        """The cheat: the same search on the real deal (every hand seen). Bench only, never offered."""
        if len(legal) == 1:
            return legal[0]
        return self._decide([table.clone()], legal, table.to_act, rng, repeat=True)

    # -- the decision -----------------------------------------------------------------------------
    def _decide(
        self,
        tables: list[Table],
        legal: tuple[str, ...],
        seat: int,
        rng: random.Random,
        *,
        repeat: bool = False,
        guide: Callable[[], int] | None = None,
        weights: list[float] | None = None,
        scores: dict[int, float] | None = None,
    ) -> str:
        budget = self.budget_for(tables[0].rules.game)
        actions = [ACTION_OF_CODE[code] for code in legal]
        totals = dict.fromkeys(actions, 0.0)
        counts = dict.fromkeys(actions, 0.0)
        #: per action, its value on each deal (round) it was scored on: the paired test reads them
        seen: dict[int, dict[int, float]] = {a: {} for a in actions}
        if weights is None:
            weights = [1.0] * len(tables)
        first = tables[0]
        cards_left = sum(h.bit_count() for h in first.hands) + len(first.trick)
        if (
            first.rules.has_stock
        ):  # Tute 2: exact once the stock is drawn (before, the deal's stock would be searched)
            exact = first.faceup < 0 and first.stock_size == 0
        else:
            exact = first.rules.is_tute and cards_left <= budget.solve_cards
        if exact and len(tables) == 1:
            table = tables[0]
            available = table.legal_ids()
            choice = Solver(table, seat, budget.solve_nodes * 4).best(
                table, [a for a in actions if a in available]
            )
            if choice is not None:
                return CODE_OF_ACTION[choice]
        if exact:
            # the solves are the costly decisions: at most ``solve_samples`` deals of them
            solved = budget.solve_samples if not first.rules.has_stock else len(tables)
            for table, weight in zip(tables[:solved], weights[:solved], strict=True):
                solver = Solver(table, seat, budget.solve_nodes)
                for action in actions:
                    if action in table.legal_ids():
                        child = table.clone()
                        child.step(action)
                        value = solver.value(child)
                        if value is None:  # past its node budget: a playout instead
                            value = _playout_value(child, seat, rng, weights=budget.weights)
                        totals[action] += weight * value
                        counts[action] += weight
                        seen[action][id(table)] = value
        else:
            rounds = max(1, budget.playouts // max(1, len(actions)))
            if not repeat:
                rounds = min(rounds, len(tables))
            for r in range(rounds):
                table = tables[r % len(tables)]
                weight = weights[r % len(tables)]
                available = table.legal_ids()
                seed = rng.random()  # every action's playout on this deal shares its randomness
                for action in actions:
                    if action not in available:
                        continue  # the sample's own window differs (a draw the view does not show)
                    child = table.clone()
                    child.step(action)
                    value = _playout_value(child, seat, random.Random(seed), budget.horizon, budget.weights)
                    totals[action] += weight * value
                    counts[action] += weight
                    seen[action][r] = value
        scored = [a for a in actions if counts[a]]
        if not scored:
            return legal[0]
        # the rule bot's choice, where the playouts (not an exact solve) decide
        prior = guide() if guide is not None and not exact else None
        bonus = dict.fromkeys(scored, 0.0)
        if scores is not None and not exact:
            bonus = {a: scores.get(a, 0.0) for a in scored}
        if prior in bonus:
            bonus[prior] += budget.prior
        best = max(scored, key=lambda a: (totals[a] / counts[a] + bonus[a], -a))
        if (
            budget.confidence
            and prior in bonus
            and best != prior
            and not _clearly_better(seen[best], seen[prior], budget.confidence)
        ):
            best = prior  # the samples do not show the rule bot's choice is worse
        return CODE_OF_ACTION[best]


def _clearly_better(values: dict[int, float], base: dict[int, float], z: float) -> bool:
    """Whether ``values`` beats ``base`` on the deals both were scored on by ``z`` standard errors of
    the mean paired difference."""
    diffs = [v - base[k] for k, v in values.items() if k in base]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return var == 0 or mean > z * (var / n) ** 0.5


# -- values -----------------------------------------------------------------------------------------


def _pocha_value(table: Table, seat: int) -> float:
    """The hand just finished: the seat's score against the other seats' mean."""
    scores = table.hand_results[-1].scores
    return scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1)


def _tute_value(table: Table, seat: int) -> float:
    side = table.side_of(seat)
    scores = table.result_scores
    margin = scores[side] - scores[1 - side]
    if table.tute_by >= 0:
        return TUTE_VALUE if side in table.result_winners else -TUTE_VALUE
    return margin + (WIN_BONUS if side in table.result_winners else -WIN_BONUS)


def _playout_value(
    table: Table,
    seat: int,
    rng: random.Random,
    horizon: int = 0,
    weights: PolicyWeights = DEFAULT_WEIGHTS,
) -> float:
    """Play the hand out in place with the policy; the seat's value at its end, or after ``horizon``
    more tricks (Tute), scored as the margin so far and what the hands left are worth."""
    if table.rules.is_tute:
        stop = table.tricks_done + horizon + (1 if table.trick else 0) if horizon else 1 << 30
        while table.phase != OVER:
            if table.tricks_done >= stop and not table.trick and table.phase != PARTNER_SINGING:
                return _tute_estimate(table, seat)
            table.step(policy(table, rng, weights))
        return _tute_value(table, seat)
    hand = table.hand_no
    while table.hand_no == hand and table.phase != OVER:
        table.step(policy(table, rng, weights))
    return _pocha_value(table, seat)


def _tute_estimate(t: Table, seat: int) -> float:
    """A Tute position mid-hand: the margin so far plus the worth of each side's hand (trumps by
    strength, pairs still to sing, the aces and threes that will take points)."""
    side = t.side_of(seat)
    scores = t.side_scores()
    value = float(scores[side] - scores[1 - side])
    for other in range(t.n):
        worth = _hand_worth(t, other)
        value += worth if t.side_of(other) == side else -worth
    return value


def _hand_worth(t: Table, seat: int) -> float:
    hand = t.hands[seat]
    trump = t.trump
    worth = 0.0
    cards = hand
    while cards:
        low = cards & -cards
        card = low.bit_length() - 1
        cards ^= low
        if SUIT_OF[card] == trump:
            worth += EST_TRUMP + EST_TRUMP_SLOPE * STRENGTH[card]
        else:
            worth += EST_POINTS * POINTS[card]
    if t.rules.cantes_in_arrastre or t.faceup >= 0:
        for suit in range(4):
            if not (t.sung >> suit) & 1 and hand & PAIR_MASK[suit] == PAIR_MASK[suit]:
                worth += EST_PAIR * (40 if suit == trump else 20)
    return worth


# -- the playout policy: rule-guided, on the engine's table ---------------------------------------


def policy(t: Table, rng: random.Random, w: PolicyWeights = DEFAULT_WEIGHTS) -> int:
    """A quick sensible action for the seat to act: swaps and cantes always, cheap winners for tricks
    worth taking, cheap discards otherwise; in Pocha, play to the bid. Now and then a random card."""
    legal = t.legal_ids()
    if len(legal) == 1:
        return legal[0]
    if t.phase not in (BIDDING, PARTNER_SINGING) and rng.random() < w.epsilon:
        cards = [a for a in legal if a < EXCHANGE]
        if len(cards) == len(legal):
            return rng.choice(cards)
    return greedy(t, legal, w)


def greedy(t: Table, legal: list[int], w: PolicyWeights = DEFAULT_WEIGHTS) -> int:
    """The policy's choice among ``legal``, without randomness."""
    if len(legal) == 1:
        return legal[0]
    phase = t.phase
    if phase == BIDDING:
        return _policy_bid(t, legal)
    if phase == PARTNER_SINGING:
        return _best_sing(t, legal)
    if legal[-1] >= EXCHANGE:
        if SING_TUTE in legal:
            return SING_TUTE
        for a in legal:
            if EXCHANGE <= a < SING:
                return a
        sing = _best_sing(t, legal)
        if sing != PASS:
            return sing
    cards = [a for a in legal if a < EXCHANGE]
    if len(cards) == 1:
        return cards[0]
    if t.rules.is_tute:
        return _tute_card(t, cards, w)
    return _pocha_card(t, cards)


def _best_sing(t: Table, legal: list[int]) -> int:
    sings = [a for a in legal if SING <= a < SING_TUTE]
    if not sings:
        return PASS
    return max(sings, key=lambda a: a - SING == t.trump)


def _held_pairs(t: Table, seat: int) -> tuple[tuple[int, int], ...]:
    """The pairs ``seat`` holds and has not sung: (mask, cante value) each."""
    hand = t.hands[seat]
    if not hand & (hand >> 1) & KNIGHTS_MASK:  # no 11 beside its 12: no pair at all (the usual case)
        return ()
    sung, trump = t.sung, t.trump
    return tuple(
        (PAIR_MASK[suit], 40 if suit == trump else 20)
        for suit in range(4)
        if not (sung >> suit) & 1 and hand & PAIR_MASK[suit] == PAIR_MASK[suit]
    )


def _keep(
    t: Table,
    seat: int,
    card: int,
    pairs: tuple[tuple[int, int], ...] | None = None,
    w: PolicyWeights = DEFAULT_WEIGHTS,
) -> float:
    """What a card is worth kept for later tricks: trumps by strength, and each card of a pair still to
    be sung (a share of the cante). ``pairs``: the seat's ``_held_pairs``, when the caller has them."""
    value = w.keep_trump + w.keep_trump_slope * STRENGTH[card] if SUIT_OF[card] == t.trump else 0.0
    for mask, worth in _held_pairs(t, seat) if pairs is None else pairs:
        if (mask >> card) & 1:
            value += worth * w.pair_keep
    return value


def _cante_after(
    t: Table,
    seat: int,
    spent: int,
    pairs: tuple[tuple[int, int], ...] | None = None,
    w: PolicyWeights = DEFAULT_WEIGHTS,
) -> float:
    """The cante ``seat`` could sing on winning this trick without card ``spent``."""
    if not t.rules.is_tute or (not t.rules.cantes_in_arrastre and t.faceup < 0):
        return 0.0
    best = 0
    for mask, worth in _held_pairs(t, seat) if pairs is None else pairs:
        if not (mask >> spent) & 1 and worth > best:
            best = worth
    return best * w.cante_weight


def _tute_card(t: Table, cards: list[int], w: PolicyWeights = DEFAULT_WEIGHTS) -> int:
    if t.n == 2:
        return _tute2_card(t, cards, w)
    trump = t.trump
    trick = t.trick
    me = t.to_act
    if not trick:
        if w.tute4_sure_leads:
            sure = [c for c in cards if SUIT_OF[c] != trump and _sure_lead(t, me, c)]
            if sure:
                return max(sure, key=lambda c: (POINTS[c], -c))
        return min(
            cards, key=lambda c: (SUIT_OF[c] == trump, POINTS[c] + _keep(t, me, c, None, w), STRENGTH[c])
        )
    last = len(trick) == t.n - 1
    win_card = t.win_card
    if t.side_of(t.win_seat) == t.side_of(me):
        if last or (len(trick) == 2 and t.win_seat != (me + 1) % 4):
            # the partner holds the trick: load points onto it, keeping trumps
            return max(
                cards, key=lambda c: (SUIT_OF[c] != trump, POINTS[c] - _keep(t, me, c, None, w), -STRENGTH[c])
            )
        return min(
            cards, key=lambda c: (SUIT_OF[c] == trump, POINTS[c] + _keep(t, me, c, None, w), STRENGTH[c])
        )
    winners = [c for c in cards if beats(c, win_card, trump)]
    if winners:
        value = sum(POINTS[c] for c in trick)
        cheapest = min(
            winners, key=lambda c: (SUIT_OF[c] == trump and SUIT_OF[trick[0]] != trump, STRENGTH[c])
        )
        if w.tute4_cover and not last:
            held = [c for c in winners if not _overtaken(t, me, c)]
            if held:
                cheapest = min(
                    held, key=lambda c: (SUIT_OF[c] == trump and SUIT_OF[trick[0]] != trump, STRENGTH[c])
                )
            elif len(winners) < len(cards):
                return min(
                    (c for c in cards if c not in winners),
                    key=lambda c: (SUIT_OF[c] == trump, POINTS[c] + _keep(t, me, c, None, w), STRENGTH[c]),
                )
        if last or value + POINTS[cheapest] >= w.tute4_ruff_points or SUIT_OF[cheapest] != trump:
            return cheapest
    return min(cards, key=lambda c: (SUIT_OF[c] == trump, POINTS[c] + _keep(t, me, c, None, w), STRENGTH[c]))


def _sure_lead(t: Table, me: int, card: int) -> bool:
    """Tute 4, every hand seen: ``card`` led wins the trick (both opponents must follow its suit and no
    other hand holds a higher card of it)."""
    suit = SUIT_MASK[SUIT_OF[card]]
    if STRONGER[card] & suit & (t.hands[(me + 1) % 4] | t.hands[(me + 2) % 4] | t.hands[(me + 3) % 4]):
        return False
    return bool(t.hands[(me + 1) % 4] & suit) and bool(t.hands[(me + 3) % 4] & suit)


def _overtaken(t: Table, me: int, card: int) -> bool:
    """Tute 4, every hand seen: whether the opponent next to play could beat ``card`` played now."""
    other = (me + 1) % 4
    replies = duty_mask(t.rules, t.trump, (*t.trick, card), me, card, False, other, t.hands[other])
    while replies:
        low = replies & -replies
        replies ^= low
        if beats(low.bit_length() - 1, card, t.trump):
            return True
    return False


def _tute2_card(t: Table, cards: list[int], w: PolicyWeights = DEFAULT_WEIGHTS) -> int:
    """Two players, every card of the sample seen: a one-trick look-ahead against the other hand's
    replies the duties allow, counting the trick's points, the cante winning it opens, and what each
    card is worth kept."""
    me = t.to_act
    other = 1 - me
    trump = t.trump
    trick = t.trick
    mine = _held_pairs(t, me)
    theirs = _held_pairs(t, other)
    draw = _draw_swing(t, w) if w.draw_weight and t.faceup >= 0 else 0.0
    if trick:
        lead = trick[0]
        taken = POINTS[lead]
        lost = _cante_after(t, other, lead, theirs, w) if theirs else 0.0
        best_card, best = cards[0], -1e9
        for c in cards:
            if beats(c, lead, trump):
                v = taken + POINTS[c] + (_cante_after(t, me, c, mine, w) if mine else 0.0) + draw
            else:
                v = -(taken + POINTS[c]) - lost - draw
            v -= _keep(t, me, c, mine, w)
            if v > best:
                best_card, best = c, v
        return best_card
    stock_open = t.faceup >= 0
    rules = t.rules
    their = t.hands[other]
    kept: dict[int, float] = {}  # the other hand's card worth kept, by card
    best_card, best = cards[0], -1e9
    for c in cards:
        replies = duty_mask(rules, trump, (c,), me, c, stock_open, other, their)
        gain = _cante_after(t, me, c, mine, w) if mine else 0.0
        worst = 1e9
        while replies:
            low = replies & -replies
            r = low.bit_length() - 1
            replies ^= low
            if beats(r, c, trump):
                v = (
                    -(POINTS[c] + POINTS[r])
                    - (_cante_after(t, other, r, theirs, w) if theirs else 0.0)
                    - draw
                )
            else:
                v = POINTS[c] + POINTS[r] + gain + draw
            keep = kept.get(r)
            if keep is None:
                keep = kept[r] = _keep(t, other, r, theirs, w)
            v += keep
            if v < worst:
                worst = v
        worst -= _keep(t, me, c, mine, w)
        if worst > best:
            best_card, best = c, worst
    return best_card


def _draw_swing(t: Table, w: PolicyWeights) -> float:
    """Tute 2 with the stock open, every card seen: what winning the trick is worth in the cards drawn
    (the winner draws the top card, the other the next), ``draw_weight`` of the difference."""
    stock, pos = t.stock, t.stock_pos
    first = stock[pos] if pos < len(stock) else t.faceup
    second = stock[pos + 1] if pos + 1 < len(stock) else t.faceup
    trump = t.trump

    def worth(card: int) -> float:
        if SUIT_OF[card] == trump:
            return POINTS[card] + w.keep_trump + w.keep_trump_slope * STRENGTH[card]
        return float(POINTS[card])

    return w.draw_weight * (worth(first) - worth(second))


def _pocha_card(t: Table, cards: list[int]) -> int:
    me = t.to_act
    trump = t.trump
    need = t.bids[me] - t.tricks_won[me]
    trick = t.trick
    if not trick:
        if need > 0:
            return max(cards, key=lambda c: (STRENGTH[c] + (20 if SUIT_OF[c] == trump else 0), -c))
        return min(cards, key=lambda c: (STRENGTH[c] + (20 if SUIT_OF[c] == trump else 0), c))
    winners = [c for c in cards if beats(c, t.win_card, trump)]
    if need > 0:
        if winners:
            last = len(trick) == t.n - 1
            pick = min if last else max
            return pick(winners, key=lambda c: (STRENGTH[c] + (20 if SUIT_OF[c] == trump else 0), c))
        return min(cards, key=lambda c: (STRENGTH[c] + (20 if SUIT_OF[c] == trump else 0), c))
    losers = [c for c in cards if c not in winners]
    if losers:  # duck with the strongest card that still loses
        return max(losers, key=lambda c: (STRENGTH[c] + (20 if SUIT_OF[c] == trump else 0), c))
    return min(cards, key=lambda c: (STRENGTH[c] + (20 if SUIT_OF[c] == trump else 0), c))


def hand_tricks(t: Table, seat: int) -> float:
    """A quick count of the tricks a Pocha hand should take: high trumps, aces, and the threes."""
    hand = t.hands[seat]
    trump = t.trump
    expected = 0.0
    k = hand.bit_count()
    trumps = (hand & SUIT_MASK[trump]).bit_count()
    for suit in range(4):
        cards = hand & SUIT_MASK[suit]
        while cards:
            low = cards & -cards
            card = low.bit_length() - 1
            cards ^= low
            strength = STRENGTH[card]
            if suit == trump:
                expected += 1.0 if strength >= 10 else 0.6 if strength >= 8 else 0.35
            elif strength == 12:
                expected += 0.8 if k > 2 else 0.5
            elif strength == 11:
                expected += 0.4 if k > 3 else 0.2
    if trumps >= 2 and k >= 4:
        expected += 0.3
    return expected


def _policy_bid(t: Table, legal: list[int]) -> int:
    expected = hand_tricks(t, t.to_act)
    return min(legal, key=lambda a: (abs(a - BID - expected), a))


class CheatBot:
    """The bench's ceiling: the search bot's search on the real deal, every hand seen. It cannot play
    from a view (``arena`` hands it the state), is not registered, and is never offered to users."""

    sees_all: Final = True

    def __init__(self, budget: Budget | None = None) -> None:
        self.search = SearchBot(budget)
        #: the solver of the deal being played, by (deal, rules, side): its memory of the positions it
        #: searched serves every later decision of that side, so a deep solve is paid once a game
        self._solver: tuple[object, Solver] | None = None

    def __call__(self, view: SeatView, legal: tuple[str, ...], rng: random.Random, /) -> str:
        raise TypeError("the cheat bot sees every hand: only the bench's arena can seat it")

    def choose_seeing_all(self, table: Table, legal: tuple[str, ...], rng: random.Random) -> str:
        budget = self.search.budget_for(table.rules.game)
        cards_left = sum(h.bit_count() for h in table.hands) + len(table.trick)
        if (
            len(legal) > 1
            and table.rules.is_tute
            and not table.rules.has_stock
            and cards_left <= budget.solve_cards
        ):
            key = (table.decks, table.rules, table.side_of(table.to_act))
            if self._solver is None or self._solver[0] != key:
                self._solver = (key, Solver(table, table.to_act, budget.solve_nodes * 4))
            available = table.legal_ids()
            choice = self._solver[1].best(
                table, [a for a in map(ACTION_OF_CODE.__getitem__, legal) if a in available]
            )
            if choice is not None:
                return CODE_OF_ACTION[choice]
        return self.search.choose_full(table, legal, rng)
