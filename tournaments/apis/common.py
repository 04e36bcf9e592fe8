"""What the tournaments API's views share: looking up what a URL names, an entrant's output."""

from __future__ import annotations

from typing import Any

from tournaments.apis.outputs import EntrantOutput
from tournaments.errors import ClubNotFound, EntrantNotFound, TournamentNotFound
from tournaments.models import Club, Tournament
from tournaments.selectors import club_by_slug, entrants_of, tournament_detail


def club_found(slug: str) -> Club:
    club = club_by_slug(slug=slug)
    if club is None:
        raise ClubNotFound()
    return club


def found(tournament_id: int) -> Tournament:
    tournament = tournament_detail(tournament_id=tournament_id)
    if tournament is None:
        raise TournamentNotFound()
    return tournament


def entrant_out(tournament: Tournament, entrant_id: int) -> dict[str, Any]:
    ref = next((e for e in entrants_of(tournament=tournament) if e.id == entrant_id), None)
    if ref is None:
        raise EntrantNotFound()
    return EntrantOutput(ref).data
