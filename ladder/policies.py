"""The ladder's rules in games' decisions (games.policies, registered by LadderConfig.ready())."""

from __future__ import annotations

from collections.abc import Sequence

from games.errors import BotNotValidated
from games.models import Player
from ladder.selectors import unvalidated_bots


def unvalidated_bots_refused(*, game: str, players: Sequence[Player]) -> BotNotValidated | None:
    """A bot account not validated for ``game`` plays no rated match of it: the refusal naming them."""
    unvalidated = unvalidated_bots(game=game, players=players)
    if not unvalidated:
        return None
    handles = sorted(p.handle for p in unvalidated)
    return BotNotValidated(
        f"{', '.join(handles)} must pass validation for {game} before playing rated matches "
        f"(POST /api/v1/bots/{{handle}}/validation/), or create the match unrated.",
        detail={"bots": handles, "game": game},
    )
