from django.urls import path

from ratings import apis

urlpatterns = [
    path("ratings/<str:pool>/leaderboard/", apis.LeaderboardApi.as_view(), name="leaderboard"),
    path("players/<slug:handle>/ratings/", apis.PlayerRatingsApi.as_view(), name="player-ratings"),
]
