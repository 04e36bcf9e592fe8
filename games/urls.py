from django.urls import path

from games.apis import accounts, boards, matches, play, reviews

# Django tries the patterns in order: the two that every move calls come first. The ladder's bots/...
# paths (ladder/urls.py) are included after these; none of them matches another's path.
urlpatterns = [
    path("matches/<int:match_id>/view/", play.MatchViewApi.as_view(), name="match-view"),
    path("matches/<int:match_id>/actions/", play.ActionSubmitApi.as_view(), name="match-actions"),
    path("matches/", matches.MatchListCreateApi.as_view(), name="match-list"),
    path("matches/<int:match_id>/", matches.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:match_id>/join/", matches.MatchJoinApi.as_view(), name="match-join"),
    path("matches/<int:match_id>/bots/", matches.MatchBotsApi.as_view(), name="match-bots"),
    path("matches/<int:match_id>/rematch/", matches.MatchRematchApi.as_view(), name="match-rematch"),
    path("matches/<int:match_id>/leave/", matches.MatchLeaveApi.as_view(), name="match-leave"),
    path("matches/<int:match_id>/resign/", matches.MatchResignApi.as_view(), name="match-resign"),
    path("matches/<int:match_id>/abort/", matches.MatchAbortApi.as_view(), name="match-abort"),
    path("matches/<int:match_id>/accept/", matches.ChallengeAcceptApi.as_view(), name="match-accept"),
    path("matches/<int:match_id>/decline/", matches.ChallengeDeclineApi.as_view(), name="match-decline"),
    path("matches/<int:match_id>/client-seed/", matches.ClientSeedApi.as_view(), name="match-client-seed"),
    path(
        "matches/<int:match_id>/client_seed/",
        matches.ClientSeedAliasApi.as_view(),
        name="match-client-seed-alias",
    ),
    path("matches/<int:match_id>/record/", play.MatchRecordApi.as_view(), name="match-record"),
    path("matches/<int:match_id>/hint/", play.MatchHintApi.as_view(), name="match-hint"),
    path("matches/<int:match_id>/review/", reviews.MatchReviewApi.as_view(), name="match-review"),
    path("boards/<int:board_id>/", boards.BoardDetailApi.as_view(), name="board-detail"),
    path("bots/me/turns/", play.MyTurnsApi.as_view(), name="my-turns"),
    path("bots/<slug:handle>/token/", accounts.BotTokenRotateApi.as_view(), name="bot-token-rotate"),
    path("stream/events/", play.EventStreamApi.as_view(), name="event-stream"),
    path("me/", accounts.MeApi.as_view(), name="me"),
    path("me/challenges/", matches.MyChallengesApi.as_view(), name="my-challenges"),
    path("me/tokens/", accounts.MyTokenCreateApi.as_view(), name="my-token-create"),
    path("me/tokens/<int:token_id>/", accounts.MyTokenRevokeApi.as_view(), name="my-token-revoke"),
]
