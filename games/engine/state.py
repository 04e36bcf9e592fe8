"""The public game state, in OpenSpiel's shape: ``legal_actions``, ``apply``, ``is_terminal``, ``result``.

A ``State`` is immutable: ``apply`` returns a new state or raises ``IllegalAction`` and leaves this one
as it was. What a seat may see of it is ``view(seat)``; nothing else about a state should leave the
server while the game runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import CODE_OF_ACTION, parse_action
from .cards import CODE_OF, SUITS
from .deal import canonical_deck, seeded_decks
from .hands import EV_SING, OVER, TUTE_SUIT
from .rules import Rules, RulesError
from .table import IllegalAction, Table
from .views import SeatView, seat_view


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of a finished game: scores per side, the winning sides, and what made them."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winners": list(self.winners), **self.details}


@dataclass(frozen=True, slots=True)
class State:
    table: Table = field(repr=False)

    # -- construction -----------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: Rules,
        *,
        dealer: int = 0,
        decks: tuple[tuple[int, ...], ...] | None = None,
        seed: str | None = None,
    ) -> State:
        """A game dealt from explicit decks (card indices, top first) or from a seed."""
        if not 0 <= dealer < rules.players:
            raise RulesError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer}")
        if (decks is None) == (seed is None):
            raise RulesError("a game is dealt from decks or from a seed, exactly one of them")
        if decks is None:
            assert seed is not None
            decks = seeded_decks(rules, seed)
        hands = len(rules.hand_sizes())
        if len(decks) != hands:
            raise RulesError(
                f"this {rules.game} game has {hands} hand(s) and needs one deck each, not {len(decks)}"
            )
        expected = sorted(canonical_deck(rules))
        for number, deck in enumerate(decks):
            if sorted(deck) != expected:
                raise RulesError(
                    f"deck {number} is not the {len(expected)}-card deck of this game, each card once"
                )
        return cls(Table.new(rules, dealer, tuple(tuple(d) for d in decks)))

    # -- OpenSpiel-shaped API -----------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.table.rules

    @property
    def ply(self) -> int:
        """Actions applied so far in the whole game."""
        return self.table.ply

    def current_player(self) -> int | None:
        """The seat to act, or None once the game is over."""
        return None if self.table.phase == OVER else self.table.to_act

    def legal_actions(self) -> tuple[str, ...]:
        """The legal action codes, sorted as strings."""
        return tuple(sorted(CODE_OF_ACTION[a] for a in self.table.legal_ids()))

    def apply(self, code: str) -> State:
        """The state after ``code`` by the seat to act; ``IllegalAction`` says why not."""
        try:
            action = parse_action(code)
        except ValueError as exc:
            raise IllegalAction(str(exc), code if isinstance(code, str) else None) from None
        self.table.check(action)
        table = self.table.clone()
        table.step(action)
        return State(table)

    def is_terminal(self) -> bool:
        return self.table.phase == OVER

    def result(self) -> Result | None:
        if self.table.phase != OVER:
            return None
        return game_result(self.table)

    def returns(self) -> tuple[float, ...]:
        """Per seat: 1 for a win, 0 otherwise (shared wins split), OpenSpiel-style; zeros mid-game."""
        t = self.table
        if t.phase != OVER:
            return (0.0,) * t.n
        winners = {s for s in range(t.n) if t.side_of(s) in t.result_winners}
        share = 1.0 / len(winners)
        return tuple(share if s in winners else 0.0 for s in range(t.n))

    def history(self) -> tuple[str, ...]:
        """Every action code applied so far, in order."""
        out: list[str] = []
        node = self.table.actions
        while node is not None:
            action, node = node
            out.append(CODE_OF_ACTION[action])
        out.reverse()
        return tuple(out)

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know (docs/RULES.md section 9); ``None`` gives the spectator's view."""
        if seat is not None and not 0 <= seat < self.table.n:
            raise ValueError(f"no seat {seat} in a game of {self.table.n}")
        result = self.result()
        return seat_view(self.table, seat, result.to_dict() if result else None)


def game_result(t: Table) -> Result:
    details: dict[str, Any]
    if t.rules.is_tute:
        points = list(t.points)
        cantes = list(t.cantes)
        if t.rules.has_partners:
            points = [points[0] + points[2], points[1] + points[3]]
            cantes = [cantes[0] + cantes[2], cantes[1] + cantes[3]]
        details = {
            "points": points,
            "cantes": cantes,
            "sung": [
                {"seat": seat, "suit": "tute" if suit == TUTE_SUIT else SUITS[suit], "points": value}
                for kind, seat, suit, value in t.log
                if kind == EV_SING
            ],
            "last_trick": t.last_winner,
            "last_trick_bonus": 10 if t.rules.last_trick_bonus and t.tute_by < 0 else 0,
            "tute": t.tute_by if t.tute_by >= 0 else None,
            "tricks": list(t.tricks_won),
            "trump": SUITS[t.trump],
            "trump_card": CODE_OF[t.trump_card],
        }
    else:
        details = {"hands": [h.to_dict() for h in t.hand_results]}
    return Result(scores=t.result_scores, winners=t.result_winners, details=details)
