"""Fixtures for the tournaments app: clubs, tournaments made by the services, entrants, and ways to decide
a round's matches through the games services (a resignation, or house bots playing it out).

No Celery here: the tests call what the tasks call (``match_result_record``, ``tournament_advance``)
directly; tests/tournaments/test_workers.py runs the real worker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
from django.core.cache import cache

from games import states
from games.models import Match, Player
from games.services import bot_turn_play, match_resign
from tests.factories import PlayerFactory
from tournaments.models import Club, Entrant, Tournament, TournamentMatch
from tournaments.services import (
    Settings,
    club_create,
    match_result_record,
    register,
    tournament_advance,
    tournament_create,
)


@pytest.fixture(autouse=True)
def _fresh_process_state() -> Iterator[None]:
    """The engine-state cache and the cache start empty: SQLite hands ids out again after a rollback."""
    cache.clear()
    with states._STATES_LOCK:
        states._STATES.clear()
    yield
    cache.clear()


def new_player(**fields: Any) -> Player:
    return cast(Player, PlayerFactory(**fields))


@pytest.fixture
def organiser(db: None) -> Player:
    return new_player(handle="orga")


@pytest.fixture
def club(organiser: Player) -> Club:
    return club_create(name="Casino de Lugo", slug="lugo", by=organiser)


@pytest.fixture
def make_tournament(club: Club, organiser: Player) -> Callable[..., Tournament]:
    def make(**fields: Any) -> Tournament:
        fields.setdefault("name", "Open")
        fields.setdefault("game", "tute2")
        fields.setdefault("format", "single_elim")
        fields["tie_breaks"] = tuple(fields.get("tie_breaks", ()))
        return tournament_create(club=club, by=organiser, settings=Settings(**fields))

    return make


@pytest.fixture
def enter() -> Callable[..., list[Entrant]]:
    """``enter(tournament, n)``: n new people register (Tute 4: each with a new partner)."""

    def make(tournament: Tournament, n: int, **kwargs: Any) -> list[Entrant]:
        out = []
        for _ in range(n):
            player = new_player()
            if tournament.game == "tute4" and "partner" not in kwargs and "partner_bot" not in kwargs:
                kwargs_one = {**kwargs, "partner": new_player().handle}
            else:
                kwargs_one = kwargs
            out.append(register(tournament_id=tournament.pk, player=player, **kwargs_one))
        return out

    return make


def refreshed(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def playing(tournament: Tournament, round: int | None = None) -> list[TournamentMatch]:
    qs = TournamentMatch.objects.filter(tournament=tournament, status=TournamentMatch.Status.PLAYING)
    if round is not None:
        qs = qs.filter(round__number=round)
    return list(qs.select_related("match").prefetch_related("slots__entrant").order_by("board"))


def entrants_in(tm: TournamentMatch) -> list[Entrant]:
    return [s.entrant for s in sorted(tm.slots.all(), key=lambda s: s.position)]


def decide(tm: TournamentMatch, winner: Entrant) -> TournamentMatch:
    """The other entrant's player resigns; the result is recorded as the task would."""
    assert tm.match is not None
    loser = next(e for e in entrants_in(tm) if e.pk != winner.pk)
    seated = loser.player or loser.partner
    assert seated is not None, "decide() needs a person on the losing side"
    match_resign(match_id=tm.match.pk, player=seated)
    recorded = match_result_record(match_id=tm.match.pk)
    assert recorded is not None
    return recorded


def play_out(match_id: int, *, max_plies: int = 5000) -> Match:
    """House bots play every seat of the match through the service, to the end."""
    for _ in range(max_plies):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.IN_PROGRESS:
            return match
        assert bot_turn_play(match_id=match_id, ply=match.ply) is not None
    raise AssertionError(f"match {match_id} did not finish")


def advance(tournament: Tournament) -> Tournament | None:
    t = refreshed(tournament)
    return tournament_advance(tournament_id=t.pk, after_round=t.current_round)


def run_to_end(
    tournament: Tournament, choose: Callable[[TournamentMatch], Entrant | None], *, rounds: int = 200
) -> Tournament:
    """Decide every match (``choose`` names the winner; None: house bots play it out), round by round."""
    for _ in range(rounds):
        t = refreshed(tournament)
        if t.status != Tournament.Status.RUNNING:
            return t
        for tm in playing(t):
            winner = choose(tm)
            if winner is None:
                assert tm.match is not None
                play_out(tm.match.pk)
                assert match_result_record(match_id=tm.match.pk) is not None
            else:
                decide(tm, winner)
        advance(t)
    raise AssertionError("the tournament did not finish")


def better_seed(tm: TournamentMatch) -> Entrant:
    return min(entrants_in(tm), key=lambda e: e.seed or 0)
