from django.urls import path

from ladder import apis

# Included after games/urls.py under /api/v1/: beside its bots/me/turns/ and bots/<handle>/token/, and
# matching none of its paths (each bots/... path here differs from those in a literal segment or in
# its number of segments).
urlpatterns = [
    path("bots/", apis.BotListCreateApi.as_view(), name="bot-list"),
    path("bots/me/notices/", apis.MyNoticesApi.as_view(), name="my-notices"),
    path("bots/<slug:handle>/", apis.BotSettingsApi.as_view(), name="bot-settings"),
    path("bots/<slug:handle>/validation/", apis.ValidationRequestApi.as_view(), name="bot-validation"),
    path("bots/<slug:handle>/status/", apis.BotStatusApi.as_view(), name="bot-status"),
    path("ladder/<str:game>/leaderboard/", apis.BotLeaderboardApi.as_view(), name="bot-leaderboard"),
]
