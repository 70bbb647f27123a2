"""The Django admin: staff accounts, players, leagues, games, seats, moves, ratings and
the moderation log. Moderator actions (ban, abort, seat to computer, flag not rated, and
the moves a game declares for moderators) ask for a reason, need their own permission and
are logged."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.options import IS_POPUP_VAR
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import catalog
from games.capabilities import ModeratorMove
from games.leagues import services as leagues
from games.leagues.models import League, LeagueChat, LeagueMember, Season
from games.moderation import services as moderation
from games.moderation.models import ModerationAction, ModerationKind, kind_label
from games.play import levels
from games.play.errors import GameError
from games.play.models import ENDED_STATUSES, Game, Move, Player, Seat
from games.ratings import display
from games.ratings import service as ratings
from games.ratings.models import RatedGame, Rating, RatingChange

from . import results, secrets
from .forms import BanForm, LeagueForm, PublicReasonForm, ReasonForm
from .models import User

admin.site.site_header = _("catclub administration")
admin.site.site_title = _("catclub admin")
admin.site.index_title = _("Leagues, games and moderation")

admin.site.register(User, UserAdmin)


# --- Moderation actions: a reason form, then the service, once per selected object ------
def moderate(modeladmin, request, queryset, *, kind, perform, form_class=ReasonForm):
    """Show the reason form for an admin action; on a valid post run ``perform(obj,
    user, data)`` for each selected object and report what happened."""
    if not moderation.allowed(request.user, kind):
        raise PermissionDenied
    form = form_class(request.POST if "apply" in request.POST else None)
    if "apply" in request.POST and form.is_valid():
        done = 0
        for obj in queryset:
            try:
                perform(obj, request.user, form.cleaned_data)
                done += 1
            except (GameError, PermissionDenied) as exc:
                modeladmin.message_user(request, f"{obj}: {exc}", messages.ERROR)
        if done:
            modeladmin.message_user(
                request,
                ngettext(
                    "%(action)s: done for %(count)d item.",
                    "%(action)s: done for %(count)d items.",
                    done,
                )
                % {"action": kind_label(kind), "count": done},
                messages.SUCCESS,
            )
        return None  # back to the list
    opts = modeladmin.model._meta
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": kind_label(kind).capitalize(),
        "kind": kind,
        "objects": list(queryset),
        "form": form,
        "opts": opts,
        "action_name": request.POST.get("action"),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "media": modeladmin.media + form.media,
    }
    return TemplateResponse(request, "admin/admin_ui/moderate.html", context)


class PermissionsMixin:
    """``has_<kind>_permission`` for the admin's action permission checks."""

    def has_ban_permission(self, request) -> bool:
        return moderation.allowed(request.user, ModerationKind.BAN)

    def has_abort_permission(self, request) -> bool:
        return moderation.allowed(request.user, ModerationKind.ABORT)

    def has_replace_seat_permission(self, request) -> bool:
        return moderation.allowed(request.user, ModerationKind.SEAT_TO_COMPUTER)

    def has_flag_permission(self, request) -> bool:
        return moderation.allowed(request.user, ModerationKind.FLAG_NOT_RATED)


class SecretLookupsMixin:
    """Changelist lookups on secret fields (``?seed__lt=…``, ``?action__startswith=…``)
    would find an open game's seed or a face-down card one query at a time: only staff
    who may see secrets may use them."""

    def lookup_allowed(self, lookup, value, request=None) -> bool:
        if secrets.secret_lookup(lookup) and not secrets.may_see_secrets(
            getattr(request, "user", None)
        ):
            return False
        return super().lookup_allowed(lookup, value, request)


# --- Players -------------------------------------------------------------------------------
class ShownRatingMixin:
    @admin.display(description=_("rating"), ordering="ordinal")
    def shown_rating(self, obj: Rating) -> str:
        """The rating as the pages show it; mu and sigma beside it are openskill's own."""
        return str(obj.shown)


class RatingInline(ShownRatingMixin, admin.TabularInline):
    model = Rating
    extra = 0
    fields = ("game_type", "league", "shown_rating", "mu", "sigma", "games", "updated_at")
    readonly_fields = fields
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(PermissionsMixin, admin.ModelAdmin):
    list_display = (
        "display_name",
        "username",
        "telegram_id",
        "language",
        "reachable",
        "is_banned",
        "banned_until",
        "last_seen",
    )
    list_filter = ("language", "is_banned", "reachable")
    search_fields = ("display_name", "username", "=telegram_id")
    # A ban is set by the ban action, so it is always logged with a reason.
    readonly_fields = (
        "telegram_id",
        "created_at",
        "last_seen",
        "is_banned",
        "ban_reason",
        "banned_until",
        "public_page",
    )
    date_hierarchy = "created_at"
    actions = ["ban", "unban"]
    inlines = [RatingInline]

    @admin.display(description=_("public page"))
    def public_page(self, obj):
        if not obj.pk:
            return ""
        url = reverse("web:player", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, url)

    @admin.action(description=_("Ban the selected players"), permissions=["ban"])
    def ban(self, request, queryset):
        return moderate(
            self,
            request,
            queryset,
            kind=ModerationKind.BAN,
            form_class=BanForm,
            perform=lambda player, user, data: moderation.ban(
                player, by=user, reason=data["reason"], until=data["until"]
            ),
        )

    @admin.action(description=_("Lift the ban of the selected players"), permissions=["ban"])
    def unban(self, request, queryset):
        return moderate(
            self,
            request,
            queryset,
            kind=ModerationKind.UNBAN,
            perform=lambda player, user, data: moderation.unban(
                player, by=user, reason=data["reason"]
            ),
        )


# --- Leagues ---------------------------------------------------------------------------
class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    fields = ("name", "starts_on", "ends_on")


class LeagueChatInline(admin.TabularInline):
    model = LeagueChat
    extra = 0
    fields = ("chat_id", "title", "linked_at")
    readonly_fields = ("linked_at",)


class LeagueMemberInline(admin.TabularInline):
    model = LeagueMember
    extra = 0
    fields = ("player", "joined_at", "note", "is_organiser", "is_moderator")
    raw_id_fields = ("player",)
    classes = ("collapse",)


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    form = LeagueForm
    list_display = ("name", "slug", "word", "counted", "is_active", "created_at")
    list_filter = ("is_active",)
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [SeasonInline, LeagueChatInline, LeagueMemberInline]
    readonly_fields = ("join_code",)
    fieldsets = (
        (None, {"fields": ("name", "slug", "description", "is_active")}),
        (_("Games"), {"fields": ("game_types", "word", "turn_seconds", "computer_level")}),
        # A group joins with this code only (/settings <code> in the group): the league
        # approves every chat whose games count for it.
        # Issue 26: the completion record a player needs to sit at the league's tables.
        (_("Joining"), {"fields": ("join_code", "min_completion", "review_names")}),
    )
    actions = ["issue_code", "revoke_code"]

    @admin.action(description=_("Issue a new join code (the old one stops working)"))
    def issue_code(self, request, queryset):
        for league in queryset:
            code = leagues.issue_join_code(league)
            self.message_user(request, _("%(league)s: %(code)s") % {"league": league, "code": code})

    @admin.action(description=_("Revoke the join code (no group can join)"))
    def revoke_code(self, request, queryset):
        for league in queryset:
            leagues.revoke_join_code(league)
        self.message_user(request, _("Join codes revoked."))

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        if formset.model is Season:
            # A season added or moved takes its games: its table is built again.
            for season in [*formset.new_objects, *(obj for obj, _f in formset.changed_objects)]:
                ratings.rebuild_season(season)

    @admin.display(description=_("games counted"))
    def counted(self, obj) -> str:
        labels = dict(Game._meta.get_field("game_type").choices)
        return ", ".join(str(labels[t]) for t in obj.game_types if t in labels)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "league", "starts_on", "ends_on")
    list_filter = ("league",)
    search_fields = ("name", "league__name")
    list_select_related = ("league",)
    date_hierarchy = "starts_on"

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        ratings.rebuild_season(obj)  # its games, and its table, follow its dates


@admin.register(LeagueMember)
class LeagueMemberAdmin(admin.ModelAdmin):
    list_display = ("player", "league", "joined_at", "note", "is_moderator")
    list_filter = ("league", "is_moderator")
    search_fields = ("player__display_name", "player__username", "league__name")
    list_select_related = ("player", "league")
    raw_id_fields = ("player",)


@admin.register(LeagueChat)
class LeagueChatAdmin(admin.ModelAdmin):
    list_display = ("title", "chat_id", "league", "linked_at")
    list_filter = ("league",)
    search_fields = ("title", "=chat_id", "league__name")
    list_select_related = ("league",)


# --- Games -----------------------------------------------------------------------------
def rated_level(seat: Seat) -> str:
    """A computer seat's level with its measured rating (issue 47): "hard · 1650"."""
    level = levels.level_of(seat.strategy) if seat.is_computer else None
    return levels.with_rating(seat.game.kind, level) if level else "—"


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "player", "strategy", "level", "replaced_by_computer", "timeouts")
    readonly_fields = fields

    @admin.display(description=_("level"))
    def level(self, obj: Seat) -> str:
        return rated_level(obj)

    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


# The fields the game's play sets, all read-only: moderators change games through the
# moderation actions (a reason, a record), never by editing the row. A finished game is a
# record (its ratings and standings stand on it): nothing of it changes here, not even
# its league, which rated the game when it ended.
GAME_FIELDS = (
    "game_type",
    "chat_id",
    "league",
    "status",
    "created_by",
    "seed_shown",
    "options_shown",
    "version",
    "turn_seconds",
    "deadline",
    "result_shown",
    "abort_reason",
    "abort_note",
    "auto_play",
    "flagged_not_rated",
    "not_rated_reason",
    "rating_decision_shown",
    "links",
    "created_at",
    "started_at",
    "finished_at",
)


@admin.register(Game)
class GameAdmin(SecretLookupsMixin, PermissionsMixin, admin.ModelAdmin):
    list_display = (
        "id",
        "game_type",
        "status",
        "chat_id",
        "league",
        "version",
        "flagged_not_rated",
        "created_at",
        "finished_at",
    )
    list_filter = ("game_type", "status", "league", "flagged_not_rated")
    search_fields = ("=id", "=chat_id", "seats__player__display_name")
    list_select_related = ("league",)
    fields = GAME_FIELDS
    readonly_fields = GAME_FIELDS
    date_hierarchy = "created_at"
    inlines = [SeatInline]
    actions = ["abort", "flag_not_rated", "unflag_not_rated"]

    def has_add_permission(self, request) -> bool:
        return False  # games start in the chats and on the site, through the services

    def has_change_permission(self, request, obj=None) -> bool:
        # No field is editable: the page is a view with a Close button, not a Save that
        # would change nothing. The list and its actions need only the view permission.
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        if obj is not None and obj.is_open:
            return False  # an open game ends by the abort action (a reason, a record)
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        actions = super().get_actions(request)
        # Bulk deletion would take open games too; a game is deleted from its own page.
        actions.pop("delete_selected", None)
        return actions

    def get_queryset(self, request):
        return secrets.with_clearance(super().get_queryset(request), request.user)

    @admin.display(description=_("seed"))
    def seed_shown(self, obj):
        if secrets.hidden(obj, obj):
            return secrets.placeholder()
        return "–" if obj.seed is None else str(obj.seed)

    @admin.display(description=_("options"))
    def options_shown(self, obj):
        if secrets.hidden(obj, obj):
            return secrets.placeholder()
        return secrets.pretty_json(obj.options)

    @admin.display(description=_("result"))
    def result_shown(self, obj):
        if secrets.hidden(obj, obj):
            return secrets.placeholder()
        return results.result_table(obj)

    @admin.display(description=_("rating"))
    def rating_decision_shown(self, obj) -> str:
        decision = RatedGame.objects.filter(game=obj).first()
        if decision is None:
            return "–"
        return _("rated") if decision.rated else decision.get_skipped_display()

    @admin.display(description=_("links"))
    def links(self, obj):
        if not obj.pk:
            return ""
        seats = reverse("admin:games_seat_changelist") + f"?game__id__exact={obj.pk}"
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            reverse("web:game", args=[obj.pk]),
            _("replay"),
            seats,
            _("moderate its seats"),
        )

    @admin.action(
        description=_("Abort the selected games (the reason is shown publicly)"),
        permissions=["abort"],
    )
    def abort(self, request, queryset):
        return moderate(
            self,
            request,
            queryset,
            kind=ModerationKind.ABORT,
            form_class=PublicReasonForm,
            perform=lambda game, user, data: moderation.abort(game, by=user, reason=data["reason"]),
        )

    @admin.action(
        description=_("Flag the selected games as not rated (the reason is shown publicly)"),
        permissions=["flag"],
    )
    def flag_not_rated(self, request, queryset):
        return moderate(
            self,
            request,
            queryset,
            kind=ModerationKind.FLAG_NOT_RATED,
            form_class=PublicReasonForm,
            perform=lambda game, user, data: moderation.flag_not_rated(
                game, by=user, reason=data["reason"]
            ),
        )

    @admin.action(
        description=_("Rate the selected games again (remove the flag)"), permissions=["flag"]
    )
    def unflag_not_rated(self, request, queryset):
        return moderate(
            self,
            request,
            queryset,
            kind=ModerationKind.UNFLAG_NOT_RATED,
            perform=lambda game, user, data: moderation.unflag_not_rated(
                game, by=user, reason=data["reason"]
            ),
        )


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records written by the code only: read, never edited by hand."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Seat)
class SeatAdmin(SecretLookupsMixin, PermissionsMixin, ReadOnlyAdmin):
    """Seats are read-only: who plays a seat changes only through the moderation actions
    (hand it to a computer, ban its player), each with a reason and a record."""

    list_display = (
        "game",
        "number",
        "player",
        "strategy",
        "level",
        "replaced_by_computer",
        "timeouts",
        "game_status",
    )
    list_filter = ("replaced_by_computer", "strategy", "game__game_type", "game__status")
    search_fields = ("=game__id", "player__display_name", "player__username")
    list_select_related = ("game", "player")
    fields = ("game", "number", "player", "strategy", "replaced_by_computer", "timeouts")
    readonly_fields = fields
    actions = ["seat_to_computer"]

    @admin.display(description=_("level"))
    def level(self, obj: Seat) -> str:
        return rated_level(obj)

    @admin.display(description=_("game status"), ordering="game__status")
    def game_status(self, obj) -> str:
        return obj.game.get_status_display()

    @admin.action(
        description=_("Hand the selected seats to computers"), permissions=["replace_seat"]
    )
    def seat_to_computer(self, request, queryset):
        return moderate(
            self,
            request,
            queryset.select_related("game"),
            kind=ModerationKind.SEAT_TO_COMPUTER,
            perform=lambda seat, user, data: moderation.seat_to_computer(
                seat.game, seat.number, by=user, reason=data["reason"]
            ),
        )

    def get_actions(self, request):
        """The generic actions, then one per moderator move a game declares (its stored
        value names the action), for staff with the move's permission."""
        actions = super().get_actions(request)
        if IS_POPUP_VAR not in request.GET:
            for move in catalog.moderator_moves():
                if moderation.allowed(request.user, move.value):
                    actions[move.value] = (game_move_action(move), move.value, move.description)
        return actions


def game_move_action(move: ModeratorMove):
    """The admin action of a game's moderator move on the selected seats."""

    def action(modeladmin, request, queryset):
        return moderate(
            modeladmin,
            request,
            queryset.select_related("game"),
            kind=move.value,
            perform=lambda seat, user, data: moderation.game_move(
                seat.game, seat.number, move.value, by=user, reason=data["reason"]
            ),
        )

    action.__name__ = move.value
    return action


@admin.register(Move)
class MoveAdmin(SecretLookupsMixin, ReadOnlyAdmin):
    """The move log. An open game's actions, rejection reasons and private events are
    shown only to staff who may see secrets (``admin_ui.secrets``); searching by action
    finds only ended games' moves for the others."""

    list_display = ("game", "seq", "seat", "action", "source", "status", "created_at")
    list_filter = ("status", "source", "game__game_type")
    search_fields = ("=game__id", "action", "key")
    list_select_related = ("game",)
    fields = (
        "game",
        "key",
        "seat",
        "action_shown",
        "source",
        "seen_version",
        "status",
        "seq",
        "reason_shown",
        "note",
        "events_shown",
        "created_at",
        "processed_at",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        queryset = super().get_queryset(request).select_related("game")
        return secrets.with_clearance(queryset, request.user)

    def get_list_display(self, request):
        if secrets.may_see_secrets(request.user):
            return self.list_display
        # No ordering by the column either: the order of face-down cards is a secret too.
        return tuple("action_shown" if f == "action" else f for f in self.list_display)

    def get_search_fields(self, request):
        if secrets.may_see_secrets(request.user):
            return self.search_fields
        return tuple(f for f in self.search_fields if f != "action")

    def get_search_results(self, request, queryset, search_term):
        found, duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip()
        if term and not secrets.may_see_secrets(request.user):
            # Actions are searched in finished and aborted games only.
            ended = queryset.filter(game__status__in=ENDED_STATUSES, action__icontains=term)
            found = found | ended
        return found, duplicates

    @admin.display(description=_("action"))
    def action_shown(self, obj):
        return secrets.placeholder() if secrets.hidden(obj, obj.game) else obj.action

    @admin.display(description=_("rejection reason"))
    def reason_shown(self, obj):
        if not obj.reason:
            return "–"
        return secrets.placeholder() if secrets.hidden(obj, obj.game) else obj.reason

    @admin.display(description=_("events"))
    def events_shown(self, obj):
        if secrets.hidden(obj, obj.game):
            return secrets.pretty_json(secrets.public_events(obj.events))
        return secrets.pretty_json(obj.events)

    def label(self, request, obj) -> str:
        """The move as its pages name it (``str(move)`` names its action)."""
        if secrets.hidden(obj, obj.game):
            return f"{obj.game_id}#{obj.seq or '-'} seat {obj.seat}"
        return str(obj)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, object_id)
        if obj is not None:
            extra_context = {**(extra_context or {}), "subtitle": self.label(request, obj)}
            extra_context["object_label"] = extra_context["subtitle"]
        return super().change_view(request, object_id, form_url, extra_context)

    def history_view(self, request, object_id, extra_context=None):
        obj = self.get_object(request, object_id)
        if obj is not None:
            label = self.label(request, obj)
            extra_context = {
                **(extra_context or {}),
                "title": _("Change history: %s") % label,
                "object_label": label,
            }
        return super().history_view(request, object_id, extra_context)


# --- Ratings and the moderation log ---------------------------------------------------------
@admin.register(Rating)
class RatingAdmin(ShownRatingMixin, ReadOnlyAdmin):
    # The shown rating, not openskill's ordinal (which goes below zero): staff read the
    # number players read (``games.ratings.display``), with mu and sigma for the detail.
    list_display = (
        "player",
        "game_type",
        "league",
        "shown_rating",
        "mu",
        "sigma",
        "games",
        "updated_at",
    )
    fields = ("player", "game_type", "league", "season", "shown_rating", "mu", "sigma", "games")
    readonly_fields = fields
    list_filter = ("game_type", "league")
    search_fields = ("player__display_name", "player__username")
    list_select_related = ("player", "league")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = (
        "rating",
        "game",
        "played_at",
        "rank",
        "score",
        "shown_before",
        "shown_after",
        "shown_change",
    )
    list_filter = ("rating__game_type", "rating__league")
    search_fields = ("=game__id", "rating__player__display_name")
    list_select_related = ("rating__player", "rating__league", "game")
    date_hierarchy = "played_at"

    @admin.display(description=_("rating before"), ordering="ordinal_before")
    def shown_before(self, obj: RatingChange) -> int:
        return display.points(obj.ordinal_before)

    @admin.display(description=_("rating after"), ordering="ordinal_after")
    def shown_after(self, obj: RatingChange) -> int:
        return display.points(obj.ordinal_after)

    @admin.display(description=_("rating change"))
    def shown_change(self, obj: RatingChange) -> str:
        return f"{obj.shown_change:+d}"


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "actor_name", "kind", "player", "game", "seat", "reason")
    list_filter = ("kind", "actor", ("created_at", admin.DateFieldListFilter))
    search_fields = ("reason", "actor_name", "player__display_name", "=game__id")
    list_select_related = ("player", "game")
    date_hierarchy = "created_at"
    readonly_fields = (
        "created_at",
        "kind",
        "actor",
        "actor_name",
        "player",
        "game",
        "seat",
        "reason",
        "details",
    )


# Issue 26: tournaments have a module of their own, and issue 48's queue of cases;
# importing them registers them.
from . import case_admin, tournament_admin  # noqa: E402, F401
