"""A match asked for, read and checked once: ``match_spec`` turns a request into a ``MatchSpec`` that
``match_create`` only writes.

Every refusal of a new match (the seats, the rules, the format, the clock, the players named, the
client seeds, a bot account not validated for a rated match) is raised here, with the domain errors the
API answers with; the one left to ``match_create`` is the open-match quota (``MatchSpec.capped``),
which is counted under the creator's row lock in the creating transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.bots import BOT_LEVELS
from games.engine import Rules, RulesError
from games.engine.fair import client_seed_problem
from games.engine.rules import PLAYERS
from games.errors import (
    ChallengeCooldown,
    InvalidClientSeed,
    InvalidRules,
    InvalidSeats,
    UnknownPlayer,
)
from games.models import Board, Match, Player, Seat
from games.policies import rated_match_refusal
from games.selectors import SEAT_PLAYER_RELATIONS

MAX_MOVE_SECONDS = 24 * 3600


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """How a seat starts: a player by handle, a house bot of a level, or empty (all None); its optional
    client seed (RULES.md section 11)."""

    player: str | None = None
    bot: str | None = None
    client_seed: str | None = None


@dataclass(frozen=True, slots=True)
class Clock:
    """Seconds per move for people and for bot accounts, and the timeouts that forfeit a match."""

    human_move_seconds: int = 120
    bot_move_seconds: int = 15
    max_timeouts: int = 3


@dataclass(frozen=True, slots=True)
class SeatPlan:
    """A seat as it is created: its player (found) or house bot level ("" for none), whether the seat
    is accepted already, and its client seed ("" for none)."""

    player: Player | None
    bot_level: str
    accepted: bool
    client_seed: str


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """A new match, checked: everything ``match_create`` writes, nothing left to refuse but the quota."""

    created_by: Player
    rules: Rules
    format: str
    format_target: int
    seats: tuple[SeatPlan, ...]
    rated: bool
    clock: Clock
    managed: bool
    capped: bool
    boards: tuple[Board, ...] | None
    private: bool = False
    rematch_of: Match | None = None


def match_spec(
    *,
    created_by: Player,
    game: str,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    format: str = Match.Format.SINGLE,
    format_target: int = 1,
    seats: Sequence[SeatSpec] | None = None,
    rated: bool | None = None,
    clock: Clock | None = None,
    challenge: bool = True,
    managed: bool = False,
    client_seed: str | None = None,
    capped: bool = False,
    boards: Sequence[Board] | None = None,
    private: bool = False,
    rematch_of: Match | None = None,
) -> MatchSpec:
    """A new match's spec; the creator sits at seat 0 unless ``seats`` says otherwise.

    ``seats`` places exactly those players, house bots and empty seats: without ``players`` they set the
    player count (Pocha 2 to 6; the Tute games need 2 and 4 of them); with it they must agree.

    A player seated by someone else is challenged: the seat waits for them to accept (at once for a
    bot set to accept automatically). The match starts when every seat is filled and accepted.
    ``challenge=False`` seats everyone as accepted (a tournament's pairing, which the players agreed to
    by entering): the match starts at once when every seat is filled.

    ``managed``: the calling service (a tournament) alone ends the match (``match_call_off``); the
    games API refuses to abort it.

    ``client_seed`` is the creator's (RULES.md section 11); a seat spec may carry its own. The first
    game's server seed is drawn when the match is created and its commitment shown while it is open.

    A bot account plays rated matches of a game only once validated for it (the ladder's rated-match policy): ``rated=None``
    makes the match rated unless such a bot sits or creates it, and ``rated=True`` with one is refused
    (``bot_not_validated``). Pairings made with ``challenge=False`` (tournaments, the ladder) are the
    organiser's to check.

    ``boards`` (a duplicate match only, one per board of ``format_target``, for this game, player count
    and options): the match plays these boards, which other matches may play too (a duplicate
    tournament's tables), instead of boards of its own dealt as it goes. Their cards are fixed: client
    seeds do not change them.

    ``capped`` (a match asked for by an account, through the API or the website): ``match_create``
    refuses it with ``TooManyOpenMatches`` when the creator already has ``TUTE_MAX_OPEN_MATCHES``
    matches of their own open or in play, so that no account floods the house bots' workers.

    ``private``: the table is not listed (the lobby, the match list while it is open) and is joined with
    its invite code only. A person who declined the creator's challenge within
    ``TUTE_CHALLENGE_COOLDOWN_SECONDS`` cannot be challenged by them again yet (``ChallengeCooldown``).
    """
    if seats is not None:
        players = _table_size(game, players, seats)
    rules = _rules(game, players, options)
    format_target = _format_target(format, format_target)
    if boards is not None:
        _check_boards(boards, rules, format, format_target)
    clock = clock or Clock()
    _check_clock(clock)
    wanted = list(seats) if seats is not None else [SeatSpec(player=created_by.handle)]
    wanted += [SeatSpec()] * (rules.players - len(wanted))  # without seats: the creator, then empty
    by_handle = _players_named(wanted)
    _check_seats(wanted)
    if client_seed is not None:
        check_client_seed(client_seed)
    if challenge:
        rated = rated_for_bots(rules.game, [created_by, *by_handle.values()], rated)
    plans = _seat_plans(
        wanted, by_handle, created_by=created_by, challenge=challenge, client_seed=client_seed
    )
    for plan in plans:
        if not plan.accepted and plan.player is not None and not plan.player.is_bot:
            _check_cooldown(created_by, plan.player)
    return MatchSpec(
        created_by=created_by,
        rules=rules,
        format=format,
        format_target=format_target,
        seats=plans,
        rated=rated is not False,
        clock=clock,
        managed=managed,
        capped=capped,
        boards=tuple(boards) if boards is not None else None,
        private=private,
        rematch_of=rematch_of,
    )


def _check_cooldown(challenger: Player, target: Player) -> None:
    """Refuse a challenge to a person who declined one of ``challenger``'s lately."""
    seconds = int(settings.TUTE_CHALLENGE_COOLDOWN_SECONDS)
    if seconds <= 0:
        return
    last = (
        Seat.objects.filter(
            declined_by=target,
            match__created_by=challenger.user_id,
            declined_at__gte=timezone.now() - timedelta(seconds=seconds),
        )
        .order_by("-declined_at")
        .values_list("declined_at", flat=True)
        .first()
    )
    if last is not None:
        wait = max(int(seconds - (timezone.now() - last).total_seconds()), 1)
        raise ChallengeCooldown(
            f"{target.handle} declined your challenge lately: try again in {wait} s.",
            retry_after=wait,
            detail={"player": target.handle, "retry_after": wait},
        )


def _table_size(game: str, players: int | None, seats: Sequence[SeatSpec]) -> int:
    """The player count the seats give: they are the table, never padded with empty ones."""
    if players is not None:
        if players != len(seats):
            raise InvalidSeats(f"{len(seats)} seats were given for {players} players")
        return players
    low, high, _ = PLAYERS.get(game, (len(seats), len(seats), len(seats)))
    if not low <= len(seats) <= high:
        span = str(low) if low == high else f"{low} to {high}"
        raise InvalidSeats(f"{game} has {span} seats, not {len(seats)}")
    return len(seats)


def _rules(game: str, players: int | None, options: dict[str, Any] | None) -> Rules:
    try:
        return Rules.build(game, players, options or {})
    except RulesError as exc:
        raise InvalidRules(str(exc)) from None


def _format_target(format: str, format_target: int) -> int:
    """The match's N: 1 for a single game, else from 1 to 99."""
    if format not in Match.Format.values:
        raise InvalidRules(f"format must be one of {', '.join(Match.Format.values)}")
    if format == Match.Format.SINGLE:
        return 1
    if not 1 <= format_target <= 99:
        raise InvalidRules("the number of games N must be from 1 to 99")
    return format_target


def _check_boards(boards: Sequence[Board], rules: Rules, format: str, format_target: int) -> None:
    if format != Match.Format.DUPLICATE:
        raise InvalidRules("boards are played by duplicate matches")
    if len(boards) != format_target:
        raise InvalidRules(
            f"a duplicate match of {format_target} boards plays {format_target} boards, not {len(boards)}"
        )
    options = rules.to_options()
    for board in boards:
        if (board.game, board.num_players, board.options) != (rules.game, rules.players, options):
            raise InvalidRules(
                f"board {board.pk} is dealt for other rules ({board.game}, {board.num_players} players)"
            )


def _check_clock(clock: Clock) -> None:
    for name in ("human_move_seconds", "bot_move_seconds"):
        if not 1 <= getattr(clock, name) <= MAX_MOVE_SECONDS:
            raise InvalidRules(f"{name} must be from 1 to {MAX_MOVE_SECONDS}")
    if not 1 <= clock.max_timeouts <= 100:
        raise InvalidRules("max_timeouts must be from 1 to 100")


def _players_named(seats: Sequence[SeatSpec]) -> dict[str, Player]:
    """The players the seats name, by handle, each at most once and every one found."""
    handles = [s.player for s in seats if s.player]
    if len(handles) != len(set(handles)):
        raise InvalidSeats("a player takes at most one seat in a match")
    # With the relations its first turn reads (a bot account's ladder profile: is it a push bot?).
    seated = Player.objects.filter(handle__in=handles)
    if SEAT_PLAYER_RELATIONS:
        seated = seated.select_related(*SEAT_PLAYER_RELATIONS)
    by_handle = {p.handle: p for p in seated}
    for handle in handles:
        if handle not in by_handle:
            raise UnknownPlayer(f"No player has the handle {handle!r}.")
    return by_handle


def _check_seats(seats: Sequence[SeatSpec]) -> None:
    for seat in seats:
        if seat.player and seat.bot:
            raise InvalidSeats("a seat holds a player or a house bot, not both")
        if seat.bot and seat.bot not in BOT_LEVELS:
            raise InvalidSeats(f"unknown house bot level {seat.bot!r}: choose from {', '.join(BOT_LEVELS)}")
        if seat.client_seed is not None:
            check_client_seed(seat.client_seed)


def _seat_plans(
    seats: Sequence[SeatSpec],
    by_handle: dict[str, Player],
    *,
    created_by: Player,
    challenge: bool,
    client_seed: str | None,
) -> tuple[SeatPlan, ...]:
    return tuple(
        _seat_plan(
            seat,
            by_handle[seat.player] if seat.player else None,
            created_by=created_by,
            challenge=challenge,
            client_seed=client_seed,
        )
        for seat in seats
    )


def _seat_plan(
    seat: SeatSpec, player: Player | None, *, created_by: Player, challenge: bool, client_seed: str | None
) -> SeatPlan:
    """A player seated by someone else waits to accept (unless ``challenge`` is off or it accepts
    automatically); the creator's seat takes ``client_seed`` unless it has its own."""
    mine = player is not None and player.pk == created_by.pk
    accepted = not challenge or player is None or mine or player.auto_accept
    seed = seat.client_seed
    if seed is None and mine:
        seed = client_seed
    return SeatPlan(player=player, bot_level=seat.bot or "", accepted=accepted, client_seed=seed or "")


def check_client_seed(value: str) -> None:
    """Refuse a client seed that is not one (RULES.md section 11), with the engine's reason."""
    problem = client_seed_problem(value)
    if problem is not None:
        raise InvalidClientSeed(problem[0].upper() + problem[1:] + ".")


def rated_for_bots(game: str, players: list[Player], rated: bool | None) -> bool:
    """Whether the match is rated, given who is at it: when a rated-match policy refuses them (the
    ladder's: a bot not validated for ``game``), an unrated match by default, and a rated one refused."""
    refusal = rated_match_refusal(game=game, players=players)
    if rated is None:
        return refusal is None
    if rated and refusal is not None:
        raise refusal
    return rated
