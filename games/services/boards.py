"""Boards: fixed deals with their own seeds and commitments (RULES.md section 11), shared by the plays of
a duplicate match and by every table of a duplicate tournament's round.

A board is dealt once, when it is made: its server seed is drawn from the OS's secure source, its
commitment is public at once, and its seeds and decks stay secret until every match that plays it is
over (``boards_reveal``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine import CODE_OF, Rules, RulesError, State
from games.engine.fair import commitment, deal_seed
from games.errors import InvalidRules
from games.models import Board, Match, MatchBoard


def new_server_seed() -> str:
    """32 bytes from the OS's cryptographic source, as 64 lowercase hexadecimal characters."""
    return secrets.token_hex(32)


@transaction.atomic
def board_create(
    *,
    game: str,
    players: int | None,
    options: dict[str, Any] | None,
    dealer: int,
    server_seed: str | None = None,
    client_seeds: Sequence[str] | None = None,
) -> Board:
    """A new board for ``game``: dealt now from ``server_seed`` (a new one by default) and the client
    seeds (by game seat; none for a board shared by tables, whose players must not choose its cards)."""
    try:
        rules = Rules.build(game, players, options or {})
    except RulesError as exc:
        raise InvalidRules(str(exc)) from None
    if not 0 <= dealer < rules.players:
        raise InvalidRules(f"the dealer is a seat from 0 to {rules.players - 1}")
    server_seed = server_seed or new_server_seed()
    seeds = list(client_seeds) if client_seeds is not None else [""] * rules.players
    seed = deal_seed(server_seed, seeds)
    state = State.new(rules, dealer=dealer, seed=seed)
    return Board.objects.create(
        game=rules.game,
        num_players=rules.players,
        options=rules.to_options(),
        dealer=dealer,
        server_seed=server_seed,
        seed_sha256=commitment(server_seed),
        client_seeds=seeds,
        seed=seed,
        decks=[[CODE_OF[c] for c in deck] for deck in state.table.decks],
    )


def board_redeal(board: Board, *, client_seeds: Sequence[str]) -> Board:
    """Deal a board that nobody has played yet again from its server seed and new client seeds (a seat
    of the only match playing it changed its client seed before the first action)."""
    rules = Rules.build(board.game, board.num_players, board.options)
    board.client_seeds = list(client_seeds)
    board.seed = deal_seed(board.server_seed, board.client_seeds)
    state = State.new(rules, dealer=board.dealer, seed=board.seed)
    board.decks = [[CODE_OF[c] for c in deck] for deck in state.table.decks]
    board.save(update_fields=["client_seeds", "seed", "decks"])
    return board


def boards_reveal(*, match: Match) -> int:
    """Reveal the boards of ``match`` that no match still plays (called as a match ends, in its
    transaction); how many were revealed."""
    live = (Match.Status.OPEN, Match.Status.IN_PROGRESS)
    waiting = Board.objects.filter(match_boards__match=match, revealed_at__isnull=True)
    done = [
        pk
        for pk in waiting.values_list("pk", flat=True)
        if not MatchBoard.objects.filter(board_id=pk, match__status__in=live).exclude(match=match).exists()
    ]
    return Board.objects.filter(pk__in=done).update(revealed_at=timezone.now())
