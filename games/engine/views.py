"""Per-seat views (docs/RULES.md section 9): the only projection of a game that leaves the server.

A view is built from public facts plus the seat's own hand, never by copying the state and deleting
secrets, so a new field on the state cannot leak by accident.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import CODE_OF_ACTION
from .cards import CODE_OF, SUITS, codes_of
from .hands import EV_BID, EV_EXCHANGE, EV_PASS, EV_PLAY, EV_SING, EV_TRICK, PHASE_NAMES, TUTE_SUIT

if TYPE_CHECKING:
    from .table import Table


@dataclass(frozen=True, slots=True)
class TrickView:
    leader: int
    cards: tuple[tuple[int, str], ...]  # (seat, card code) in play order
    winner: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": [[s, c] for s, c in self.cards],
            "winner": self.winner,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class SeatView:
    game: str
    players: int
    seat: int | None  # None: a spectator
    game_ply: int  # actions of this game so far (the API's envelope "ply" counts the whole match's)
    phase: str  # bid, play, partner_sing, over
    to_act: int | None
    hand_number: int  # Pocha counts hands from 0; Tute games have one
    hands_total: int
    cards_dealt: int  # cards each player got this hand
    dealer: int
    mano: int
    trump: str
    trump_card: str  # the card that set trump (Tute 2's first face-up card)
    trump_card_holder: int | None  # the dealer when it stays in the dealer's hand
    faceup: str | None  # Tute 2: the card under the stock while it lies there
    stock_size: int
    hand: tuple[str, ...]  # the seat's own cards; empty for a spectator
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[str, ...], ...]  # per seat: cards everyone knows are in that hand
    leader: int
    trick: tuple[tuple[int, str], ...]  # the trick on the table
    tricks: tuple[TrickView, ...]  # finished tricks of this hand
    exchanges: tuple[tuple[int, str, str], ...]  # (seat, card given, card taken)
    cantes: tuple[tuple[int, str, int], ...]  # (seat, suit or "tute", points)
    passes: tuple[int, ...]  # partners who passed a chance to sing (partner_may_sing)
    bids: tuple[int | None, ...]  # Pocha
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]  # card points won this hand, per seat
    scores: tuple[int, ...]  # per side: Tute points with cantes; Pocha totals of finished hands
    hands_played: tuple[dict[str, Any], ...]  # Pocha: every finished hand, with its tricks
    result: dict[str, Any] | None
    options: dict[str, Any]  # every rules flag of the game with its value (docs/RULES.md), as in a record
    actions: tuple[str, ...]  # this hand's action codes in order: every action is public

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "game_ply": self.game_ply,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand_number": self.hand_number,
            "hands_total": self.hands_total,
            "cards_dealt": self.cards_dealt,
            "dealer": self.dealer,
            "mano": self.mano,
            "trump": self.trump,
            "trump_card": self.trump_card,
            "trump_card_holder": self.trump_card_holder,
            "faceup": self.faceup,
            "stock_size": self.stock_size,
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "known": [list(k) for k in self.known],
            "leader": self.leader,
            "trick": [[s, c] for s, c in self.trick],
            "tricks": [t.to_dict() for t in self.tricks],
            "exchanges": [{"seat": s, "gave": g, "took": t} for s, g, t in self.exchanges],
            "cantes": [{"seat": s, "suit": suit, "points": p} for s, suit, p in self.cantes],
            "passes": list(self.passes),
            "bids": list(self.bids),
            "tricks_won": list(self.tricks_won),
            "points": list(self.points),
            "scores": list(self.scores),
            "hands_played": list(self.hands_played),
            "result": self.result,
            "options": dict(self.options),
            "actions": list(self.actions),
        }


def seat_view(t: Table, seat: int | None, result: dict[str, Any] | None) -> SeatView:
    tricks: list[TrickView] = []
    current: list[tuple[int, str]] = []
    exchanges: list[tuple[int, str, str]] = []
    cantes: list[tuple[int, str, int]] = []
    passes: list[int] = []
    for kind, who, a, b in t.log:
        if kind == EV_PLAY:
            current.append((who, CODE_OF[a]))
        elif kind == EV_TRICK:
            tricks.append(TrickView(leader=current[0][0], cards=tuple(current), winner=who, points=a))
            current = []
        elif kind == EV_EXCHANGE:
            exchanges.append((who, CODE_OF[a], CODE_OF[b]))
        elif kind == EV_SING:
            cantes.append((who, "tute" if a == TUTE_SUIT else SUITS[a], b))
        elif kind == EV_PASS:
            passes.append(who)
        elif kind != EV_BID:  # bids are read from t.bids
            raise AssertionError(f"unknown event {kind}")
    over = result is not None
    shown_holder = t.dealer if (t.known[t.dealer] >> t.trump_card) & 1 and t.rules.game != "tute2" else None
    return SeatView(
        game=t.rules.game,
        players=t.n,
        seat=seat,
        game_ply=t.ply,
        phase=PHASE_NAMES[t.phase],
        to_act=None if over else t.to_act,
        hand_number=t.hand_no,
        hands_total=len(t.sizes),
        cards_dealt=t.sizes[t.hand_no],
        dealer=t.dealer,
        mano=(t.dealer + 1) % t.n,
        trump=SUITS[t.trump],
        trump_card=CODE_OF[t.trump_card],
        trump_card_holder=shown_holder,
        faceup=CODE_OF[t.faceup] if t.faceup >= 0 else None,
        stock_size=t.stock_size,
        hand=tuple(codes_of(t.hands[seat])) if seat is not None else (),
        hand_sizes=tuple(h.bit_count() for h in t.hands),
        known=tuple(tuple(codes_of(k)) for k in t.known),
        leader=t.leader,
        trick=tuple(current),
        tricks=tuple(tricks),
        exchanges=tuple(exchanges),
        cantes=tuple(cantes),
        passes=tuple(passes),
        bids=tuple(b if b >= 0 else None for b in t.bids),
        tricks_won=t.tricks_won,
        points=t.points,
        scores=t.side_scores() if t.rules.is_tute else t.totals,
        hands_played=tuple(h.record() for h in t.hand_results),
        result=result,
        options=t.rules.to_options(),
        actions=hand_actions(t),
    )


def hand_actions(t: Table) -> tuple[str, ...]:
    """The current hand's action codes in order: one event of the hand's log per action, the tricks'
    closing events aside, so the newest that many of the game's actions."""
    count = sum(1 for event in t.log if event[0] != EV_TRICK)
    out: list[str] = []
    node = t.actions
    while node is not None and len(out) < count:
        action, node = node
        out.append(CODE_OF_ACTION[action])
    out.reverse()
    return tuple(out)
