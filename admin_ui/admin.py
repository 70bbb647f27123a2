"""The Django admin: staff accounts, players, leagues, games, seats and moves."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from games.models import Game, League, Move, Player, Seat

from .models import User

admin.site.site_header = _("catclub administration")
admin.site.site_title = _("catclub admin")
admin.site.index_title = _("Leagues, games and moderation")

admin.site.register(User, UserAdmin)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = (
        "display_name",
        "username",
        "telegram_id",
        "language",
        "reachable",
        "is_banned",
        "last_seen",
    )
    list_filter = ("language", "is_banned", "reachable")
    search_fields = ("display_name", "username", "=telegram_id")
    readonly_fields = ("telegram_id", "created_at", "last_seen")
    date_hierarchy = "created_at"


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "game_word", "is_active", "created_at")
    list_filter = ("is_active",)
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "player", "strategy", "replaced_by_computer", "timeouts")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "game_type",
        "status",
        "chat_id",
        "league",
        "version",
        "created_at",
        "finished_at",
    )
    list_filter = ("game_type", "status", "league")
    search_fields = ("=id", "=chat_id", "seats__player__display_name")
    list_select_related = ("league",)
    readonly_fields = (
        "game_type",
        "chat_id",
        "status",
        "created_by",
        "seed",
        "options",
        "version",
        "deadline",
        "result",
        "created_at",
        "started_at",
        "finished_at",
    )
    date_hierarchy = "created_at"
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "player", "strategy", "replaced_by_computer", "timeouts")
    list_filter = ("replaced_by_computer", "strategy", "game__game_type")
    search_fields = ("=game__id", "player__display_name", "player__username")
    list_select_related = ("game", "player")
    raw_id_fields = ("game", "player")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "action", "source", "status", "created_at")
    list_filter = ("status", "source", "game__game_type")
    search_fields = ("=game__id", "action", "key")
    list_select_related = ("game",)
    readonly_fields = (
        "game",
        "key",
        "seat",
        "action",
        "source",
        "seen_version",
        "status",
        "seq",
        "reason",
        "created_at",
        "processed_at",
    )

    # The move log is the truth of a game: it is read, never edited by hand.
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
