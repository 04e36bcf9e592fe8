from django.urls import path

from lobby import apis

urlpatterns = [
    path("lobby/", apis.LobbyApi.as_view(), name="lobby"),
    path("lobby/stream/", apis.LobbyStreamApi.as_view(), name="lobby-stream"),
    path("seeks/", apis.SeekListCreateApi.as_view(), name="seek-list"),
    path("seeks/<int:seek_id>/", apis.SeekDetailApi.as_view(), name="seek-detail"),
    path("seeks/<int:seek_id>/answer/", apis.SeekAnswerApi.as_view(), name="seek-answer"),
]
