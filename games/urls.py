from django.urls import path

from games import apis, board_apis

# Django tries the patterns in order: the two that every move calls come first. The ladder's bots/...
# paths (ladder/urls.py) are included after these; none of them matches another's path.
urlpatterns = [
    path("matches/<int:match_id>/view/", apis.MatchViewApi.as_view(), name="match-view"),
    path("matches/<int:match_id>/actions/", apis.ActionSubmitApi.as_view(), name="match-actions"),
    path("matches/", apis.MatchListCreateApi.as_view(), name="match-list"),
    path("matches/<int:match_id>/", apis.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:match_id>/join/", apis.MatchJoinApi.as_view(), name="match-join"),
    path("matches/<int:match_id>/leave/", apis.MatchLeaveApi.as_view(), name="match-leave"),
    path("matches/<int:match_id>/resign/", apis.MatchResignApi.as_view(), name="match-resign"),
    path("matches/<int:match_id>/abort/", apis.MatchAbortApi.as_view(), name="match-abort"),
    path("matches/<int:match_id>/accept/", apis.ChallengeAcceptApi.as_view(), name="match-accept"),
    path("matches/<int:match_id>/decline/", apis.ChallengeDeclineApi.as_view(), name="match-decline"),
    path("matches/<int:match_id>/client-seed/", apis.ClientSeedApi.as_view(), name="match-client-seed"),
    path(
        "matches/<int:match_id>/client_seed/",
        apis.ClientSeedAliasApi.as_view(),
        name="match-client-seed-alias",
    ),
    path("matches/<int:match_id>/record/", apis.MatchRecordApi.as_view(), name="match-record"),
    path("boards/<int:board_id>/", board_apis.BoardDetailApi.as_view(), name="board-detail"),
    path("bots/me/turns/", apis.MyTurnsApi.as_view(), name="my-turns"),
    path("bots/<slug:handle>/token/", apis.BotTokenRotateApi.as_view(), name="bot-token-rotate"),
    path("stream/events/", apis.EventStreamApi.as_view(), name="event-stream"),
    path("me/", apis.MeApi.as_view(), name="me"),
    path("me/tokens/", apis.MyTokenCreateApi.as_view(), name="my-token-create"),
    path("me/tokens/<int:token_id>/", apis.MyTokenRevokeApi.as_view(), name="my-token-revoke"),
]
