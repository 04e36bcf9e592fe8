from django.urls import path

from ratings import apis

urlpatterns = [
    path("ratings/<str:pool>/leaderboard/", apis.LeaderboardApi.as_view(), name="leaderboard"),
    # Before the ladder's bots/<handle>/ (tute_site/urls.py includes this module first).
    path("bots/levels/", apis.BotLevelsApi.as_view(), name="bot-levels"),
    path("players/<slug:handle>/ratings/", apis.PlayerRatingsApi.as_view(), name="player-ratings"),
]
