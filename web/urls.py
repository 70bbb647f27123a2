from django.urls import path, register_converter

from . import (
    archive,
    card_art,
    casual,
    play,
    players,
    reports,
    telegram_login,
    tournaments,
    views,
)
from .ids import IdConverter
from .live import poll, stream

register_converter(IdConverter, "id")

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("rules/<slug:slug>/", views.rules_detail, name="rules-game"),
    path("art/<slug:slug>.svg", card_art.sprite, name="card-sprite"),
    path("leagues/", views.league_list, name="leagues"),
    path("leagues/<slug:slug>/", views.league_detail, name="league"),
    path("tournaments/", tournaments.tournament_list, name="tournaments"),
    path("tournaments/new/", tournaments.tournament_create, name="tournament-new"),
    path("tournaments/<id:pk>/", tournaments.tournament_detail, name="tournament"),
    path("tournaments/<id:pk>/entry/", tournaments.tournament_entry, name="tournament-entry"),
    path("tournaments/<id:pk>/live/", tournaments.tournament_live, name="tournament-live"),
    path("signin/", telegram_login.signin, name="signin"),
    path("signin/telegram/", telegram_login.telegram_login_done, name="signin-telegram"),
    path("signin/link/<str:token>/", telegram_login.signin_link, name="signin-link"),
    path("players/<id:pk>/", views.player_detail, name="player"),
    path("games/<id:pk>/", views.game_detail, name="game"),
    path("games/", archive.game_list, name="games"),
    path("players/", players.player_list, name="players"),
    path("leaderboard/", players.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:slug>/", players.leaderboard, name="leaderboard-game"),
    path("play/", play.new_table, name="play"),
    path("play/new/", play.create_table, name="play-create"),
    path("play/tg/", play.miniapp_entry, name="miniapp"),
    path("play/tg/signin/", play.miniapp_signin, name="miniapp-signin"),
    path("play/<id:pk>/", play.table, name="table"),
    path("play/<id:pk>/state/", poll.state, name="table-state"),
    path("play/<id:pk>/events/", stream.events, name="table-events"),
    path("play/<id:pk>/move/", play.move, name="table-move"),
    path("play/<id:pk>/join/", play.join, name="table-join"),
    path("play/<id:pk>/start/", play.start, name="table-start"),
    path("play/<id:pk>/computer/", play.computer, name="table-computer"),
    path("play/<id:pk>/present/", casual.present, name="table-present"),
    path("play/<id:pk>/again/", casual.again, name="table-again"),
]
urlpatterns += reports.urls()  # issue 48: reporting a player
