"""Match services: create, seat, start, act, finish, resign, abort; the signal and the house bots' tasks.

Everything goes through the services, the only writers. A move's legality and its reason come from the
server's own engine state (``game_state``), so these tests check the services' bookkeeping, not the rules.
"""

from __future__ import annotations

import itertools
import random
import re
import secrets
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from games.engine import CODE_OF, IllegalAction, Rules, State, parse_card
from games.errors import (
    AbortTooLate,
    AlreadySeated,
    IdempotencyKeyReused,
    IllegalActionError,
    InvalidRules,
    InvalidSeats,
    ManagedMatch,
    MatchNotInProgress,
    MatchNotOpen,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    SeatTaken,
    StalePly,
    TooManyOpenMatches,
    UnknownPlayer,
)
from games.models import Action, Game, Match, Player, Seat
from games.selectors import match_records
from games.services import (
    SeatSpec,
    action_submit,
    bot_turn_play,
    challenge_accept,
    challenge_decline,
    house_bot_turns_requeue,
    match_abort,
    match_call_off,
    match_create,
    match_resign,
    match_spec,
    play,
    seat_join,
    seat_leave,
)
from games.signals import match_finished
from games.states import game_state
from games.tasks import bot_play_turn
from tests.factories import PlayerFactory, UserFactory, current_game
from tute_site.celery import app

pytestmark = pytest.mark.django_db

HEX64 = re.compile(r"^[0-9a-f]{64}$")  # RULES.md 11: a SHA-256 deal seed


def snapshot(match: Match) -> tuple[int, int, str]:
    """What an action changes: the ply, the action log's length, the status."""
    match.refresh_from_db()
    return match.ply, Action.objects.filter(match=match).count(), match.status


@pytest.fixture
def finished_signals(sent_tasks: list[tuple[str, tuple[Any, ...]]]) -> Iterator[list[Match]]:
    """The matches ``match_finished`` was sent for, in order (the tasks its receivers queue are stubbed)."""
    sent: list[Match] = []

    def receiver(sender: type[Match], match: Match, **kwargs: Any) -> None:
        sent.append(match)

    match_finished.connect(receiver, dispatch_uid="test-finished-signals")
    yield sent
    match_finished.disconnect(dispatch_uid="test-finished-signals")


@pytest.fixture
def sent_tasks() -> Iterator[list[tuple[str, tuple[Any, ...]]]]:
    """Every Celery task sent, as (name, args), instead of sending it: no broker, no stray messages."""
    sent: list[tuple[str, tuple[Any, ...]]] = []

    def record(name: str, args: tuple[Any, ...] | None = None, kwargs: Any = None, **options: Any) -> None:
        sent.append((name, tuple(args or ())))

    with mock.patch.object(app, "send_task", side_effect=record):
        yield sent


@pytest.fixture
def queued_bot_turns(sent_tasks: list[tuple[str, tuple[Any, ...]]]) -> Callable[[], list[tuple[int, int]]]:
    """The (match, ply) of every house-bot task sent so far."""
    return lambda: [args for name, args in sent_tasks if name == bot_play_turn.name]


# -- creating -------------------------------------------------------------------------------------------


def test_create_seats_the_creator_at_seat_0_and_waits_for_the_others(player: Player) -> None:
    # when: a player creates a Tute 4 match without naming seats
    match = match_create(spec=match_spec(created_by=player, game="tute4"))

    # then: it is open, the creator holds seat 0, seats 1-3 are empty, nothing is dealt
    assert match.status == Match.Status.OPEN
    assert match.num_players == 4
    seats = list(match.seats.order_by("index"))
    assert [s.index for s in seats] == [0, 1, 2, 3]
    assert seats[0].player == player
    assert all(s.is_empty for s in seats[1:])
    assert not Game.objects.filter(match=match).exists()
    assert match.options == Rules.build("tute4").to_options()


def test_create_with_a_player_a_house_bot_and_an_empty_seat(make_player: Callable[..., Player]) -> None:
    # given: a creator and another player
    creator, other = make_player(), make_player()

    # when: a 4-player Pocha with the other player, a house bot, and two empty seats
    match = match_create(
        spec=match_spec(
            created_by=creator,
            game="pocha",
            players=4,
            seats=[SeatSpec(player=other.handle), SeatSpec(bot="random"), SeatSpec(), SeatSpec()],
        )
    )

    # then: the seats are as asked; the creator, not named, has no seat; the match waits
    seats = list(match.seats.order_by("index"))
    assert seats[0].player == other and not seats[0].bot_level
    assert seats[1].player is None and seats[1].bot_level == "random"
    assert seats[2].is_empty and seats[3].is_empty
    assert not match.seats.filter(player=creator).exists()
    assert match.status == Match.Status.OPEN


def test_create_with_every_seat_taken_starts_at_once(player: Player) -> None:
    # when: the creator plays Tute 2 against a house bot
    match = match_create(
        spec=match_spec(
            created_by=player, game="tute2", seats=[SeatSpec(player=player.handle), SeatSpec(bot="rule")]
        )
    )

    # then: in progress, with game 0 dealt
    assert match.status == Match.Status.IN_PROGRESS
    assert match.started_at is not None
    assert Game.objects.filter(match=match).count() == 1


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"game": "whist"}, "unknown game"),
        ({"game": "tute2", "players": 3}, "played by 2"),
        ({"game": "pocha", "players": 7}, "2 to 6"),
        ({"game": "tute2", "options": {"no_such_flag": True}}, "unknown rules flag"),
        ({"game": "tute2", "options": {"stock_duty": "sometimes"}}, "stock_duty"),
        ({"game": "tute4", "options": {"must_undertrump": "yes"}}, "true or false"),
        ({"game": "pocha", "options": {"pocha_sequence": [1, 99]}}, "not possible"),
        ({"game": "tute2", "format": "marathon"}, "format"),
        ({"game": "tute2", "format": "best_of", "format_target": 0}, "1 to 99"),
        ({"game": "tute2", "format": "first_to", "format_target": 100}, "1 to 99"),
    ],
)
def test_create_refuses_bad_rules_and_creates_nothing(
    player: Player, kwargs: dict[str, Any], words: str
) -> None:
    with pytest.raises(InvalidRules, match=words) as refused:
        match_create(spec=match_spec(created_by=player, **kwargs))

    assert refused.value.http_status == 400
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("seats", "error", "words"),
    [
        ([SeatSpec(), SeatSpec(), SeatSpec()], InvalidSeats, "2 seats"),
        ([SeatSpec(player="{me}"), SeatSpec(player="{me}")], InvalidSeats, "at most one seat"),
        ([SeatSpec(player="nobody-here"), SeatSpec()], UnknownPlayer, "nobody-here"),
        ([SeatSpec(player="{me}", bot="random"), SeatSpec()], InvalidSeats, "not both"),
        ([SeatSpec(bot="grandmaster"), SeatSpec()], InvalidSeats, "unknown house bot level"),
        ([SeatSpec(bot="rule")], InvalidSeats, "2 seats, not 1"),  # never padded (issue 17)
    ],
)
def test_create_refuses_bad_seats_and_creates_nothing(
    player: Player, seats: list[SeatSpec], error: type[Exception], words: str
) -> None:
    specs = [
        SeatSpec(player=s.player.replace("{me}", player.handle) if s.player else None, bot=s.bot)
        for s in seats
    ]

    with pytest.raises(error, match=words):
        match_create(spec=match_spec(created_by=player, game="tute2", seats=specs))

    assert not Match.objects.exists()
    assert not Seat.objects.exists()


def test_single_format_always_plays_one_game(player: Player) -> None:
    match = match_create(
        spec=match_spec(created_by=player, game="tute2", format=Match.Format.SINGLE, format_target=7)
    )

    assert match.format_target == 1


# -- challenges -----------------------------------------------------------------------------------------


def test_a_player_seated_by_the_creator_is_challenged_until_accepting(
    make_player: Callable[..., Player],
) -> None:
    # given: the creator seats another player
    creator, rival = make_player(), make_player()
    match = match_create(
        spec=match_spec(
            created_by=creator,
            game="tute2",
            seats=[SeatSpec(player=creator.handle), SeatSpec(player=rival.handle)],
        )
    )
    assert match.status == Match.Status.OPEN, "the rival has not accepted yet"
    assert not Game.objects.filter(match=match).exists()

    # when: the rival accepts
    match = challenge_accept(match_id=match.pk, player=rival)

    # then: the match starts
    assert match.status == Match.Status.IN_PROGRESS
    assert Game.objects.filter(match=match).count() == 1


def test_a_declined_challenge_empties_the_seat_for_anyone(make_player: Callable[..., Player]) -> None:
    creator, rival, third = make_player(), make_player(), make_player()
    match = match_create(
        spec=match_spec(
            created_by=creator,
            game="tute2",
            seats=[SeatSpec(player=creator.handle), SeatSpec(player=rival.handle)],
        )
    )

    challenge_decline(match_id=match.pk, player=rival, reason="busy")

    seat = Seat.objects.get(match=match, index=1)
    assert seat.player is None and seat.decline_reason == "busy"
    assert seat_join(match_id=match.pk, player=third).status == Match.Status.IN_PROGRESS


def test_a_bot_that_accepts_automatically_starts_the_match_at_once(player: Player) -> None:
    bot = PlayerFactory(is_bot=True, owner=UserFactory(), auto_accept=True)

    match = match_create(
        spec=match_spec(
            created_by=player,
            game="tute2",
            seats=[SeatSpec(player=player.handle), SeatSpec(player=bot.handle)],
        )
    )

    assert match.status == Match.Status.IN_PROGRESS


# -- joining and leaving --------------------------------------------------------------------------------


def test_join_takes_the_first_empty_seat(make_player: Callable[..., Player]) -> None:
    # given: an open Pocha for 3 with the creator at 0
    creator, joiner = make_player(), make_player()
    match = match_create(spec=match_spec(created_by=creator, game="pocha", players=3))

    # when: someone joins without naming a seat
    match = seat_join(match_id=match.pk, player=joiner)

    # then: seat 1 is theirs; the match still waits for seat 2
    assert Seat.objects.get(match=match, index=1).player == joiner
    assert match.status == Match.Status.OPEN


def test_the_last_join_reads_the_seats_after_the_lock_and_saves_the_start_once(
    make_player: Callable[..., Player],
) -> None:
    creator, joiner = make_player(), make_player()
    match = match_create(
        spec=match_spec(created_by=creator, game="tute2", seats=[SeatSpec(player=creator.handle), SeatSpec()])
    )

    with CaptureQueriesContext(connection) as queries:
        match = seat_join(match_id=match.pk, player=joiner)

    statements = [q["sql"] for q in queries.captured_queries]
    assert match.status == Match.Status.IN_PROGRESS
    seat_reads = [
        i for i, sql in enumerate(statements) if sql.startswith("SELECT") and 'FROM "games_seat"' in sql
    ]
    match_reads = [
        i for i, sql in enumerate(statements) if sql.startswith("SELECT") and 'FROM "games_match"' in sql
    ]
    # the lock (a statement of its own on PostgreSQL), then the match with its game, then its seats
    assert len(seat_reads) == 1 and match_reads and max(match_reads) < seat_reads[0]
    assert len([sql for sql in statements if sql.startswith('UPDATE "games_match"')]) == 1


def test_join_takes_the_seat_asked_for(make_player: Callable[..., Player]) -> None:
    creator, joiner = make_player(), make_player()
    match = match_create(spec=match_spec(created_by=creator, game="pocha", players=3))

    seat_join(match_id=match.pk, player=joiner, seat=2)

    assert Seat.objects.get(match=match, index=2).player == joiner
    assert Seat.objects.get(match=match, index=1).is_empty


def test_join_refuses_a_taken_seat_and_a_second_seat(make_player: Callable[..., Player]) -> None:
    creator, a, b = make_player(), make_player(), make_player()
    match = match_create(spec=match_spec(created_by=creator, game="pocha", players=4))
    seat_join(match_id=match.pk, player=a, seat=2)

    # then: a taken seat is a 409
    with pytest.raises(SeatTaken) as taken:
        seat_join(match_id=match.pk, player=b, seat=2)
    assert taken.value.http_status == 409

    # and: a player already seated cannot take a second seat (409)
    with pytest.raises(AlreadySeated) as twice:
        seat_join(match_id=match.pk, player=a, seat=3)
    assert twice.value.http_status == 409

    # and: a seat the match does not have is refused
    with pytest.raises(InvalidSeats):
        seat_join(match_id=match.pk, player=b, seat=4)
    assert list(Seat.objects.filter(match=match, player__isnull=False).values_list("index", flat=True)) == [
        0,
        2,
    ]


def test_join_refuses_a_match_that_started(started_match: Callable[..., Match], player: Player) -> None:
    match = started_match("tute2")

    with pytest.raises(MatchNotOpen):
        seat_join(match_id=match.pk, player=player)


def test_the_last_join_starts_the_match_with_a_secret_seed_and_its_decks(
    make_player: Callable[..., Player],
) -> None:
    # given: an open Tute 2
    creator, joiner = make_player(), make_player()
    match = match_create(spec=match_spec(created_by=creator, game="tute2"))

    # when: the second seat is taken
    match = seat_join(match_id=match.pk, player=joiner)

    # then: in progress; game 0 is dealt by seat 0 from a 256-bit hex seed (RULES.md 11), its deck stored as codes
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    assert match.started_at is not None and match.ply == 0
    game = Game.objects.get(match=match)
    assert game.number == 0 and game.dealer == 0 and game.first_ply == 0
    assert game.status == Game.Status.IN_PROGRESS
    assert HEX64.match(game.seed)
    rules = Rules.build("tute2")
    from_seed = State.new(rules, dealer=0, seed=game.seed)
    assert game.decks == [[CODE_OF[c] for c in deck] for deck in from_seed.table.decks]
    # and: the server's state is the game dealt from those decks
    from_decks = State.new(rules, dealer=0, decks=tuple(tuple(parse_card(c) for c in d) for d in game.decks))
    for seat in (0, 1):
        assert game_state(match=match, game=game).view(seat) == from_decks.view(seat)


def test_a_pocha_game_stores_one_deck_per_hand(started_match: Callable[..., Match]) -> None:
    match = started_match("pocha", players=3, options={"pocha_sequence": [1, 2, 3]})

    game = Game.objects.get(match=match)

    assert len(game.decks) == 3
    assert all(len(deck) == 36 and len(set(deck)) == 36 for deck in game.decks)  # 3 players: no 2s


def test_seeds_differ_from_game_to_game(started_match: Callable[..., Match]) -> None:
    seeds = [Game.objects.get(match=started_match("tute2")).seed for _ in range(12)]

    assert len(set(seeds)) == len(seeds)
    assert all(HEX64.match(seed) for seed in seeds)


def test_the_seed_comes_from_the_secrets_module(
    started_match: Callable[..., Match], monkeypatch: pytest.MonkeyPatch
) -> None:
    # given: the OS's secure source, watched
    asked: list[int] = []
    real = secrets.token_hex

    drawn: list[str] = []

    def token_hex(nbytes: int) -> str:
        asked.append(nbytes)
        drawn.append(real(nbytes))
        return drawn[-1]

    monkeypatch.setattr(secrets, "token_hex", token_hex)

    # when: a match starts
    match = started_match("tute2")

    # then: its game's server seed is 32 bytes from it (RULES.md 11), drawn when the match was created,
    # and the next game's server seed is drawn (and committed) as the game is dealt
    assert asked == [32, 32]
    game = Game.objects.get(match=match)
    assert game.server_seed == drawn[0]
    match.refresh_from_db()
    assert match.next_server_seed == drawn[1]
    assert HEX64.match(game.seed)


def test_leave_frees_the_seat_before_the_start(make_player: Callable[..., Player]) -> None:
    creator, joiner = make_player(), make_player()
    match = match_create(spec=match_spec(created_by=creator, game="pocha", players=3))
    seat_join(match_id=match.pk, player=joiner)

    seat_leave(match_id=match.pk, player=joiner)

    assert Seat.objects.get(match=match, index=1).is_empty
    with pytest.raises(NotSeated):
        seat_leave(match_id=match.pk, player=joiner)


def test_leave_is_refused_once_the_match_started(started_match: Callable[..., Match]) -> None:
    match = started_match("tute2")
    seated = Seat.objects.get(match=match, index=1).player
    assert seated is not None

    with pytest.raises(MatchNotOpen):
        seat_leave(match_id=match.pk, player=seated)

    assert Seat.objects.get(match=match, index=1).player == seated


# -- acting ---------------------------------------------------------------------------------------------


def test_a_legal_move_is_applied_and_logged(
    started_match: Callable[..., Match], turn: Callable[..., Any]
) -> None:
    # given: a Tute 2 in progress; the mano (seat 1, the dealer being 0) is to act
    match = started_match("tute2")
    now = turn(match.pk)
    assert now.seat == 1
    code = now.legal[0]

    # when: it plays a legal move at ply 0
    applied = action_submit(match_id=match.pk, player=now.player, code=code, ply=0)

    # then: the ply moves on and one action row holds the move
    assert applied.ply == 0
    assert snapshot(match)[:2] == (1, 1)
    action = Action.objects.get(match=match)
    assert (action.ply, action.seat, action.code, action.player, action.game) == (
        0,
        1,
        code,
        now.player,
        now.game,
    )
    # and: the server's state is the dealt state after that move
    assert game_state(match=match, game=now.game).history() == (code,)


def test_a_stale_ply_is_refused_with_the_current_ply(
    started_match: Callable[..., Match], play_moves: Callable[..., Any]
) -> None:
    # given: three moves played
    match = started_match("tute2")
    now = play_moves(match, 3)
    before = snapshot(match)

    # when: the seat to act sends a legal move for ply 2
    with pytest.raises(StalePly) as stale:
        action_submit(match_id=match.pk, player=now.player, code=now.legal[0], ply=2)

    # then: 409, the current ply in the detail, nothing applied
    assert stale.value.http_status == 409
    assert stale.value.detail == {"ply": 3}
    assert snapshot(match) == before


def test_a_move_out_of_turn_is_refused(
    started_match: Callable[..., Match], turn: Callable[..., Any], players_of: Callable[..., Any]
) -> None:
    match = started_match("tute4")
    now = turn(match.pk)
    other = players_of(match)[(now.seat + 1) % 4]
    before = snapshot(match)

    with pytest.raises(NotYourTurn) as refused:
        action_submit(match_id=match.pk, player=other, code=now.legal[0], ply=0)

    assert refused.value.http_status == 409
    assert snapshot(match) == before


def test_a_player_without_a_seat_is_refused(
    started_match: Callable[..., Match], turn: Callable[..., Any], player: Player
) -> None:
    match = started_match("tute2")
    before = snapshot(match)

    with pytest.raises(NotSeated) as refused:
        action_submit(match_id=match.pk, player=player, code=turn(match.pk).legal[0], ply=0)

    assert refused.value.http_status == 403
    assert snapshot(match) == before


def test_an_illegal_move_is_refused_with_the_engines_reason(
    started_match: Callable[..., Match], turn: Callable[..., Any]
) -> None:
    # given: the mano to lead, and a card it does not hold (one of the dealer's)
    match = started_match("tute2")
    now = turn(match.pk)
    not_held = next(c for c in now.game.decks[0] if f"play:{c}" not in now.legal)
    code = f"play:{not_held}"
    with pytest.raises(IllegalAction) as engine:
        now.state.apply(code)
    before = snapshot(match)

    # when: it tries to play that card
    with pytest.raises(IllegalActionError) as refused:
        action_submit(match_id=match.pk, player=now.player, code=code, ply=0)

    # then: 422 with the engine's own reason, and nothing changes
    assert refused.value.http_status == 422
    assert refused.value.detail["reason"] == engine.value.reason
    assert refused.value.detail["action"] == code
    assert refused.value.detail["legal"] == list(now.legal)
    assert snapshot(match) == before


@pytest.mark.parametrize("code", ["fly:3O", "play:13O", "play:", "bid:2", "sing:X", "PLAY:1O", ""])
def test_an_unknown_or_malformed_code_is_refused(
    started_match: Callable[..., Match], turn: Callable[..., Any], code: str
) -> None:
    match = started_match("tute2")
    now = turn(match.pk)
    before = snapshot(match)

    with pytest.raises(IllegalActionError) as refused:
        action_submit(match_id=match.pk, player=now.player, code=code, ply=0)

    assert refused.value.detail["reason"]
    assert snapshot(match) == before


def test_a_move_before_the_start_is_refused(player: Player) -> None:
    match = match_create(spec=match_spec(created_by=player, game="tute2"))

    with pytest.raises(MatchNotInProgress):
        action_submit(match_id=match.pk, player=player, code="play:1O", ply=0)


def test_the_same_idempotency_key_gets_the_first_answer_and_applies_nothing(
    started_match: Callable[..., Match], turn: Callable[..., Any], play_moves: Callable[..., Any]
) -> None:
    # given: the seat to act plays with an idempotency key
    match = started_match("tute2")
    now = turn(match.pk)
    first = action_submit(
        match_id=match.pk, player=now.player, code=now.legal[0], ply=0, idempotency_key="k-1"
    )
    after_first = snapshot(match)

    # when: the same request comes again (a retry after a lost answer)
    again = action_submit(
        match_id=match.pk, player=now.player, code=now.legal[0], ply=0, idempotency_key="k-1"
    )

    # then: the same answer, and nothing more applied
    assert again.ply == first.ply == 0
    assert snapshot(match) == after_first

    # and: it is still the first answer after the match moved on
    play_moves(match, 2, seed=5)
    moved_on = snapshot(match)
    late = action_submit(
        match_id=match.pk, player=now.player, code=now.legal[0], ply=0, idempotency_key="k-1"
    )
    assert late.ply == 0
    assert snapshot(match) == moved_on


def test_an_idempotency_key_reused_for_another_action_is_refused(
    started_match: Callable[..., Match], turn: Callable[..., Any]
) -> None:
    # given: seat 1 leads with key k; seat 0 answers; the lead comes back to seat 1 or 0
    match = started_match("tute2")
    now = turn(match.pk)
    action_submit(match_id=match.pk, player=now.player, code=now.legal[0], ply=0, idempotency_key="k")
    before = snapshot(match)

    # when: the same key comes with another action, or the same action at another ply
    with pytest.raises(IdempotencyKeyReused) as other_code:
        action_submit(
            match_id=match.pk,
            player=now.player,
            code=now.legal[-1] if len(now.legal) > 1 else "pass",
            ply=0,
            idempotency_key="k",
        )
    with pytest.raises(IdempotencyKeyReused):
        action_submit(match_id=match.pk, player=now.player, code=now.legal[0], ply=1, idempotency_key="k")

    # then: refused (422), nothing applied
    assert other_code.value.http_status == 422
    assert snapshot(match) == before


# -- formats, dealers, results --------------------------------------------------------------------------


def games_of(match: Match) -> list[Game]:
    return list(Game.objects.filter(match=match).order_by("number"))


def wins_per_side(match: Match, games: list[Game]) -> list[int]:
    sides = 2 if match.game == "tute4" else match.num_players
    won = [0] * sides
    for game in games:
        assert game.result is not None
        for side in game.result["winners"]:
            won[side] += 1
    return won


def test_a_single_game_match_plays_one_game(
    started_match: Callable[..., Match], play_random: Callable[..., Match], finished_signals: list[Match]
) -> None:
    match = play_random(started_match("tute2"), seed=1)

    games = games_of(match)
    assert len(games) == 1 and games[0].status == Game.Status.FINISHED
    assert match.status == Match.Status.FINISHED and match.finish_reason == "completed"
    assert match.result is not None
    assert match.result["games"] == 1
    assert match.result["winners"] == games[0].result["winners"]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_best_of_three_stops_when_a_side_has_two(
    started_match: Callable[..., Match], play_random: Callable[..., Match], seed: int
) -> None:
    match = play_random(started_match("tute2", format=Match.Format.BEST_OF, games=3), seed=seed)

    games = games_of(match)
    won = wins_per_side(match, games)
    # then: two or three games; it stopped as soon as a side had two wins
    assert len(games) in (2, 3)
    assert max(won) == 2 or len(games) == 3
    assert max(wins_per_side(match, games[:-1])) < 2
    assert match.result == {
        "games_won": won,
        "winners": [side for side, n in enumerate(won) if n == max(won)],
        "games": len(games),
    }


def test_first_to_two_plays_until_a_side_has_won_two(
    started_match: Callable[..., Match], play_random: Callable[..., Match]
) -> None:
    match = play_random(started_match("tute2", format=Match.Format.FIRST_TO, games=2), seed=7)

    games = games_of(match)
    won = wins_per_side(match, games)
    assert max(won) == 2
    assert max(wins_per_side(match, games[:-1])) == 1
    assert match.result is not None and match.result["games_won"] == won


def test_the_dealer_rotates_and_each_game_starts_where_the_last_ended(
    started_match: Callable[..., Match], play_random: Callable[..., Match]
) -> None:
    # given: a Pocha for 3, first to 3 wins with two-hand games (so several games are played)
    match = started_match(
        "pocha", players=3, options={"pocha_sequence": [1, 1]}, format=Match.Format.FIRST_TO, games=3
    )

    match = play_random(match, seed=11)

    games = games_of(match)
    assert len(games) >= 3
    assert [g.dealer for g in games] == [n % 3 for n in range(len(games))]
    seeds = {g.seed for g in games}
    assert len(seeds) == len(games)
    for game, following in itertools.pairwise(games):
        plies = list(Action.objects.filter(game=game).order_by("ply").values_list("ply", flat=True))
        assert plies == list(range(game.first_ply, following.first_ply))
    assert match.ply == Action.objects.filter(match=match).count()


def test_ending_a_game_reads_as_much_whatever_the_games_before_it(
    started_match: Callable[..., Match], turn: Callable[[int], Any]
) -> None:
    # given: a Pocha for 3, first to 3 wins with two-hand games (so several games are played)
    match = started_match(
        "pocha", players=3, options={"pocha_sequence": [1, 1]}, format=Match.Format.FIRST_TO, games=3
    )
    rng = random.Random(5)

    # when: it is played to the end, counting the statements of each move that ends a game and deals
    # the next one
    game_ends: list[int] = []
    while (now := turn(match.pk)) is not None:
        assert now.player is not None
        with CaptureQueriesContext(connection) as queries:
            applied = action_submit(
                match_id=match.pk, player=now.player, code=rng.choice(now.legal), ply=now.match.ply
            )
        assert applied.context.game is not None
        if applied.context.game.number != now.game.number:
            game_ends.append(len(queries.captured_queries))

    # then: the games already finished cost no statement each (the results are read in one)
    assert len(game_ends) >= 2
    assert len(set(game_ends[1:])) == 1


def test_tute4_results_are_per_pair(
    started_match: Callable[..., Match], play_random: Callable[..., Match]
) -> None:
    match = play_random(started_match("tute4"), seed=3)

    assert match.result is not None
    assert len(match.result["games_won"]) == 2
    assert match.result["winners"] in ([0], [1])


# -- finishing: the signal, resigning, aborting ---------------------------------------------------------


def test_match_finished_is_sent_once_after_the_commit(
    started_match: Callable[..., Match],
    turn: Callable[..., Any],
    finished_signals: list[Match],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given: a Tute 2 played up to its last move, every transaction committed
    match = started_match("tute2")
    with django_capture_on_commit_callbacks(execute=True):
        while not (now := turn(match.pk)).state.apply(now.legal[0]).is_terminal():
            action_submit(match_id=match.pk, player=now.player, code=now.legal[0], ply=now.match.ply)
    assert finished_signals == []

    # when: the last move is made, its on-commit callbacks held back
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        action_submit(match_id=match.pk, player=now.player, code=now.legal[0], ply=now.match.ply)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED

    # then: nothing was sent before the commit; after it, the signal goes out exactly once
    assert finished_signals == []
    for callback in callbacks:
        callback()
    assert [m.pk for m in finished_signals] == [match.pk]
    assert finished_signals[0].status == Match.Status.FINISHED


def test_match_finished_is_sent_once_per_match_not_per_game(
    started_match: Callable[..., Match],
    play_random: Callable[..., Match],
    finished_signals: list[Match],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # when: a first-to-2 Pocha of one-card hands is played out, every transaction committed
    match = started_match("pocha", players=2, options={"pocha_sequence": [1]}, format="first_to", games=2)
    with django_capture_on_commit_callbacks(execute=True):
        match = play_random(match, seed=4)

    # then: several games, one signal
    assert Game.objects.filter(match=match).count() >= 2
    assert [m.pk for m in finished_signals] == [match.pk]


def test_resigning_gives_the_match_to_the_other_side(
    started_match: Callable[..., Match],
    play_moves: Callable[..., Any],
    players_of: Callable[..., Any],
    finished_signals: list[Match],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given: a Tute 4 a few moves in
    match = started_match("tute4")
    play_moves(match, 5)
    resigner = players_of(match)[3]

    # when: seat 3 (pair 1-3) resigns
    with django_capture_on_commit_callbacks(execute=True):
        match_resign(match_id=match.pk, player=resigner)

    # then: pair 0-2 wins; the game in play is abandoned; the signal went out once
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finish_reason == "resigned"
    assert match.result is not None and match.result["winners"] == [0]
    assert Game.objects.get(match=match).status == Game.Status.ABANDONED
    assert [m.pk for m in finished_signals] == [match.pk]


def test_resigning_needs_a_seat_and_a_match_in_progress(
    started_match: Callable[..., Match], player: Player, players_of: Callable[..., Any]
) -> None:
    match = started_match("tute2")
    with pytest.raises(NotSeated):
        match_resign(match_id=match.pk, player=player)
    match_resign(match_id=match.pk, player=players_of(match)[0])
    with pytest.raises(MatchNotInProgress):
        match_resign(match_id=match.pk, player=players_of(match)[1])


def test_only_the_creator_may_abort_and_an_abort_has_no_result(
    started_match: Callable[..., Match],
    players_of: Callable[..., Any],
    finished_signals: list[Match],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given: a Tute 2 created by seat 0
    match = started_match("tute2")
    creator, other = players_of(match)

    # then: the other seat may not abort it (403)
    with pytest.raises(NotAllowed) as refused:
        match_abort(match_id=match.pk, by=other)
    assert refused.value.http_status == 403

    # when: the creator aborts
    with django_capture_on_commit_callbacks(execute=True):
        match_abort(match_id=match.pk, by=creator)

    # then: aborted, no result, the game abandoned, no match_finished signal
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    assert match.result is None
    assert Game.objects.get(match=match).status == Game.Status.ABANDONED
    assert finished_signals == []
    # and: nothing more can be played or aborted
    with pytest.raises(MatchNotInProgress):
        match_abort(match_id=match.pk, by=creator)


def test_staff_may_abort_an_open_match(player: Player) -> None:
    match = match_create(spec=match_spec(created_by=player, game="tute2"))
    staff = PlayerFactory(user=UserFactory(is_staff=True))

    match_abort(match_id=match.pk, by=staff)

    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.result is None


def test_an_abort_is_refused_once_every_seat_has_acted(
    started_match: Callable[..., Match], players_of: Callable[..., Any], turn: Callable[[int], Any]
) -> None:
    # given: a rated Tute 2 played until each seat has acted once (a seat may act twice running: a cante)
    match = started_match("tute2")
    creator, _ = players_of(match)
    while Action.objects.filter(match=match).order_by().values("seat").distinct().count() < 2:
        now = turn(match.pk)
        action_submit(match_id=match.pk, player=now.player, code=now.legal[0], ply=now.match.ply)

    # when: both seats have acted, the creator (losing or not) tries to abort
    with pytest.raises(AbortTooLate) as refused:
        match_abort(match_id=match.pk, by=creator)

    # then: 409, the match plays on (only resigning or the clock end it now)
    assert refused.value.http_status == 409
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS


def test_an_abort_after_one_seat_has_acted_is_still_allowed(
    started_match: Callable[..., Match], players_of: Callable[..., Any], turn: Callable[[int], Any]
) -> None:
    match = started_match("tute2")
    creator, _ = players_of(match)
    first = turn(match.pk)
    action_submit(match_id=match.pk, player=first.player, code=first.legal[0], ply=0)

    match_abort(match_id=match.pk, by=creator)

    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.result is None


def test_a_creator_without_a_seat_cannot_abort_once_the_seats_have_played(player: Player) -> None:
    # given: a bot-only rated match set up by a person who does not sit in it, played a few plies
    match = match_create(
        spec=match_spec(created_by=player, game="tute2", seats=[SeatSpec(bot="random"), SeatSpec(bot="rule")])
    )
    while Action.objects.filter(match=match).order_by().values("seat").distinct().count() < 2:
        match.refresh_from_db()
        bot_turn_play(match_id=match.pk, ply=match.ply)

    with pytest.raises(AbortTooLate):
        match_abort(match_id=match.pk, by=player)


def test_a_managed_match_is_never_aborted_through_the_games_services(player: Player) -> None:
    # given: a match a tournament made (managed), with its creator seated
    other = PlayerFactory()
    match = match_create(
        spec=match_spec(
            created_by=player,
            game="tute2",
            seats=[SeatSpec(player=player.handle), SeatSpec(player=other.handle)],
            challenge=False,
            managed=True,
        )
    )
    staff = PlayerFactory(user=UserFactory(is_staff=True))

    # then: neither its creator nor staff abort it (403) ...
    for by in (player, staff):
        with pytest.raises(ManagedMatch) as refused:
            match_abort(match_id=match.pk, by=by)
        assert refused.value.http_status == 403
    # ... only its managing service calls it off
    match_call_off(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED


# -- house bots -----------------------------------------------------------------------------------------


def test_a_house_bot_to_act_gets_its_task_queued_on_commit(
    player: Player,
    queued_bot_turns: Callable[[], list[tuple[int, int]]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # when: a Tute 2 starts against a house bot at seat 1, the mano, who leads
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        match = match_create(
            spec=match_spec(
                created_by=player,
                game="tute2",
                seats=[SeatSpec(player=player.handle), SeatSpec(bot="random")],
            )
        )

    # then: the bot's task goes out once the transaction commits, not before
    assert queued_bot_turns() == []
    for callback in callbacks:
        callback()
    assert queued_bot_turns() == [(match.pk, 0)]


def test_bot_turn_play_plays_the_bots_moves_and_each_bot_turn_is_queued(
    player: Player,
    turn: Callable[..., Any],
    queued_bot_turns: Callable[[], list[tuple[int, int]]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given: a Tute 2 between the player (seat 0) and a house bot (seat 1, the mano)
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            spec=match_spec(
                created_by=player,
                game="tute2",
                seats=[SeatSpec(player=player.handle), SeatSpec(bot="random")],
            )
        )

    # when: 16 plies are played: the player's moves through action_submit, the bot's by its service
    bot_plies = []
    for _ in range(16):
        now = turn(match.pk)
        with django_capture_on_commit_callbacks(execute=True):
            if now.player is None:
                bot_plies.append(now.match.ply)
                applied = bot_turn_play(match_id=match.pk, ply=now.match.ply)
                assert applied is not None and applied.ply == now.match.ply
            else:
                action_submit(match_id=match.pk, player=player, code=now.legal[0], ply=now.match.ply)

    # then: every bot move is logged as seat 1 with no player, and replays legally from the seed
    actions = list(Action.objects.filter(match=match).order_by("ply"))
    assert [a.ply for a in actions if a.seat == 1] == bot_plies
    assert all(a.player is None for a in actions if a.seat == 1)
    state = State.new(Rules.build("tute2"), dealer=0, seed=Game.objects.get(match=match).seed)
    for action in actions:
        assert state.current_player() == action.seat
        state = state.apply(action.code)
    # and: a task was queued, on commit, for exactly the plies at which the bot was to act
    assert queued_bot_turns() == [(match.pk, ply) for ply in bot_plies] + (
        [(match.pk, 16)] if turn(match.pk).player is None else []
    )


def test_bot_turn_play_is_a_no_op_for_a_stale_ply_or_a_persons_turn(
    player: Player, queued_bot_turns: Callable[[], list[tuple[int, int]]], turn: Callable[..., Any]
) -> None:
    # given: a Tute 2 against a house bot, which has made its first move
    match = match_create(
        spec=match_spec(
            created_by=player, game="tute2", seats=[SeatSpec(player=player.handle), SeatSpec(bot="rule")]
        )
    )
    assert bot_turn_play(match_id=match.pk, ply=0) is not None
    while turn(match.pk).player is None:  # a swap of the 7 (or 2) leaves the lead with the bot
        assert bot_turn_play(match_id=match.pk, ply=snapshot(match)[0]) is not None
    before = snapshot(match)
    persons_ply = before[0]

    # when: the same task is delivered again (ply 0 is stale), or one for the player's turn
    assert bot_turn_play(match_id=match.pk, ply=0) is None
    assert bot_turn_play(match_id=match.pk, ply=persons_ply) is None

    # then: nothing changed
    assert snapshot(match) == before


def test_bot_turn_play_is_a_no_op_once_the_match_is_over(
    player: Player, queued_bot_turns: Callable[[], list[tuple[int, int]]]
) -> None:
    match = match_create(
        spec=match_spec(
            created_by=player, game="tute2", seats=[SeatSpec(player=player.handle), SeatSpec(bot="rule")]
        )
    )
    match_abort(match_id=match.pk, by=player)

    assert bot_turn_play(match_id=match.pk, ply=0) is None
    assert not Action.objects.filter(match=match).exists()


def test_a_person_cannot_move_for_a_house_bot(
    player: Player, queued_bot_turns: Callable[[], list[tuple[int, int]]]
) -> None:
    match = match_create(
        spec=match_spec(
            created_by=player, game="tute2", seats=[SeatSpec(player=player.handle), SeatSpec(bot="rule")]
        )
    )
    state = game_state(match=match, game=current_game(match))

    with pytest.raises(NotYourTurn):
        action_submit(match_id=match.pk, player=player, code=state.legal_actions()[0], ply=0)


class Boom(Exception):
    pass


def test_a_move_rolled_back_with_its_transaction_leaves_no_trace(
    started_match: Callable[..., Match], turn: Callable[..., Any]
) -> None:
    # given: a move made inside an outer transaction that then fails
    match = started_match("tute2")
    now = turn(match.pk)
    with pytest.raises(Boom), transaction.atomic():
        action_submit(match_id=match.pk, player=now.player, code=now.legal[0], ply=0)
        raise Boom

    # then: the move is gone, and ply 0 can be played again, with another card
    assert snapshot(match)[:2] == (0, 0)
    code = now.legal[-1]
    action_submit(match_id=match.pk, player=now.player, code=code, ply=0)
    match.refresh_from_db()
    assert game_state(match=match, game=now.game).history() == (code,)


def test_a_rolled_back_move_does_not_linger_in_the_state_cache(
    started_match: Callable[..., Match], turn: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Web processes each keep a cache of engine states by (game, ply); any process may apply a move.

    Here one process applies a move whose transaction then rolls back, and another process (its own
    cache, simulated by not caching) applies a different move at the same ply. The first process must
    then see the committed move, not the rolled-back one.
    """
    # given: in this process, a move at ply 0 that rolls back
    match = started_match("tute2")
    now = turn(match.pk)
    rolled_back, committed = now.legal[0], now.legal[-1]
    assert rolled_back != committed
    with pytest.raises(Boom), transaction.atomic():
        action_submit(match_id=match.pk, player=now.player, code=rolled_back, ply=0)
        raise Boom

    # when: another process plays another card at ply 0 (its cache is not this one)
    with monkeypatch.context() as other_process:
        other_process.setattr("games.services.play.cache_state", lambda *args: None)
        action_submit(match_id=match.pk, player=now.player, code=committed, ply=0)

    # then: this process's idea of the game is the committed move
    match.refresh_from_db()
    assert list(Action.objects.filter(match=match).values_list("code", flat=True)) == [committed]
    assert game_state(match=match, game=now.game).history() == (committed,)


# -- one action per ply, whatever the database ----------------------------------------------------------


def test_a_writer_slipping_in_before_the_write_is_caught_by_the_ply_compare_and_swap(
    started_match: Callable[..., Match], turn: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite ``select_for_update`` locks nothing: another writer may move the ply between this
    request's read of the match and its write. The conditional update on the ply must notice."""
    match = started_match("tute2")
    now = turn(match.pk)
    real_turn_after = play.turn_after

    def with_a_rival_write(*args: Any, **kwargs: Any) -> Any:
        Match.objects.filter(pk=match.pk).update(ply=F("ply") + 1)  # the rival's move lands now
        return real_turn_after(*args, **kwargs)

    monkeypatch.setattr(play, "turn_after", with_a_rival_write)

    with pytest.raises(StalePly) as stale:
        action_submit(match_id=match.pk, player=now.player, code=now.legal[0], ply=0)

    assert stale.value.detail == {"ply": 1}
    assert not Action.objects.filter(match=match).exists()


def test_an_action_row_already_at_the_ply_is_the_last_guard(
    started_match: Callable[..., Match], turn: Callable[..., Any]
) -> None:
    # given: a row for ply 0 that the match's ply does not show yet (UNIQUE(match, ply) must hold)
    match = started_match("tute2")
    now = turn(match.pk)
    Action.objects.create(match=match, game=now.game, ply=0, seat=now.seat, code=now.legal[0])

    # when: a move for ply 0 comes in; then: it is refused as stale and leaves the one row
    with pytest.raises(StalePly):
        action_submit(match_id=match.pk, player=now.player, code=now.legal[-1], ply=0)
    assert list(Action.objects.filter(match=match).values_list("ply", "code")) == [(0, now.legal[0])]
    match.refresh_from_db()
    assert match.ply == 0


def test_the_database_refuses_two_actions_at_one_ply(
    started_match: Callable[..., Match], turn: Callable[..., Any]
) -> None:
    match = started_match("tute2")
    now = turn(match.pk)
    Action.objects.create(match=match, game=now.game, ply=0, seat=now.seat, code=now.legal[0])

    with pytest.raises(IntegrityError), transaction.atomic():
        Action.objects.create(match=match, game=now.game, ply=0, seat=now.seat, code=now.legal[-1])


def test_a_resigned_match_has_a_record_of_the_abandoned_game(
    started_match: Callable[..., Match], play_moves: Callable[..., Any], players_of: Callable[..., Any]
) -> None:
    match = started_match("tute2")
    play_moves(match, 7)
    match_resign(match_id=match.pk, player=players_of(match)[0])
    match.refresh_from_db()

    records = match_records(match)

    assert len(records) == 1
    game = Game.objects.get(match=match)
    assert records[0]["record"]["seed"] == game.seed
    assert records[0]["record"]["actions"] == list(
        Action.objects.filter(match=match).order_by("ply").values_list("code", flat=True)
    )
    assert records[0]["result"] is None


def test_seats_set_the_player_count_or_must_agree_with_it(make_player: Callable[..., Player]) -> None:
    creator = make_player()
    three = [SeatSpec(player=creator.handle), SeatSpec(bot="rule"), SeatSpec(bot="rule")]
    match = match_create(spec=match_spec(created_by=creator, game="pocha", seats=three))
    assert match.num_players == 3 and match.seats.count() == 3
    with pytest.raises(InvalidSeats, match="3 seats were given for 4 players"):
        match_create(spec=match_spec(created_by=creator, game="pocha", players=4, seats=three))


# -- fair scheduling and the open-match cap --------------------------------------------------------------


def test_house_bot_turns_of_bot_only_matches_go_on_their_own_queue(
    player: Player, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    # given: a match with a person and a house bot to act, and one of house bots only
    queues: list[tuple[str, Any]] = []

    def record(name: str, args: Any = None, kwargs: Any = None, **options: Any) -> None:
        queues.append((name, options.get("queue")))

    with (
        mock.patch.object(app, "send_task", side_effect=record),
        django_capture_on_commit_callbacks(execute=True),
    ):
        match_create(
            spec=match_spec(
                created_by=player, game="tute2", seats=[SeatSpec(player=player.handle), SeatSpec(bot="rule")]
            )
        )
        match_create(spec=match_spec(created_by=player, game="pocha", seats=[SeatSpec(bot="rule")] * 3))

    # then: the person's match on the default queue, the bot-only one on the bots' queue
    turns = [queue for name, queue in queues if name == bot_play_turn.name]
    assert turns == [settings.CELERY_TASK_DEFAULT_QUEUE, settings.TUTE_BOT_ONLY_QUEUE]
    assert settings.TUTE_BOT_ONLY_QUEUE in [q.name for q in settings.CELERY_TASK_QUEUES]


def test_turns_queued_again_when_a_worker_connects_take_the_same_queues(
    player: Player, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    # given: a house bot to act in a match with a person, and in a match of house bots only
    with mock.patch.object(app, "send_task"), django_capture_on_commit_callbacks(execute=True):
        with_person = match_create(
            spec=match_spec(
                created_by=player, game="tute2", seats=[SeatSpec(bot="rule"), SeatSpec(player=player.handle)]
            )
        )
        bots_only = match_create(
            spec=match_spec(created_by=player, game="pocha", seats=[SeatSpec(bot="rule")] * 3)
        )
    queues: list[tuple[Any, Any]] = []

    def record(name: str, args: Any = None, kwargs: Any = None, **options: Any) -> None:
        if name == bot_play_turn.name:
            queues.append((args[0], options.get("queue")))

    # when: a worker connects and every waiting house bot's turn is queued again
    with (
        mock.patch.object(app, "send_task", side_effect=record),
        django_capture_on_commit_callbacks(execute=True),
    ):
        queued = house_bot_turns_requeue()

    # then: each on the queue its turn took at first
    with_person.refresh_from_db()
    expected = {bots_only.pk: settings.TUTE_BOT_ONLY_QUEUE}
    if with_person.seats.get(index=with_person.turn_seat).bot_level:
        expected[with_person.pk] = settings.CELERY_TASK_DEFAULT_QUEUE
    assert queued == len(expected) and dict(queues) == expected


def test_an_account_may_have_only_so_many_open_matches(player: Player, settings: Any) -> None:
    settings.TUTE_MAX_OPEN_MATCHES = 2
    for _ in range(2):
        match_create(spec=match_spec(created_by=player, game="tute2", capped=True))

    with pytest.raises(TooManyOpenMatches) as refused:
        match_create(spec=match_spec(created_by=player, game="tute2", capped=True))

    assert refused.value.http_status == 429
    assert refused.value.detail == {"limit": 2, "open": 2}
    # a finished or aborted one frees its place; tournaments and the ladder are not capped
    match_abort(match_id=Match.objects.filter(created_by=player.user).first().pk, by=player)  # type: ignore[union-attr]
    match_create(spec=match_spec(created_by=player, game="tute2", capped=True))
    match_create(spec=match_spec(created_by=player, game="tute2"))
