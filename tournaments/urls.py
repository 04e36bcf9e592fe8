from django.urls import path

from tournaments import apis

T = "tournaments/<int:tournament_id>/"

urlpatterns = [
    path("clubs/", apis.ClubListCreateApi.as_view(), name="club-list"),
    path("clubs/<slug:slug>/", apis.ClubDetailApi.as_view(), name="club-detail"),
    path("clubs/<slug:slug>/members/", apis.ClubMembersApi.as_view(), name="club-members"),
    path("tournaments/", apis.TournamentListCreateApi.as_view(), name="tournament-list"),
    path(T, apis.TournamentDetailApi.as_view(), name="tournament-detail"),
    path(T + "entrants/", apis.EntrantListApi.as_view(), name="tournament-entrants"),
    path(T + "entrants/<int:entrant_id>/", apis.EntrantRenameApi.as_view(), name="tournament-entrant"),
    path(T + "entrants/<int:entrant_id>/partner/", apis.PartnerApi.as_view(), name="tournament-partner"),
    path(T + "register/", apis.RegisterApi.as_view(), name="tournament-register"),
    path(T + "invite/", apis.InviteApi.as_view(), name="tournament-invite"),
    path(T + "check-in/", apis.CheckInApi.as_view(), name="tournament-check-in"),
    path(T + "withdraw/", apis.WithdrawApi.as_view(), name="tournament-withdraw"),
    path(T + "bots/", apis.BotFillApi.as_view(), name="tournament-bots"),
    path(T + "start/", apis.StartApi.as_view(), name="tournament-start"),
    path(T + "cancel/", apis.CancelApi.as_view(), name="tournament-cancel"),
    path(T + "rounds/", apis.RoundListApi.as_view(), name="tournament-rounds"),
    path(T + "matches/", apis.MatchListApi.as_view(), name="tournament-matches"),
    path(T + "matches/<int:tournament_match_id>/", apis.MatchDetailApi.as_view(), name="tournament-match"),
    path(
        T + "matches/<int:tournament_match_id>/no-show/",
        apis.NoShowApi.as_view(),
        name="tournament-match-no-show",
    ),
    path(
        T + "matches/<int:tournament_match_id>/result/",
        apis.ResultApi.as_view(),
        name="tournament-match-result",
    ),
    path(
        T + "matches/<int:tournament_match_id>/report/",
        apis.ReportApi.as_view(),
        name="tournament-match-report",
    ),
    path(
        T + "matches/<int:tournament_match_id>/confirm/",
        apis.ConfirmApi.as_view(),
        name="tournament-match-confirm",
    ),
    path(T + "standings/", apis.StandingsApi.as_view(), name="tournament-standings"),
    path(T + "boards/", apis.BoardListApi.as_view(), name="tournament-boards"),
    path(T + "boards/<int:number>/", apis.BoardSheetApi.as_view(), name="tournament-board"),
    path(T + "bracket/", apis.BracketApi.as_view(), name="tournament-bracket"),
    path(T + "corrections/", apis.CorrectionListCreateApi.as_view(), name="tournament-corrections"),
]
