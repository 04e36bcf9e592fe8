"""The tournaments API under /api/v1/: one thin view per operation; services do the work.

Reads are open to anyone; entering, checking in and withdrawing need a signed-in player; creating and
running tournaments (invitations, house bots, start, corrections) need an organiser of the club, which
the services check (``not_organiser``, 403).

The package, by operation: ``clubs``, ``tournaments`` (settings, start, cancel), ``entrants``, ``rounds``
(rounds, matches, no-shows, standings, the bracket), ``boards`` (duplicate boards and score sheets),
``corrections``; ``outputs`` holds the output shapes they share and ``common`` the look-ups.
"""

from __future__ import annotations

from tournaments.apis.boards import BoardListApi, BoardSheetApi
from tournaments.apis.clubs import ClubDetailApi, ClubListCreateApi, ClubMembersApi
from tournaments.apis.corrections import CorrectionListCreateApi, PointInput
from tournaments.apis.entrants import (
    BotFillApi,
    CheckInApi,
    EntrantListApi,
    EntrantRenameApi,
    InviteApi,
    PartnerApi,
    RegisterApi,
    WithdrawApi,
)
from tournaments.apis.rounds import (
    BracketApi,
    ConfirmApi,
    MatchDetailApi,
    MatchListApi,
    NoShowApi,
    ReportApi,
    ResultApi,
    RoundListApi,
    StandingsApi,
)
from tournaments.apis.tournaments import CancelApi, StartApi, TournamentDetailApi, TournamentListCreateApi

__all__ = [
    "BoardListApi",
    "BoardSheetApi",
    "BotFillApi",
    "BracketApi",
    "CancelApi",
    "CheckInApi",
    "ClubDetailApi",
    "ClubListCreateApi",
    "ClubMembersApi",
    "ConfirmApi",
    "CorrectionListCreateApi",
    "EntrantListApi",
    "EntrantRenameApi",
    "InviteApi",
    "MatchDetailApi",
    "MatchListApi",
    "NoShowApi",
    "PartnerApi",
    "PointInput",
    "RegisterApi",
    "ReportApi",
    "ResultApi",
    "RoundListApi",
    "StandingsApi",
    "StartApi",
    "TournamentDetailApi",
    "TournamentListCreateApi",
    "WithdrawApi",
]
