from django.contrib.auth import views as auth_views
from django.urls import path

from web import views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<str:pool>/", views.leaderboard, name="leaderboard"),
    path("players/<slug:handle>/", views.player_detail, name="player"),
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("me/", views.me, name="me"),
    path("play/", views.play, name="play"),
    path("bots/", views.bots, name="bots"),
    path("bots/<slug:handle>/token/", views.bot_rotate, name="bot-rotate"),
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
