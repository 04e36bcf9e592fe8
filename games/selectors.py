"""Reads: a match's engine state, what a caller may see of it, lists of matches."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from threading import Lock
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Prefetch, Q, QuerySet

from games.engine import Rules, State, export_record
from games.engine.fair import commitment, fair_fields
from games.models import Action, ApiToken, Game, Match, Player, Seat
from games.rows import RowReader

# Engine states by (game id, game seed, match ply), stored only after commit. A committed (game, ply)
# names one state for good, so any node may keep this cache without invalidating it; the seed guards
# against a reused id (a restored or test database). A miss replays from the database.
_STATES: OrderedDict[tuple[int, str, int], State] = OrderedDict()
_STATES_LOCK = Lock()
_STATES_MAX = 2048


def match_rules(match: Match) -> Rules:
    return Rules.build(match.game, match.num_players, match.options)


def _cache_get(key: tuple[int, str, int]) -> State | None:
    with _STATES_LOCK:
        state = _STATES.get(key)
        if state is not None:
            _STATES.move_to_end(key)
        return state


def cache_state(game: Game, ply: int, state: State) -> None:
    """Remember ``state`` as the game's state at ``ply`` once the current transaction commits.

    Never before: a rolled-back action must not leave a state the database does not hold.
    """
    key = (game.pk, game.seed, ply)

    def store() -> None:
        with _STATES_LOCK:
            _STATES[key] = state
            _STATES.move_to_end(key)
            while len(_STATES) > _STATES_MAX:
                _STATES.popitem(last=False)

    transaction.on_commit(store)


#: How many plies back a cache miss looks for a cached state to replay from. With several processes
#: serving one match, the previous state is usually in this process's cache from its last request.
_NEAR_MISS_PLIES = 8


def game_state(*, match: Match, game: Game, ply: int | None = None) -> State:
    """The engine state of ``game`` after the match's actions before ``ply`` (default: all of them)."""
    upto = match.ply if ply is None else ply
    state = _cache_get((game.pk, game.seed, upto))
    if state is not None:
        return state
    since = game.first_ply
    for earlier in range(upto - 1, max(game.first_ply, upto - _NEAR_MISS_PLIES) - 1, -1):
        state = _cache_get((game.pk, game.seed, earlier))
        if state is not None:
            since = earlier
            break
    else:
        state = State.new(match_rules(match), dealer=game.dealer, seed=game.seed)
    with connection.cursor() as cursor:  # the hot path: no ORM query compilation
        cursor.execute(
            f"SELECT code FROM {Action._meta.db_table} WHERE game_id = %s AND ply >= %s AND ply < %s "
            "ORDER BY ply",
            [game.pk, since, upto],
        )
        for (code,) in cursor.fetchall():
            state = state.apply(code)
    cache_state(game, upto, state)
    return state


# -- a match, its seats and its current game in one query ------------------------------------------------


@dataclass(frozen=True, slots=True)
class LoadedMatch:
    """A match with its seats (by index, players partly loaded) and its current game, read at once."""

    match: Match
    seats: list[Seat]
    game: Game | None


_MATCH_ROW = RowReader(Match, [f.attname for f in Match._meta.concrete_fields])
#: What playing reads of a match: not its timestamps (each costs a Python parse a row, and a row a seat;
#: a move only ever sets the turn's deadline), its result or finish reason. They load on first use.
_MATCH_PLAY_LEFT_OUT = {"created_at", "started_at", "finished_at", "turn_deadline", "result", "finish_reason"}
_MATCH_PLAY_ROW = RowReader(
    Match, [f.attname for f in Match._meta.concrete_fields if f.name not in _MATCH_PLAY_LEFT_OUT]
)
_SEAT_ROW = RowReader(
    Seat,
    [
        "id",
        "match_id",
        "index",
        "player_id",
        "bot_level",
        "accepted",
        "decline_reason",
        "timeouts",
        "client_seed",
    ],
)
_PLAYER_ROW = RowReader(Player, ["id", "handle", "display_name", "is_bot"])
_GAME_ROW = RowReader(
    Game,
    [
        *("id", "match_id", "number", "seed", "server_seed", "client_seeds", "dealer", "first_ply", "status"),
        *("board", "seat_map"),
    ],
)
_SEAT_PLAYER = Seat._meta.get_field("player")
_SEAT_MATCH = Seat._meta.get_field("match")
_SELECT_SQL: dict[tuple[str, bool, RowReader[Match]], str] = {}


def _select_sql(lock: bool, match_row: RowReader[Match]) -> str:
    key = (connection.vendor, lock, match_row)
    sql = _SELECT_SQL.get(key)
    if sql is None:
        sql = _SELECT_SQL[key] = _build_select_sql(lock, match_row)
    return sql


def _build_select_sql(lock: bool, match_row: RowReader[Match]) -> str:
    index = connection.ops.quote_name("index")
    sql = (
        f"SELECT {match_row.columns('m')}, {_SEAT_ROW.columns('s')}, {_PLAYER_ROW.columns('p')}, "
        f"{_GAME_ROW.columns('g')} "
        f"FROM {Match._meta.db_table} m "
        f"LEFT JOIN {Seat._meta.db_table} s ON s.match_id = m.id "
        f"LEFT JOIN {Player._meta.db_table} p ON p.id = s.player_id "
        f"LEFT JOIN {Game._meta.db_table} g ON g.match_id = m.id AND g.number = "
        f"(SELECT MAX(number) FROM {Game._meta.db_table} WHERE match_id = m.id) "
        f"WHERE m.id = %s ORDER BY s.{index}"
    )
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE OF m" if connection.features.has_select_for_update_of else " FOR UPDATE"
    return sql


def match_loaded(*, match_id: int, lock: bool = False, full: bool = False) -> LoadedMatch | None:
    """The match, its seats and current game in one statement; ``lock`` takes the match row's lock.

    The action and view endpoints run this on every request: one hand-written query instead of three
    ORM ones, whose compilation cost more than the database's work. Player rows hold only what views
    and clocks read, and the match what play reads unless ``full``; any other field loads on first use.
    """
    match_row = _MATCH_ROW if full else _MATCH_PLAY_ROW
    with connection.cursor() as cursor:
        cursor.execute(_select_sql(lock, match_row), [match_id])
        rows = cursor.fetchall()
        db = cursor.db
    if not rows:
        return None
    a = match_row.width
    b = a + _SEAT_ROW.width
    c = b + _PLAYER_ROW.width
    match = match_row.read(rows[0][:a], db)
    assert match is not None
    seats: list[Seat] = []
    for row in rows:
        seat = _SEAT_ROW.read(row[a:b], db)
        if seat is None:
            continue
        # As select_related fills them: straight into the relation caches, no setter's checks.
        _SEAT_PLAYER.set_cached_value(seat, _PLAYER_ROW.read(row[b:c], db))
        _SEAT_MATCH.set_cached_value(seat, match)
        seats.append(seat)
    game = _GAME_ROW.read(rows[0][c:], db)
    return LoadedMatch(match=match, seats=seats, game=game)


def current_game(match: Match) -> Game | None:
    return match.games.order_by("-number").first()


def match_view_for(
    *,
    match: Match,
    player: Player | None,
    ply: int | None = None,
    seats: Sequence[Seat] | None = None,
    game: Game | None = None,
) -> dict[str, Any]:
    """What the caller may see: its seat's view (docs/RULES.md 9), or the spectator's without a seat.

    ``ply`` asks for the view as it was at that ply (the answer an idempotent retry gets again).
    ``seats`` and ``game`` (the current game), when the caller has them, save their queries.
    """
    if seats is None:
        seats = list(match.seats.all())
    seat = None if player is None else next((s for s in seats if s.player_id == player.pk), None)
    at = match.ply if ply is None else ply
    if game is None or game.first_ply > at:
        game = match.games.filter(first_ply__lte=at).order_by("-number").first()
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
        "client_seeds": list(game.client_seeds) if game else [s.client_seed for s in seats],
    }
    if game is None:
        return out
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


def match_records(match: Match) -> list[dict[str, Any]]:
    """Each game's record (docs/RULES.md 10) with its seed, and its result; a finished game's record also
    reveals its server seed, commitment and client seeds (section 11). Callers show it only once the
    match is over."""
    records = []
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
    return qs.order_by(*MATCH_ORDERINGS[ordering])


def match_detail(*, match_id: int) -> Match | None:
    """The match with ``match.seats.all()`` already loaded (by index, with their players), in one query."""
    loaded = match_loaded(match_id=match_id, full=True)
    if loaded is None:
        return None
    return with_seats(loaded.match, loaded.seats)


def with_seats(match: Match, seats: list[Seat]) -> Match:
    """``match`` with ``match.seats.all()`` answering ``seats`` (by index, with their players), as
    ``prefetch_related("seats")`` leaves it: for a caller that holds them already."""
    prefetched = match.seats.all()
    prefetched._result_cache = seats
    prefetched._prefetch_done = True  # type: ignore[attr-defined]
    match._prefetched_objects_cache = {"seats": prefetched}  # type: ignore[attr-defined]
    return match


def seats_loaded(match: Match) -> bool:
    """Whether ``match.seats.all()`` answers without a query."""
    return "seats" in getattr(match, "_prefetched_objects_cache", {})


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
