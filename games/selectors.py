"""Reads: a match's context (the match, its seats, its current game and that game's state), what a
caller may see of it, lists of matches."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Prefetch, Q, QuerySet
from django.utils import timezone

from games.engine import State, export_record
from games.engine.fair import commitment, fair_fields
from games.errors import BoardNotFound, MatchNotFound
from games.models import ApiToken, Board, Game, Match, Player, Review, Seat
from games.states import game_state


@dataclass(frozen=True, slots=True)
class MatchContext:
    """Everything a match service or a match's view reads: the match, its seats by index (with their
    players), its current game (None before the first deal) and that game's engine state at the match's
    ply (None without a game)."""

    match: Match
    seats: list[Seat]
    game: Game | None
    state: State | None

    def seat_of(self, player: Player | None) -> Seat | None:
        if player is None:
            return None
        return next((s for s in self.seats if s.player_id == player.pk), None)

    def seat_at(self, index: int | None) -> Seat | None:
        return next((s for s in self.seats if s.index == index), None)


#: One-to-one relations of Player read with it wherever a turn may start (a match's seats, the players
#: a match is created with): an app built on games names those its ``games.signals.turn_started``
#: receivers read (the ladder: a bot's profile, whether it is a push bot), from its AppConfig.ready(),
#: so a move costs no query for them.
SEAT_PLAYER_RELATIONS: list[str] = []


def seat_player_relation_add(name: str) -> None:
    """Read the Player relation ``name`` with a match's seats from now on (see SEAT_PLAYER_RELATIONS)."""
    if name not in SEAT_PLAYER_RELATIONS:
        SEAT_PLAYER_RELATIONS.append(name)


def _seats() -> Prefetch[Any]:
    related = ["player", *(f"player__{name}" for name in SEAT_PLAYER_RELATIONS)]
    return Prefetch("seats", queryset=Seat.objects.select_related(*related).order_by("index"))


def match_context(match_id: int, *, lock: bool) -> MatchContext:
    """The match's context; ``lock`` takes the match row's lock for this transaction first.

    The lock is a statement of its own, and the match, its current game and its seats are read after
    it: a caller that waited for the lock sees every row as the holder left them (a statement that
    locks the match and reads the joined rows would see the joined ones as they were before it
    waited). Raises ``MatchNotFound``.
    """
    if lock and not Match.objects.select_for_update().filter(pk=match_id).exists():
        raise MatchNotFound()
    # The game's decks are not read to play or to view it (its state comes from its seed): they load on
    # first use.
    match = (
        Match.objects.select_related("current_game")
        .defer("current_game__decks")
        .prefetch_related(_seats())
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        raise MatchNotFound()
    return context_of(match)


def context_of(match: Match) -> MatchContext:
    """The context of a match read with its current game and seats (``match_context``'s query)."""
    game = match.current_game
    state = None if game is None else game_state(match=match, game=game)
    return MatchContext(match=match, seats=list(match.seats.all()), game=game, state=state)


def match_view_for(*, context: MatchContext, player: Player | None, ply: int | None = None) -> dict[str, Any]:
    """What the caller may see: its seat's view (docs/RULES.md 9), or the spectator's without a seat.

    ``ply`` asks for the view as it was at that ply (the answer an idempotent retry gets again).
    """
    match = context.match
    seat = context.seat_of(player)
    at = match.ply if ply is None else ply
    game, state = context.game, context.state
    if game is not None and game.first_ply > at:  # an earlier game's ply
        game = match.games.filter(first_ply__lte=at).order_by("-number").first()
        state = None
    live = at == match.ply and match.status == Match.Status.IN_PROGRESS
    out: dict[str, Any] = {
        "match": match.pk,
        "status": match.status,
        "ply": at,
        "seat": seat.index if seat else None,
        "game_number": game.number if game else None,
        "to_act": None,
        "legal": None,
        "view": None,
        # RULES.md section 11: the commitment to the game's server seed (before the first game: the
        # first game's), and the client seeds its deal mixes in, readable before its first action.
        "seed_sha256": game_seed_sha256(game) if game else (match.next_seed_sha256 or None),
        "client_seeds": list(game.client_seeds) if game else [s.client_seed for s in context.seats],
    }
    if game is None:
        return out
    if state is None or at != match.ply:
        state = game_state(match=match, game=game, ply=at)
    view = state.view(game.game_seat(seat.index) if seat else None)
    to_act = state.current_player() if live or ply is not None else None
    if to_act is not None:
        to_act = game.match_seat(to_act)  # match seats in the envelope; the view speaks in game seats
    out["to_act"] = to_act
    if game.board is not None:  # a duplicate match: which board, and which match seat holds each game seat
        out["board"] = game.board
        out["seat_map"] = game.seat_map
        out["game_seat"] = game.game_seat(seat.index) if seat else None
    out["view"] = {**view.to_dict(), "seed_sha256": out["seed_sha256"]}
    if seat is not None and to_act == seat.index:
        out["legal"] = list(state.legal_actions())
    return out


def game_seed_sha256(game: Game) -> str | None:
    """The public commitment to the game's server seed (None for a game dealt before fair deals)."""
    return commitment(game.server_seed) if game.server_seed else None


def board_detail(*, board_id: int) -> Board:
    """A board with its plays (the games dealt from it, in match and game order)."""
    board = (
        Board.objects.prefetch_related(
            Prefetch("plays", queryset=Game.objects.order_by("match_id", "number"), to_attr="ordered_plays")
        )
        .filter(pk=board_id)
        .first()
    )
    if board is None:
        raise BoardNotFound()
    return board


def boards_sealed(match: Match) -> bool:
    """Whether some game of ``match`` was dealt from a board that other tables still play: its records,
    seeds and cards stay secret until the board is revealed (games.services.boards). Only duplicate
    matches play boards: no query for the others."""
    if match.format != Match.Format.DUPLICATE:
        return False
    return match.games.filter(dealt_from__isnull=False, dealt_from__revealed_at__isnull=True).exists()


def match_records(match: Match) -> list[dict[str, Any]]:
    """Each game's record (docs/RULES.md 10) with its seed, and its result; a finished game's record also
    reveals its server seed, commitment and client seeds (section 11). Callers show it only once the
    match is over."""
    records = []
    if match.over_the_board:  # played with real cards: the entered results, no deal to show
        return [
            {"number": g.number, "record": None, "result": g.result, "luck": None}
            for g in match.games.order_by("number")
        ]
    for game in match.games.order_by("number"):
        state = game_state(match=match, game=game, ply=_game_end_ply(match, game))
        record = export_record(state, seed=game.seed)
        if game.server_seed and game.status != Game.Status.IN_PROGRESS:
            actions = record.pop("actions")
            record.update(fair_fields(game.server_seed, game.client_seeds))
            record["seed"] = game.seed  # the seed the game was dealt from, whatever the fields say
            record["actions"] = actions
        if game.board is not None:
            actions = record.pop("actions")
            record["board"] = game.board
            record["seat_map"] = game.seat_map
            record["actions"] = actions
        # What these cards score on average (docs/FAIRNESS.md); null until a worker has worked it out.
        records.append({"number": game.number, "record": record, "result": game.result, "luck": game.luck})
    return records


def _game_end_ply(match: Match, game: Game) -> int:
    following = match.games.filter(number=game.number + 1).values_list("first_ply", flat=True).first()
    return following if following is not None else match.ply


#: The match list's orders: newest first (the default), oldest first, and by finishing time (the order
#: ratings are applied in: finished_at, then id; matches not finished come last either way).
MATCH_ORDERINGS = {
    "-created_at": (F("created_at").desc(), F("id").desc()),
    "created_at": (F("created_at").asc(), F("id").asc()),
    "finished_at": (F("finished_at").asc(nulls_last=True), F("id").asc()),
    "-finished_at": (F("finished_at").desc(nulls_last=True), F("id").desc()),
}


def matches_list(
    *,
    status: str | None = None,
    game: str | None = None,
    player: str | None = None,
    rated: bool | None = None,
    ordering: str = "-created_at",
) -> QuerySet[Match]:
    qs = Match.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("index"))
    )
    if status:
        qs = qs.filter(status=status)
    if game:
        qs = qs.filter(game=game)
    if rated is not None:
        qs = qs.filter(rated=rated)
    if player:
        qs = qs.filter(Q(seats__player__handle=player)).distinct()
    # A private table is nobody else's business until it starts: not listed while it is open.
    qs = qs.exclude(private=True, status=Match.Status.OPEN)
    return qs.order_by(*MATCH_ORDERINGS[ordering])


def match_detail(*, match_id: int) -> Match:
    """The match with its seats (by index, with their players) and its current game loaded."""
    match = (
        Match.objects.select_related("current_game").prefetch_related(_seats()).filter(pk=match_id).first()
    )
    if match is None:
        raise MatchNotFound()
    return match


def my_turns(*, player: Player) -> QuerySet[Match]:
    """Matches in progress where it is ``player``'s turn now, oldest deadline first."""
    return Match.objects.filter(
        status=Match.Status.IN_PROGRESS, seats__player=player, seats__index=F("turn_seat")
    ).order_by("turn_deadline", "pk")


def tokens_of(*, user: Any) -> QuerySet[ApiToken]:
    """The account's API tokens, newest first: only their first characters are known (never the token)."""
    return (
        ApiToken.objects.filter(user=user)
        .only("id", "prefix", "created_at", "last_used_at")
        .order_by("-created_at", "-id")
    )


def away_seats(seats: list[Seat], *, now: datetime | None = None) -> list[int]:
    """The seats whose person has not been seen for ``TUTE_AWAY_SECONDS`` (no page, poll or stream):
    shown "away" to the others. Bots and empty seats are never away; nor is a person never seen here
    (seated by a service, not through a page or the API)."""
    since = (now or timezone.now()) - timedelta(seconds=settings.TUTE_AWAY_SECONDS)
    return [
        s.index
        for s in seats
        if s.player is not None
        and not s.player.is_bot
        and s.player.last_seen_at is not None
        and s.player.last_seen_at < since
    ]


def online_since(now: datetime | None = None) -> datetime:
    """People seen after this moment are online."""
    return (now or timezone.now()) - timedelta(seconds=settings.TUTE_ONLINE_SECONDS)


def is_online(player: Player, *, now: datetime | None = None) -> bool:
    """A person signed in and seen within ``TUTE_ONLINE_SECONDS`` (a bot account's presence is the ladder's)."""
    return not player.is_bot and player.last_seen_at is not None and player.last_seen_at >= online_since(now)


def incoming_challenges(*, player: Player) -> QuerySet[Match]:
    """Open matches where ``player`` is challenged (a seat offered, not yet accepted), newest first."""
    return (
        Match.objects.filter(status=Match.Status.OPEN, seats__player=player, seats__accepted=False)
        .prefetch_related(_seats())
        .order_by("-created_at", "-id")
    )


def review_progress(*, player: Player, limit: int = 60) -> list[Review]:
    """The latest ``limit`` finished reviews of ``player``'s own seats, oldest game first (with their match
    and game): what the player page's progress shows."""
    reviews = (
        Review.objects.filter(player=player, status=Review.Status.DONE, decisions__gt=0)
        .select_related("match", "game")
        .order_by("-game__finished_at", "-id")[:limit]
    )
    return list(reversed(list(reviews)))


def reviews_public(match: Match) -> bool:
    """Whether anyone may see the reviews of every seat of ``match``: a public match, over, its deals
    revealed (no board of it still played at another table)."""
    return match.status == Match.Status.FINISHED and not match.private and not boards_sealed(match)


def review_may_see(*, match: Match, seat: Seat, player: Player | None) -> bool:
    """Whether ``player`` (None: a visitor) may see the review of ``seat`` once its game is over: the
    person who held it, or anyone where the match's reviews are public."""
    if player is not None and seat.player_id == player.pk:
        return True
    return reviews_public(match)
