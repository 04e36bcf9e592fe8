"""Play games between bots through the public ``State`` API: the bench and the tests use it.

Each bot is handed only ``state.view(seat)`` and ``state.legal_actions()``, with its own seeded
``random.Random``, so a game is a pure function of the rules, the deal, the dealer and ``rng_seed``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import Rules, State

from . import Bot


class BotError(RuntimeError):
    """A bot answered with something that is not one of the legal actions."""

    def __init__(self, seat: int, action: object, legal: tuple[str, ...], ply: int) -> None:
        super().__init__(
            f"the bot at seat {seat} chose {action!r} at ply {ply}, which is not legal: {', '.join(legal)}"
        )
        self.seat = seat
        self.action = action
        self.legal = legal
        self.ply = ply


def seat_rngs(rng_seed: int | str, players: int) -> list[random.Random]:
    """One independent, seeded generator per seat."""
    return [random.Random(f"{rng_seed}:{seat}") for seat in range(players)]


def play_game(
    rules: Rules,
    bots: Sequence[Bot],
    *,
    seed: str | None = None,
    decks: tuple[tuple[int, ...], ...] | None = None,
    dealer: int = 0,
    rng_seed: int | str = 0,
) -> State:
    """Deal from ``seed`` (or explicit ``decks``) and let ``bots[seat]`` play each seat to the end."""
    if len(bots) != rules.players:
        raise ValueError(f"{rules.game} here has {rules.players} seats: got {len(bots)} bots")
    state = State.new(rules, dealer=dealer, seed=seed, decks=decks)
    return play_out(state, bots, seat_rngs(rng_seed, rules.players))


def play_out(state: State, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> State:
    """Play ``state`` to the end; ``BotError`` if a bot chooses an illegal action."""
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        legal = state.legal_actions()
        bot = bots[seat]
        if getattr(bot, "sees_all", False):  # the bench's cheat: handed the whole table
            action = bot.choose_seeing_all(state.table, legal, rngs[seat])  # type: ignore[attr-defined]
        else:
            action = bot(state.view(seat), legal, rngs[seat])
        if not isinstance(action, str) or action not in legal:
            raise BotError(seat, action, legal, state.ply)
        state = state.apply(action)
    return state


@dataclass(frozen=True, slots=True)
class Duel:
    """Tute head to head: how many of ``games`` the bot's side won."""

    game: str
    deals: int
    games: int
    wins: float  # a game both sides won (a tie) counts a half
    points: int = 0  # the points the bot's side scored, over every game
    points_total: int = 0  # both sides' points

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def points_share(self) -> float:
        return self.points / self.points_total if self.points_total else 0.5


def duel(
    game: str,
    bot: Bot,
    opponent: Bot,
    *,
    deals: int,
    seed: str,
    options: Mapping[str, Any] | None = None,
) -> Duel:
    """Each deal played twice with the same seed: ``bot`` holds seat 0 (seats 0+2 in Tute 4), then seat 1
    (seats 1+3), ``opponent`` the other seats. The dealer alternates across deals."""
    rules = Rules.build(game, options=options)
    if not rules.is_tute:
        raise ValueError(f"a duel is a Tute game (tute2, tute4), not {game}")
    n = rules.players
    wins = 0.0
    games = points = points_total = 0
    for deal in range(deals):
        deal_seed = f"{seed}:{game}:{deal}"
        for side in (0, 1):
            bots = [bot if rules.side_of(seat) == side else opponent for seat in range(n)]
            state = play_game(rules, bots, seed=deal_seed, dealer=deal % n, rng_seed=deal_seed)
            result = state.result()
            assert result is not None
            if side in result.winners:
                wins += 1.0 / len(result.winners)
            games += 1
            points += result.scores[side]
            points_total += result.scores[0] + result.scores[1]
    return Duel(game=game, deals=deals, games=games, wins=wins, points=points, points_total=points_total)


@dataclass(frozen=True, slots=True)
class PochaTable:
    """Pocha: one ``bot`` against ``players - 1`` opponents over ``games`` whole games."""

    players: int
    games: int
    bot_total: int  # the bot's final totals, added up
    others_total: int  # the opponents' final totals, added up
    first: int  # games the bot finished first, alone or tied
    first_alone: int

    @property
    def bot_average(self) -> float:
        return self.bot_total / self.games if self.games else 0.0

    @property
    def others_average(self) -> float:
        """An opponent's average final total."""
        return self.others_total / (self.games * (self.players - 1)) if self.games else 0.0


def pocha_table(
    bot: Bot,
    opponent: Bot,
    *,
    games: int,
    seed: str,
    players: int = 4,
    options: Mapping[str, Any] | None = None,
) -> PochaTable:
    """Whole Pocha games; the bot's seat moves round the table game by game, so does the first dealer."""
    rules = Rules.build("pocha", players, options)
    bot_total = others_total = first = first_alone = 0
    for number in range(games):
        game_seed = f"{seed}:pocha:{number}"
        seat = number % players
        bots = [bot if s == seat else opponent for s in range(players)]
        state = play_game(
            rules, bots, seed=game_seed, dealer=(number // players) % players, rng_seed=game_seed
        )
        result = state.result()
        assert result is not None
        scores = result.scores
        bot_total += scores[seat]
        others_total += sum(scores) - scores[seat]
        if seat in result.winners:
            first += 1
            first_alone += len(result.winners) == 1
    return PochaTable(
        players=players,
        games=games,
        bot_total=bot_total,
        others_total=others_total,
        first=first,
        first_alone=first_alone,
    )


@dataclass(frozen=True, slots=True)
class PochaDuel:
    """Pocha, two bots at one table: over ``games`` whole games, each played twice with the bots' seats
    swapped, every seat of the bot compared with every seat of the opponent by their final totals
    (1 to the higher, a half each when equal: the comparisons the Pocha rating pool makes)."""

    players: int
    games: int
    comparisons: int
    wins: float
    bot_total: int  # the bot's seats' final totals, added up
    opponent_total: int

    @property
    def share(self) -> float:
        return self.wins / self.comparisons if self.comparisons else 0.0


def pocha_duel(
    bot: Bot,
    opponent: Bot,
    *,
    games: int,
    seed: str,
    players: int = 4,
    options: Mapping[str, Any] | None = None,
) -> PochaDuel:
    """Whole Pocha games on duplicate deals: ``bot`` in the even seats and ``opponent`` in the odd ones,
    then the other way round on the same deal; the first dealer moves round game by game."""
    rules = Rules.build("pocha", players, options)
    comparisons = 0
    wins = 0.0
    bot_total = opponent_total = 0
    for number in range(games):
        game_seed = f"{seed}:pocha:{number}"
        for parity in (0, 1):
            mine = [s for s in range(players) if s % 2 == parity]
            bots = [bot if s in mine else opponent for s in range(players)]
            state = play_game(rules, bots, seed=game_seed, dealer=number % players, rng_seed=game_seed)
            result = state.result()
            assert result is not None
            scores = result.scores
            for a in mine:
                bot_total += scores[a]
                for b in range(players):
                    if b in mine:
                        continue
                    comparisons += 1
                    wins += 1.0 if scores[a] > scores[b] else 0.5 if scores[a] == scores[b] else 0.0
            opponent_total += sum(scores[b] for b in range(players) if b not in mine)
    return PochaDuel(
        players=players,
        games=2 * games,
        comparisons=comparisons,
        wins=wins,
        bot_total=bot_total,
        opponent_total=opponent_total,
    )
