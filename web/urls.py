from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from web import bot_views, ladder_views, live, match_views, views
from web import night_views as nv
from web import people_views as pv
from web import tournament_views as tv

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<str:pool>/", views.leaderboard, name="leaderboard"),
    path("players/<slug:handle>/", views.player_detail, name="player"),
    path("matches/<int:match_id>/", match_views.match_detail, name="match"),
    path("matches/<int:match_id>/boards/<int:board>/", match_views.match_board, name="match-board"),
    path("matches/<int:match_id>/events/", live.match_events, name="match-events"),
    path("matches/<int:match_id>/moments/", live.match_moments_json, name="match-moments"),
    path("matches/<int:match_id>/replay/", match_views.match_replay_steps, name="match-replay"),
    path("me/", views.me, name="me"),
    path("play/", views.play, name="play"),
    path("play/table/", pv.table_new, name="table-new"),
    path("play/seek/", pv.seek_new, name="seek-new"),
    path("play/seeks/<int:seek_id>/", pv.seek_page, name="seek"),
    path("play/seeks/<int:seek_id>/cancel/", pv.seek_stop, name="seek-cancel"),
    path("play/seeks/<int:seek_id>/answer/", pv.seek_take, name="seek-answer"),
    path("lobby/", pv.lobby, name="lobby"),
    path("join/<str:code>/", pv.join, name="join"),
    path("matches/<int:match_id>/sit/", pv.table_sit, name="table-sit"),
    path("matches/<int:match_id>/bots/", pv.table_bots, name="table-bots"),
    path("matches/<int:match_id>/leave/", pv.table_leave, name="table-leave"),
    path("matches/<int:match_id>/call-off/", pv.table_call_off, name="table-call-off"),
    path("matches/<int:match_id>/answer/", pv.challenge_answer, name="challenge-answer"),
    path("matches/<int:match_id>/rematch/", pv.rematch, name="rematch"),
    path("players/<slug:handle>/challenge/", pv.player_challenge, name="player-challenge"),
    path("bots/", bot_views.bots, name="bots"),
    path("bots/<slug:handle>/token/", bot_views.bot_rotate, name="bot-rotate"),
    path("bots/<slug:handle>/status/", ladder_views.bot_status_page, name="bot-status"),
    path("ladder/", ladder_views.ladder, name="ladder"),
    path("ladder/<str:game>/", ladder_views.ladder, name="ladder-game"),
    path("bots/<slug:handle>/challenge/", views.bot_challenge, name="bot-challenge"),
    path("bots/<slug:handle>/auto-accept/", bot_views.bot_auto_accept, name="bot-auto-accept"),
    path("docs/<slug:name>/", views.doc_page, name="doc"),
    path("tokens/", bot_views.tokens, name="tokens"),
    path("tokens/<int:token_id>/revoke/", bot_views.token_revoke_view, name="token-revoke"),
    path("rules/", views.rules, name="rules"),
    path("tournaments/", tv.tournament_list, name="tournaments"),
    path("tournaments/new/", tv.tournament_new, name="tournament-new"),
    path("tournaments/<int:tournament_id>/", tv.tournament_page, name="tournament"),
    path(
        "tournaments/<int:tournament_id>/boards/<int:number>/", tv.tournament_board, name="tournament-board"
    ),
    path(
        "tournaments/<int:tournament_id>/matches/<int:tournament_match_id>/result/",
        nv.table_result,
        name="tournament-result",
    ),
    path("tournaments/<int:tournament_id>/print/", nv.tournament_print, name="tournament-print"),
    path("tournaments/<int:tournament_id>/screen/", nv.tournament_screen, name="tournament-screen"),
    path(
        "tournaments/<int:tournament_id>/export/<str:what>",
        nv.tournament_export,
        name="tournament-export",
    ),
    path("tournaments/<int:tournament_id>/register/", tv.tournament_register, name="tournament-register"),
    path("tournaments/<int:tournament_id>/check-in/", tv.tournament_check_in, name="tournament-check-in"),
    path("tournaments/<int:tournament_id>/invite/", tv.tournament_invite, name="tournament-invite"),
    path(
        "tournaments/<int:tournament_id>/matches/<int:tournament_match_id>/correct/",
        tv.tournament_correct,
        name="tournament-correct",
    ),
    path(
        "tournaments/<int:tournament_id>/matches/<int:tournament_match_id>/no-show/",
        tv.tournament_no_show,
        name="tournament-no-show",
    ),
    path("tournaments/<int:tournament_id>/withdraw/", tv.tournament_withdraw, name="tournament-withdraw"),
    path("tournaments/<int:tournament_id>/bots/", tv.tournament_bots, name="tournament-bots"),
    path("tournaments/<int:tournament_id>/start/", tv.tournament_start_view, name="tournament-start"),
    path("tournaments/<int:tournament_id>/cancel/", tv.tournament_cancel_view, name="tournament-cancel"),
    path("clubs/", tv.club_list, name="clubs"),
    path("clubs/new/", tv.club_new, name="club-new"),
    path("clubs/<slug:slug>/", tv.club_page, name="club"),
    path("clubs/<slug:slug>/members/", tv.club_member_add, name="club-member-add"),
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password-reset/",
        auth_views.PasswordResetView.as_view(
            template_name="web/accounts/password_reset_form.html",
            email_template_name="web/accounts/password_reset_email.txt",
            subject_template_name="web/accounts/password_reset_subject.txt",
            success_url=reverse_lazy("web:password-reset-done"),
        ),
        name="password-reset",
    ),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="web/accounts/password_reset_done.html"),
        name="password-reset-done",
    ),
    path(
        "password-reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="web/accounts/password_reset_confirm.html",
            success_url=reverse_lazy("web:password-reset-complete"),
        ),
        name="password-reset-confirm",
    ),
    path(
        "password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="web/accounts/password_reset_complete.html"
        ),
        name="password-reset-complete",
    ),
]
