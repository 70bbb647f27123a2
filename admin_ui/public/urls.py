from django.urls import path

from . import views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("leagues/", views.league_list, name="leagues"),
    path("leagues/<slug:slug>/", views.league_detail, name="league"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("games/<int:pk>/", views.game_detail, name="game"),
]
