"""Tournaments in the admin (issue 26): league organisers create and edit them (the
model's add and change permissions, as for leagues), see the entries, and start a
tournament now or cancel it. Rounds and tables are the tournament's own doing: shown, never
edited."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.tournaments import live, rounds
from games.tournaments.models import Entry, Round, Status, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("player", "created_at", "withdrawn_at", "paused")
    readonly_fields = ("created_at",)
    raw_id_fields = ("player",)


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "seed", "started_at", "finished_at")
    readonly_fields = fields
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "league", "game_type", "format", "starts_at", "status")
    list_filter = ("status", "format", "game_type", "league")
    search_fields = ("name", "league__name")
    date_hierarchy = "starts_at"
    raw_id_fields = ("created_by",)
    readonly_fields = ("seed", "started_at", "finished_at", "created_at")
    inlines = [EntryInline, RoundInline]
    fieldsets = (
        (None, {"fields": ("name", "league", "game_type", "status", "starts_at")}),
        (
            _("Format"),
            {
                "fields": (
                    "format",
                    "table_size",
                    "round_count",
                    "duration_minutes",
                    "go_on",
                    "duplicate_deals",
                    "tiebreaks",
                )
            },
        ),
        (
            _("Record"),
            {
                "fields": (
                    "chat_id",
                    "created_by",
                    "seed",
                    "created_at",
                    "started_at",
                    "finished_at",
                )
            },
        ),
    )
    actions = ["start_now", "cancel"]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # An organiser's edit (its name, its start, an entry) shows on the open pages too.
        live.touch(form.instance.pk)

    @admin.action(description=_("Start the selected tournaments now"), permissions=["change"])
    def start_now(self, request, queryset):
        for tournament in queryset.filter(status__in=(Status.SCHEDULED, Status.SIGNUP)):
            rounds.start_now(tournament)
        self.message_user(request, _("Started the tournaments that took sign-ups."))

    @admin.action(description=_("Cancel the selected tournaments"), permissions=["change"])
    def cancel(self, request, queryset):
        for tournament in queryset:
            rounds.cancel(tournament)
        self.message_user(request, _("Tournaments cancelled."))
