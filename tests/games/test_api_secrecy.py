"""No response ever holds a card its caller may not know (docs/RULES.md section 9).

Many random games of Tute 2, Tute 4 and Pocha are played through the API. At every ply every kind of
caller asks: each seat (the one to act and the others, by token), a signed-in player without a seat (by
session), and an anonymous client. Every response is walked for card codes, and each code must be one the
caller may know, computed here independently of the server's views:

- public: every card played, each sung pair (the 12 and 11), every card given in a swap, and each hand's
  trump card (Tute 2's face-up card, the dealer's shown card, Pocha's turned-up card), read from the
  stored decks as docs/RULES.md section 7 deals them and from the public action log;
- private: the caller's own hand, from the server's engine state (``game_state``), and nothing else.

The match's public state and list show no card at all while it runs, and no seed or deck appears before
the match is over. Error answers (out of turn, stale ply, no seat, illegal card) are checked too; an
illegal card the caller named itself may be echoed back to it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import CODE_OF, Rules
from games.engine.cards import cards_of
from games.models import Action, Game, Match, Player
from games.states import game_state
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("unthrottled")]

ALL_CODES = frozenset(CODE_OF)
CARD_RE = re.compile(r"(?<![0-9A-Za-z])(?:1[0-2]|[1-9])[OCEB](?![0-9A-Za-z])")
SECRET_KEYS = frozenset({"seed", "seeds", "deck", "decks"})

# (game, players, options, format, N): at least 20 games in all, every game and a spread of flags
MATCHES: list[tuple[str, int, dict[str, Any], str, int]] = [
    ("tute2", 2, {}, "single", 1),
    ("tute2", 2, {"stock_duty": "free", "exchange_requires_trick_win": True}, "single", 1),
    ("tute2", 2, {"tute_declaration": "wins_hand", "cante_before_draw": True}, "single", 1),
    ("tute2", 2, {"stock_duty": "trump_lead_only", "forty_before_twenty": True, "deck48": True}, "single", 1),
    ("tute4", 4, {}, "single", 1),
    (
        "tute4",
        4,
        {"partner_may_sing": True, "first_lead": "mano", "tute_declaration": "wins_hand"},
        "single",
        1,
    ),
    ("pocha", 4, {"pocha_sequence": [1, 2]}, "single", 1),
    ("pocha", 2, {"pocha_sequence": [2]}, "best_of", 3),
    ("pocha", 2, {"pocha_sequence": [1]}, "first_to", 3),
    ("pocha", 4, {"pocha_sequence": [1]}, "best_of", 3),
    ("pocha", 3, {"pocha_sequence": [2, 1]}, "single", 1),
    ("pocha", 3, {"pocha_sequence": [12]}, "single", 1),  # 36 cards, all dealt: the dealer shows trump
    ("pocha", 5, {"pocha_sequence": [1, 2]}, "single", 1),
    ("pocha", 6, {"pocha_sequence": [2, 1], "pocha_hook": False}, "single", 1),
    ("pocha", 4, {"pocha_sequence": [1, 1], "deck48": True}, "first_to", 2),
]


def test_the_secrecy_matches_play_at_least_20_games() -> None:
    fewest = {"single": lambda n: 1, "best_of": lambda n: n // 2 + 1, "first_to": lambda n: n}
    assert sum(fewest[format](n) for _, _, _, format, n in MATCHES) >= 20
    assert {game for game, *_ in MATCHES} == {"tute2", "tute4", "pocha"}


# -- what a caller may know -----------------------------------------------------------------------------


def strings_in(value: Any) -> Iterator[str]:
    """Every string in a JSON value, dict keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def keys_in(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from keys_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_in(item)


def card_codes_in(value: Any) -> set[str]:
    """Card codes anywhere in the JSON: whole strings ("10C"), in action codes ("play:10C"), in text."""
    found = set()
    for text in strings_in(value):
        found.update(code for code in CARD_RE.findall(text) if code in ALL_CODES)
    return found


def hand_number(rules: Rules, actions: int) -> int:
    """The Pocha hand being played after ``actions`` actions: each hand is n bids and n * k plays."""
    n, hand = rules.players, 0
    for number, k in enumerate(rules.hand_sizes()):
        per_hand = n + n * k
        if actions < per_hand or number + 1 == len(rules.hand_sizes()):
            return number
        actions -= per_hand
        hand = number + 1
    return hand


def trump_card(rules: Rules, deck: list[str], k: int) -> str:
    """docs/RULES.md 7, 4.2, 5.2, 6.3: the card after the dealt blocks, or the dealer's last card if all went."""
    dealt = rules.players * k
    return deck[dealt] if dealt < len(deck) else deck[dealt - 1]


@dataclass
class Knowledge:
    """What may be known at one ply of one game: the public cards, each seat's hand; or all, once over."""

    ply: int
    public: set[str]
    hands: list[set[str]]
    to_act: int | None
    over: bool

    def allowed(self, seat: int | None) -> set[str] | None:
        if self.over:
            return None  # the game is over: its record will be public
        return self.public | (self.hands[seat] if seat is not None else set())


def knowledge_at(match: Match, ply: int) -> Knowledge:
    """Computed from the stored decks and the public action log, plus the engine's hands."""
    game = Game.objects.filter(match=match, first_ply__lte=ply).order_by("-number").first()
    assert game is not None
    rules = Rules.build(match.game, match.num_players, match.options)
    codes = list(Action.objects.filter(game=game, ply__lt=ply).order_by("ply").values_list("code", flat=True))
    public: set[str] = set()
    current = hand_number(rules, len(codes)) if rules.game == "pocha" else 0
    for number in range(current + 1):
        public.add(trump_card(rules, game.decks[number], rules.hand_sizes()[number]))
    for code in codes:
        kind, _, arg = code.partition(":")
        if kind in ("play", "exchange"):
            public.add(arg)
        elif kind == "sing" and arg != "tute":
            public.update({f"12{arg}", f"11{arg}"})
    state = game_state(match=match, game=game, ply=ply)
    hands = [{CODE_OF[c] for c in cards_of(mask)} for mask in state.table.hands]
    return Knowledge(ply, public, hands, state.current_player(), over=state.is_terminal())


# -- the callers and the audit --------------------------------------------------------------------------


@dataclass
class Caller:
    name: str
    client: APIClient
    seat: int | None


@dataclass
class Audit:
    """Checks every response against what its caller may know; counts them to show it looked."""

    match: Match
    seeds: set[str] = field(default_factory=set)
    checked: int = 0

    def response(
        self, caller: Caller, response: Any, knowledge: Knowledge, *, echoed: str | None = None
    ) -> Any:
        assert response["Content-Type"].startswith("application/json"), response.content
        body = response.json()
        self.check(
            caller,
            body,
            knowledge,
            echoed=echoed,
            what=f"{response.request['PATH_INFO']} {response.status_code}",
        )
        return body

    def check(
        self, caller: Caller, body: Any, knowledge: Knowledge, *, echoed: str | None = None, what: str = ""
    ) -> None:
        self.checked += 1
        where = f"match {self.match.pk} ply {knowledge.ply}, {caller.name}: {what}"
        self.no_secrets(body, where)
        allowed = knowledge.allowed(caller.seat)
        if allowed is None:
            return
        leaked = card_codes_in(body) - allowed - ({echoed} if echoed else set())
        assert not leaked, f"{where}: may not know {sorted(leaked)}; response {body}"

    def no_cards_at_all(self, caller: Caller, response: Any, *, what: str) -> None:
        """The match's public state and lists: no card at all while it runs."""
        self.checked += 1
        body = response.json()
        where = f"match {self.match.pk}, {caller.name}: {what}"
        self.no_secrets(body, where)
        assert not card_codes_in(body), f"{where}: cards in {body}"

    def no_secrets(self, body: Any, where: str) -> None:
        """No seed or deck field, and no game's seed anywhere (checked until the match is over)."""
        if self.match.status == Match.Status.FINISHED:
            return
        assert not SECRET_KEYS & set(keys_in(body)), f"{where}: a secret field in {body}"
        text = json.dumps(body)
        assert not any(seed in text for seed in self.seeds), f"{where}: a seed in {text}"


def choose(legal: list[str], rng: random.Random) -> str:
    """A random legal code, favouring swaps, cantes and passes so those paths are seen often.

    A declared tute ends the game at once, so it is taken only now and then.
    """
    if "sing:tute" in legal and rng.random() < 0.9:
        legal = [code for code in legal if code != "sing:tute"]
    special = [code for code in legal if not code.startswith(("play:", "bid:"))]
    if special and rng.random() < 0.7:
        return rng.choice(special)
    return rng.choice(legal)


def read_stream_until_turn(caller: Caller, audit: Audit, knowledge: Knowledge) -> None:
    """The bot event stream's first lines (hello, match_started, your_turn) for the seat to act."""
    response = caller.client.get("/api/v1/stream/events/?max_seconds=1")
    assert response.status_code == 200
    try:
        for raw in response.streaming_content:
            event = json.loads(raw)
            audit.check(caller, event, knowledge, what=f"stream {event['type']}")
            if event["type"] in ("your_turn", "bye"):
                break
    finally:
        # Hang up the way the test client ends a stream (its wrapper closes the response without letting
        # request_finished close the test's database connection, as response.close() alone would).
        response._iterator.close()


@pytest.mark.parametrize(("game", "players", "options", "format", "target"), MATCHES)
def test_no_response_holds_a_card_its_caller_may_not_know(
    token_client: Callable[[Player], APIClient],
    session_client: Callable[[Player], APIClient],
    game: str,
    players: int,
    options: dict[str, Any],
    format: str,
    target: int,
) -> None:
    rng = random.Random(f"secrecy-{game}-{players}-{options}-{format}")
    # given: the players (by token), a player without a seat (by session), an anonymous client
    seated = [PlayerFactory() for _ in range(players)]
    seats = [Caller(f"seat {i}", token_client(p), i) for i, p in enumerate(seated)]
    spectator = Caller("spectator", session_client(PlayerFactory()), None)
    anonymous = Caller("anonymous", APIClient(), None)

    # when: the first seat creates the match over the API and the others join it
    created = seats[0].client.post(
        "/api/v1/matches/",
        {"game": game, "players": players, "options": options, "format": format, "games": target},
        format="json",
    )
    assert created.status_code == 201, created.content
    match = Match.objects.get(pk=created.json()["id"])
    audit = Audit(match)
    audit.no_cards_at_all(seats[0], created, what="create")
    for caller in seats[1:]:
        joined = caller.client.post(f"/api/v1/matches/{match.pk}/join/", {"seat": caller.seat}, format="json")
        assert joined.status_code == 200, joined.content
        audit.no_cards_at_all(caller, joined, what="join")

    # and: it is played out with random legal moves; at every ply the seat to act, another seat (each in
    # turn) and a spectator (signed in and anonymous in turn) look, and every answer is checked
    match.refresh_from_db()
    knowledge = knowledge_at(match, 0)
    last: tuple[Caller, str, int, str] | None = None
    for step in range(3000):
        if match.status != Match.Status.IN_PROGRESS:
            break
        ply = match.ply
        audit.seeds.update(Game.objects.filter(match=match).values_list("seed", flat=True))
        assert knowledge.to_act is not None
        to_act = seats[knowledge.to_act]
        other = seats[(to_act.seat + 1 + step % (players - 1)) % players]
        for caller in (to_act, other, spectator if step % 2 else anonymous):
            view = audit.response(caller, caller.client.get(f"/api/v1/matches/{match.pk}/view/"), knowledge)
            assert view["ply"] == ply and view["to_act"] == to_act.seat
            assert (view["legal"] is not None) == (caller is to_act)
        legal = audit.response(to_act, to_act.client.get(f"/api/v1/matches/{match.pk}/view/"), knowledge)[
            "legal"
        ]

        if step % 6 == 0:
            audit.no_cards_at_all(
                anonymous, anonymous.client.get(f"/api/v1/matches/{match.pk}/"), what="detail"
            )
            listed = to_act.client.get(f"/api/v1/matches/?status=in_progress&player={seated[0].handle}")
            audit.no_cards_at_all(to_act, listed, what="list")
        if step % 12 == 0:
            record = anonymous.client.get(f"/api/v1/matches/{match.pk}/record/")
            assert record.status_code == 403
            audit.response(anonymous, record, knowledge)
            read_stream_until_turn(to_act, audit, knowledge)
        if step % 9 == 3:
            probe_errors(audit, match, knowledge, to_act, other, spectator, anonymous, legal, rng)
        if step % 9 == 7 and last is not None:
            # a retry with an earlier idempotency key gets that earlier answer, which must still be safe
            caller, code, old_ply, key = last
            again = caller.client.post(
                f"/api/v1/matches/{match.pk}/actions/",
                {"action": code, "ply": old_ply},
                format="json",
                HTTP_IDEMPOTENCY_KEY=key,
            )
            assert again.status_code == 200, again.content
            audit.response(caller, again, knowledge_at(match, old_ply + 1))

        code = choose(legal, rng)
        key = f"key-{ply}"
        answer = to_act.client.post(
            f"/api/v1/matches/{match.pk}/actions/",
            {"action": code, "ply": ply},
            format="json",
            HTTP_IDEMPOTENCY_KEY=key,
        )
        assert answer.status_code == 200, answer.content
        match.refresh_from_db()
        knowledge = knowledge_at(match, ply + 1)
        if match.status == Match.Status.IN_PROGRESS:
            audit.seeds.update(Game.objects.filter(match=match).values_list("seed", flat=True))
        audit.response(to_act, answer, knowledge)
        last = (to_act, code, ply, key)
    else:
        raise AssertionError("the match did not finish")

    # then: it finished, every response was checked, and the record now gives every game's seed
    assert match.status == Match.Status.FINISHED
    assert audit.checked >= 3 * match.ply
    record = anonymous.client.get(f"/api/v1/matches/{match.pk}/record/").json()
    assert [g["record"]["seed"] for g in record["games"]] == list(
        Game.objects.filter(match=match).order_by("number").values_list("seed", flat=True)
    )


def probe_errors(
    audit: Audit,
    match: Match,
    knowledge: Knowledge,
    to_act: Caller,
    other: Caller,
    spectator: Caller,
    anonymous: Caller,
    legal: list[str],
    rng: random.Random,
) -> None:
    """Wrong moves by every kind of caller: each answer is an error, holds nothing secret, changes nothing."""
    url = f"/api/v1/matches/{match.pk}/actions/"
    ply = knowledge.ply
    move = {"action": legal[0], "ply": ply}
    answers = [
        (other, other.client.post(url, move, format="json"), 409, None),
        (to_act, to_act.client.post(url, {**move, "ply": ply + 3}, format="json"), 409, None),
        (spectator, spectator.client.post(url, move, format="json"), 403, None),
        (anonymous, anonymous.client.post(url, move, format="json"), 401, None),
    ]
    # the seat to act names a card it does not hold: the answer may echo that card, and no other
    assert to_act.seat is not None
    not_held = sorted(ALL_CODES - knowledge.hands[to_act.seat] - knowledge.public)
    if not_held:
        card = rng.choice(not_held)
        answers.append(
            (
                to_act,
                to_act.client.post(url, {"action": f"play:{card}", "ply": ply}, format="json"),
                422,
                card,
            )
        )
    for caller, response, status, echoed in answers:
        assert response.status_code == status, response.content
        audit.response(caller, response, knowledge, echoed=echoed)
    match.refresh_from_db()
    assert match.ply == ply


@pytest.mark.parametrize("game", ["tute2", "tute4", "pocha"])
def test_an_aborted_match_keeps_its_hands_and_seed_secret(
    started_match: Callable[..., Match],
    play_moves: Callable[..., Any],
    players_of: Callable[[Match], list[Player | None]],
    token_client: Callable[[Player], APIClient],
    session_client: Callable[[Player], APIClient],
    game: str,
) -> None:
    # given: a match one move in (an abort comes before every seat has acted), called off by its creator
    match = started_match(game, options={"pocha_sequence": [3]} if game == "pocha" else None)
    play_moves(match, 1, seed=game)
    seated = players_of(match)
    creator = seated[0]
    assert creator is not None
    aborted = token_client(creator).post(f"/api/v1/matches/{match.pk}/abort/")
    assert aborted.json()["status"] == "aborted"
    match.refresh_from_db()
    audit = Audit(match, seeds=set(Game.objects.filter(match=match).values_list("seed", flat=True)))
    knowledge = knowledge_at(match, match.ply)
    assert not knowledge.over
    callers = [Caller(f"seat {i}", token_client(p), i) for i, p in enumerate(seated) if p is not None]
    callers += [
        Caller("spectator", session_client(PlayerFactory()), None),
        Caller("anonymous", APIClient(), None),
    ]

    # then: every caller still sees only what its seat may know, and no one gets the record
    for caller in callers:
        audit.response(caller, caller.client.get(f"/api/v1/matches/{match.pk}/view/"), knowledge)
        audit.no_cards_at_all(caller, caller.client.get(f"/api/v1/matches/{match.pk}/"), what="detail")
        record = caller.client.get(f"/api/v1/matches/{match.pk}/record/")
        assert record.status_code == 403
        audit.response(caller, record, knowledge)
