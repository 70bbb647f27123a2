from django.urls import path

from . import archive, card_art, events, play, players, tournaments, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("rules/<slug:slug>/", views.rules_detail, name="rules-game"),
    path("art/<slug:slug>.svg", card_art.sprite, name="card-sprite"),
    path("leagues/", views.league_list, name="leagues"),
    path("leagues/<slug:slug>/", views.league_detail, name="league"),
    path("tournaments/<int:pk>/", tournaments.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/entry/", tournaments.tournament_entry, name="tournament-entry"),
    path("tournaments/<int:pk>/live/", tournaments.tournament_live, name="tournament-live"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("games/<int:pk>/", views.game_detail, name="game"),
    path("games/", archive.game_list, name="games"),
    path("players/", players.player_list, name="players"),
    path("leaderboard/", players.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:slug>/", players.leaderboard, name="leaderboard-game"),
    path("play/", play.new_table, name="play"),
    path("play/new/", play.create_table, name="play-create"),
    path("play/tg/", play.miniapp_entry, name="miniapp"),
    path("play/tg/signin/", play.miniapp_signin, name="miniapp-signin"),
    path("play/<int:pk>/", play.table, name="table"),
    path("play/<int:pk>/state/", play.state, name="table-state"),
    path("play/<int:pk>/events/", events.events, name="table-events"),
    path("play/<int:pk>/move/", play.move, name="table-move"),
    path("play/<int:pk>/join/", play.join, name="table-join"),
    path("play/<int:pk>/start/", play.start, name="table-start"),
    path("play/<int:pk>/computer/", play.computer, name="table-computer"),
]
