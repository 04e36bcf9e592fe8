"""The exact solver of the rest of a Tute hand with every card known, on the engine's own ``Table``.

It serves the search bot (Tute 2's arrastre, Tute 4's endgame on sampled deals, the bench's cheat) and
the rule bot's endgames. The value of a position is the solving seat's side's final margin from there on
(cantes and the last trick included; a tute declared is worth ``TUTE_VALUE``), plus or minus
``WIN_BONUS`` by the margin's sign, as the search scores a finished hand.

``Solver`` is alpha-beta with a memory of the positions between tricks, and three savings that leave
every value unchanged (``PlainSolver``, the straightforward alpha-beta, is what tests and
``bench/solver.py`` check it against):

- equivalent cards are searched once: two cards of one suit in the mover's hand, with the same points and
  no card still in play (in a hand or on the trick) between them in strength, lead to the same value
  (every duty and every trick compares strengths, and only 12s and 11s sing, which differ in points);
- the move remembered best in a position between tricks is tried first, else the last move that cut at
  that depth (a killer), then cheap cards that win the trick, points onto a partner's trick, and low
  discards: cuts come sooner;
- a card forced (the only legal one) is stepped in place, and so is the last action tried at a position:
  fewer copies of the table;
- the margin is read only after a step that can change it (a trick closed, a cante, the hand's end).
"""

from __future__ import annotations

from typing import Final

from games.engine.actions import EXCHANGE
from games.engine.cards import POINTS, STRENGTH, STRONGER, SUIT_OF
from games.engine.hands import OVER
from games.engine.table import Table
from games.engine.tricks import beats

#: A won Tute game is worth this many points of margin (the service rates wins; the bench counts points).
WIN_BONUS: Final = 30
#: A tute declared ends the hand: worth more than any margin.
TUTE_VALUE: Final = 400

_INFINITY: Final = 10_000.0


class OutOfNodes(Exception):
    """The solve needs more positions than its budget."""


class Solver:
    """Alpha-beta over the rest of a Tute hand with every card known (see the module's docstring)."""

    def __init__(self, root: Table, seat: int, max_nodes: int) -> None:
        self.side = root.side_of(seat)
        self.partners = root.rules.has_partners
        self.nodes = 0
        self.max_nodes = max_nodes
        #: between tricks: key -> (value, bound: 0 exact, 1 lower, -1 upper, the best action)
        self.memo: dict[tuple[object, ...], tuple[float, int, int]] = {}
        #: by ply: the action that last cut the search there, tried early at its siblings
        self.killers: dict[int, int] = {}

    def value(self, table: Table) -> float | None:
        """The seat's value of ``table`` played out perfectly; None when the solve needs more than its
        nodes."""
        if table.phase == OVER:
            return self._final(table)
        self.nodes = 0
        try:
            future = self._search(table.clone(), -_INFINITY, _INFINITY)
        except OutOfNodes:
            return None
        if abs(future) >= TUTE_VALUE / 2:
            return future  # a tute declared settles the hand
        total = self._margin(table) + future
        return total + (WIN_BONUS if total > 0 else -WIN_BONUS if total < 0 else 0)

    def best(self, table: Table, actions: list[int]) -> int | None:
        """The action of ``actions`` with the best margin (the first of the best in the order cantes and
        swaps, then the strongest cards), searched as one alpha-beta root; None when past its nodes."""
        self.nodes = 0
        before = self._margin(table)
        choice, best, alpha = None, -1e9, -_INFINITY
        try:
            for action in self._root_order(table, actions):
                child = table.clone()
                child.step(action)
                gain = self._gain(child, before)
                value = gain + self._search(child, alpha - gain, _INFINITY - gain)
                if value > best:
                    choice, best, alpha = action, value, max(alpha, value)
        except OutOfNodes:
            return None
        return choice

    def _root_order(self, table: Table, actions: list[int]) -> list[int]:
        """The root's actions in the order searched: cantes and swaps, then the strongest cards, one of
        each set of equivalent cards."""
        return _distinct(table, _strongest_first(actions))

    def _margin(self, t: Table) -> float:
        scores = t.side_scores()
        return float(scores[self.side] - scores[1 - self.side])

    def _final(self, t: Table) -> float:
        if t.tute_by >= 0:
            return TUTE_VALUE if self.side in t.result_winners else -TUTE_VALUE
        margin = self._margin(t)
        return margin + (WIN_BONUS if self.side in t.result_winners else -WIN_BONUS)

    def _gain(self, child: Table, before: float) -> float:
        """The margin a step added (``before``: the margin before it)."""
        if child.phase == OVER:
            return 0.0 if child.tute_by >= 0 else self._margin(child) - before
        return self._margin(child) - before

    def _search(self, t: Table, alpha: float, beta: float) -> float:
        """The margin still to come from ``t`` (tute: +/- TUTE_VALUE). ``t`` is the solver's own: it is
        stepped in place (the forced cards of a trick, and the last action tried)."""
        gained = 0.0
        while True:
            if t.phase == OVER:
                if t.tute_by >= 0:
                    return gained + (TUTE_VALUE if t.side_of(t.tute_by) == self.side else -TUTE_VALUE)
                return gained
            self.nodes += 1
            if self.nodes > self.max_nodes:
                raise OutOfNodes
            if not t.trick:
                return gained + self._node(t, alpha - gained, beta - gained, None)
            legal = t.legal_ids()
            if len(legal) > 1:
                return gained + self._node(t, alpha - gained, beta - gained, legal)
            # one card to play: step on in place, no copy and no ordering
            if len(t.trick) < t.n - 1:
                t.step(legal[0])  # the trick goes on: the margin is the same
                continue
            before = self._margin(t)
            t.step(legal[0])
            if t.phase != OVER or t.tute_by < 0:
                gained += self._margin(t) - before

    def _node(self, t: Table, alpha: float, beta: float, legal: list[int] | None) -> float:
        """``_search`` at a position with a choice (or between tricks, where it is remembered)."""
        key = None
        hint = -1
        if legal is None:
            key = (t.hands, t.to_act, t.sung, t.window_sang, t.phase, t.faceup, t.pre_draw)
            found = self.memo.get(key)
            if found is not None:
                value, bound, hint = found
                if bound == 0 or (bound > 0 and value >= beta) or (bound < 0 and value <= alpha):
                    return value
            legal = t.legal_ids()
        ours = t.side_of(t.to_act) == self.side
        tricks, sung = t.tricks_done, t.sung
        before = None
        depth = t.ply
        if hint < 0:
            hint = self.killers.get(depth, -1)
        legal = _ordered(t, self.partners, legal, hint)
        best = -1e9 if ours else 1e9
        best_action = legal[0]
        low, high = alpha, beta
        last = legal[-1]
        for action in legal:
            if action == last:
                if before is None:
                    before = self._margin(t)
                child = t  # the last one tried: no copy
            else:
                child = t.clone()
            child.step(action)
            if child.phase != OVER and child.tricks_done == tricks and child.sung == sung:
                gain = 0.0  # only a closed trick, a cante or the hand's end change the margin
            else:
                if before is None:
                    before = self._margin(t)
                gain = 0.0 if child.phase == OVER and child.tute_by >= 0 else self._margin(child) - before
            value = gain + self._search(child, low - gain, high - gain)
            if ours:
                if value > best:
                    best, best_action = value, action
                    if value > low:
                        low = value
            elif value < best:
                best, best_action = value, action
                if value < high:
                    high = value
            if low >= high:
                self.killers[depth] = action
                break
        if key is not None:
            self.memo[key] = (best, 1 if best >= beta else -1 if best <= alpha else 0, best_action)
        return best


def _distinct(t: Table, actions: list[int]) -> list[int]:
    """``actions`` without the cards equivalent to one kept before them (the module's docstring); the
    order is kept, and of equivalent cards the first one stays."""
    if t.faceup >= 0:  # a stock still to draw (the solver runs once it is drawn): no pruning
        return actions
    live = 0
    for hand in t.hands:
        live |= hand
    for card in t.trick:
        live |= 1 << card
    # the mover's own cards between two of its cards with their points are equivalent to them too (the
    # duties cut a suit's legal cards at a card on the trick, so they are legal alike)
    live &= ~t.hands[t.to_act]
    out: list[int] = []
    kept: list[int] = []
    for action in actions:
        if action < EXCHANGE:
            points = POINTS[action]
            strength = STRENGTH[action]
            suit = SUIT_OF[action]
            twin = False
            for other in kept:
                if SUIT_OF[other] != suit or POINTS[other] != points:
                    continue
                low, high = (action, other) if STRENGTH[other] > strength else (other, action)
                # strictly between: stronger than the low card, not the high one nor stronger
                between = STRONGER[low] & ~STRONGER[high] & ~(1 << high)
                if not between & live:
                    twin = True
                    break
            if twin:
                continue
            kept.append(action)
        out.append(action)
    return out


def _ordered(t: Table, partners: bool, legal: list[int], hint: int) -> list[int]:
    """The legal actions without equivalent cards, the likely best first: the remembered best, cantes
    and swaps, then (following) the cheapest winning card or points onto a partner's trick, or the
    lowest discard; (leading) the strongest cards."""
    if len(legal) > 1:
        trick = t.trick
        if not trick:
            legal = _strongest_first(legal)
        else:
            trump = t.trump
            win_card = t.win_card
            me = t.to_act
            n = t.n
            last = len(trick) == n - 1
            friendly = t.side_of(t.win_seat) == t.side_of(me) if partners else False
            if friendly and (last or len(trick) == 2):
                # the partner holds the trick (and, second to play after it, only one seat is left):
                # points onto it first, trumps last
                legal.sort(key=lambda a: (SUIT_OF[a] == trump, -POINTS[a], STRENGTH[a]))
            else:

                def key(a: int) -> tuple[int, int, int]:
                    if beats(a, win_card, trump):  # winners first, the cheapest in strength
                        return (0, SUIT_OF[a] == trump, STRENGTH[a])
                    return (1, POINTS[a], STRENGTH[a])

                legal.sort(key=key)
        legal = _distinct(t, legal)
    if hint >= 0 and legal[0] != hint and hint in legal:
        legal.remove(hint)
        legal.insert(0, hint)
    return legal


class PlainSolver(Solver):
    """The straightforward alpha-beta ``Solver`` must agree with (its values are the same, only slower):
    every legal action searched, strongest first, the positions between tricks remembered. Tests and
    ``bench/solver.py`` only."""

    def __init__(self, root: Table, seat: int, max_nodes: int) -> None:
        super().__init__(root, seat, max_nodes)
        self.plain_memo: dict[tuple[object, ...], tuple[float, int]] = {}

    def _root_order(self, table: Table, actions: list[int]) -> list[int]:
        return _strongest_first(actions)

    def _search(self, t: Table, alpha: float, beta: float) -> float:
        if t.phase == OVER:
            if t.tute_by >= 0:
                return TUTE_VALUE if t.side_of(t.tute_by) == self.side else -TUTE_VALUE
            return 0.0
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise OutOfNodes
        key = None
        if not t.trick:
            key = (t.hands, t.to_act, t.sung, t.window_sang, t.phase, t.faceup, t.pre_draw)
            found = self.plain_memo.get(key)
            if found is not None:
                value, bound = found
                if bound == 0 or (bound > 0 and value >= beta) or (bound < 0 and value <= alpha):
                    return value
        ours = t.side_of(t.to_act) == self.side
        before = self._margin(t)
        best = -1e9 if ours else 1e9
        low, high = alpha, beta
        for action in _strongest_first(t.legal_ids()):
            child = t.clone()
            child.step(action)
            gain = self._gain(child, before)
            value = gain + self._search(child, low - gain, high - gain)
            if ours:
                if value > best:
                    best = value
                    low = max(low, value)
            elif value < best:
                best = value
                high = min(high, value)
            if low >= high:
                break
        if key is not None:
            self.plain_memo[key] = (best, 1 if best >= beta else -1 if best <= alpha else 0)
        return best


def _strongest_first(actions: list[int]) -> list[int]:
    """Cantes and swaps first, then the strongest cards: cuts come sooner."""
    return sorted(actions, key=lambda a: (a < EXCHANGE, -STRENGTH[a] if a < EXCHANGE else 0))
