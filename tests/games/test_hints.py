"""Hints in practice games (the strongest level's move for the caller's seat, never in rated games,
tournaments or the ladder) and the house levels with their ratings."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from games.selectors import match_context
from ratings.models import Rating
from tests.factories import MatchFactory

pytestmark = pytest.mark.django_db


def my_turn_match(me: Player, *, rated: bool) -> Match:
    """A Tute 2 of ``me`` against the rule bot where ``me`` is the mano (seat 1 leads the first trick)."""
    return MatchFactory(created_by=me, game="tute2", seats=["rule", me], rated=rated)


def test_a_practice_game_gives_the_strongest_levels_move_and_is_marked(
    make_player: Callable[..., Player], token_client: Callable[[Player], APIClient]
) -> None:
    me = make_player()
    match = my_turn_match(me, rated=False)
    context = match_context(match.pk, lock=False)
    assert context.state is not None and context.state.current_player() == 1
    answer = token_client(me).get(f"/api/v1/matches/{match.pk}/hint/")
    assert answer.status_code == 200, answer.content
    hint = answer.json()
    assert (
        hint["action"] in context.state.legal_actions()
        and hint["ply"] == match.ply
        and hint["level"] == "search"
    )
    match.refresh_from_db()
    assert match.hints_used
    # the same position gives the same hint (its randomness is the game's seed and ply)
    assert token_client(me).get(f"/api/v1/matches/{match.pk}/hint/").json() == hint


def test_no_hints_in_rated_games_tournaments_or_among_people(
    make_player: Callable[..., Player], token_client: Callable[[Player], APIClient]
) -> None:
    me, other = make_player(), make_player()
    rated = my_turn_match(me, rated=True)
    refused = token_client(me).get(f"/api/v1/matches/{rated.pk}/hint/")
    assert refused.status_code == 403 and refused.json()["code"] == "hints_not_allowed"
    managed = MatchFactory(
        created_by=me, game="tute2", seats=["rule", me], rated=False, managed=True, challenge=False
    )
    assert token_client(me).get(f"/api/v1/matches/{managed.pk}/hint/").json()["code"] == "hints_not_allowed"
    people = MatchFactory(created_by=me, game="tute2", seats=[other, me], rated=False, challenge=False)
    assert token_client(me).get(f"/api/v1/matches/{people.pk}/hint/").json()["code"] == "hints_not_allowed"
    assert token_client(other).get(f"/api/v1/matches/{rated.pk}/hint/").json()["code"] == "not_seated"
    for m in (rated, managed, people):
        m.refresh_from_db()
        assert not m.hints_used


def test_a_hint_is_for_ones_own_turn(
    make_player: Callable[..., Player], token_client: Callable[[Player], APIClient]
) -> None:
    me = make_player()
    match = MatchFactory(
        created_by=me, game="tute2", seats=[me, "rule"], rated=False
    )  # seat 1 (the bot) leads
    context = match_context(match.pk, lock=False)
    assert context.state is not None and context.state.current_player() == 1
    answer = token_client(me).get(f"/api/v1/matches/{match.pk}/hint/")
    assert answer.status_code == 409 and answer.json()["code"] == "not_your_turn"


def test_the_house_levels_are_listed_weakest_first_with_their_ratings() -> None:
    Rating.objects.create(pool="tute2", subject="house:rule", rating=1612.34, rated_matches=40)
    Rating.objects.create(pool="pocha", subject="house:search", rating=1701.0, rated_matches=12)
    levels = APIClient().get("/api/v1/bots/levels/").json()
    assert [level["level"] for level in levels] == ["random", "beginner", "casual", "rule", "search"]
    assert all(level["description"] for level in levels)
    assert levels[3]["ratings"] == {"tute2": {"rating": 1612.3, "rated_matches": 40, "as_of": None}}
    assert levels[4]["ratings"]["pocha"]["rating"] == 1701.0 and levels[0]["ratings"] == {}
