from django.urls import path

from matchmaking import apis

urlpatterns = [
    path("ladder/<str:game>/leaderboard/", apis.BotLeaderboardApi.as_view(), name="bot-leaderboard"),
    path("bots/<slug:handle>/status/", apis.BotStatusApi.as_view(), name="bot-status"),
]
