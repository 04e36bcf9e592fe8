"""Rules that the apps built on games add to its decisions, without games importing them: each app
registers its policies from its AppConfig.ready() (the ladder: a bot account not validated for a game
plays no rated match of it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from games.models import Player
from tute_site.exceptions import ApplicationError


class RatedMatchPolicy(Protocol):
    def __call__(self, *, game: str, players: Sequence[Player]) -> ApplicationError | None:
        """The error that refuses a rated match of ``game`` to ``players``, or None when they may play it."""


_RATED_MATCH_POLICIES: list[RatedMatchPolicy] = []


def rated_match_policy_register(policy: RatedMatchPolicy) -> None:
    """Consult ``policy`` for every rated match from now on (once, however often it is registered)."""
    if policy not in _RATED_MATCH_POLICIES:
        _RATED_MATCH_POLICIES.append(policy)


def rated_match_refusal(*, game: str, players: Sequence[Player]) -> ApplicationError | None:
    """The first registered policy's refusal of a rated match of ``game`` to ``players``, if any."""
    for policy in _RATED_MATCH_POLICIES:
        refusal = policy(game=game, players=players)
        if refusal is not None:
            return refusal
    return None
