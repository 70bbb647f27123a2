"""The moderators' queue (issue 48): open cases, the most reported and newest first, each
with its evidence beside it and the actions taken from it (``games.moderation.cases``).
Only staff with ``games.handle_cases`` see it: the evidence holds every hand of a game and
who reported whom."""

from __future__ import annotations

import json
import logging
from datetime import datetime

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from games.moderation import cases, services
from games.moderation.models import Case, CaseStatus, ModerationAction
from games.play import completion
from games.play import replay as replays
from games.play.models import Game, GameStatus, Player

log = logging.getLogger(__name__)

RECENT_TOGETHER = 10
# The newest games of a case replayed on its page (a collusion signal may hold 50).
REPLAYS = 10
# The most reported first (the reports not yet handled), then the newest.
QUEUE_ORDER = ("-reports_n", "-updated_at", "-pk")
PAST_MODERATION = 20


class CaseActionForm(forms.Form):
    ACTIONS = [
        ("warn", _("Warn the player")),
        ("rename", _("Rename the player")),
        ("ban", _("Ban the player")),
        ("void", _("Void a game's rating")),
        ("dismiss", _("Dismiss the case")),
    ]
    action = forms.ChoiceField(label=_("Action"), choices=ACTIONS, widget=forms.RadioSelect)
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Kept in the moderation log."),
    )
    new_name = forms.CharField(label=_("New name"), required=False, max_length=40)
    until = forms.DateTimeField(
        label=_("Banned until"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d"],
        help_text=_("Empty: until a moderator lifts the ban."),
    )
    game = forms.TypedChoiceField(label=_("Game"), required=False, coerce=int, empty_value=None)

    def __init__(self, *args, games: list[Game], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", "–")] + [(g.pk, str(g)) for g in games]

    def clean(self):
        data = super().clean()
        action = data.get("action")
        if action == "rename" and not (data.get("new_name") or "").strip():
            self.add_error("new_name", _("Give the new name."))
        if action == "void" and not data.get("game"):
            self.add_error("game", _("Choose the game."))
        until = data.get("until")
        if action == "ban" and until is not None and until <= timezone.now():
            self.add_error("until", _("A ban cannot end in the past."))
        return data


def case_games(case: Case) -> list[Game]:
    """The games a case is about: its reports' and its signal's, newest first."""
    ids = set(case.reports.exclude(game=None).values_list("game_id", flat=True))
    ids |= {int(g) for g in case.details.get("games", [])}
    return list(Game.objects.filter(pk__in=ids).order_by("-finished_at", "-pk"))


def others_of(case: Case) -> list[Player]:
    """Whom the case sets the player against: the reporters, a signal's partner."""
    ids = set(case.reports.values_list("reporter_id", flat=True))
    if case.details.get("partner"):
        ids.add(int(case.details["partner"]))
    ids.discard(case.player_id)
    return list(Player.objects.filter(pk__in=ids))


def together(a: Player, b: Player) -> list[dict]:
    """The last finished games ``a`` and ``b`` sat at together, with their places."""
    games = (
        Game.objects.filter(status=GameStatus.FINISHED, seats__player=a)
        .filter(seats__player=b)
        .order_by("-finished_at", "-pk")[:RECENT_TOGETHER]
    )
    rows = []
    for game in games:
        ranks = (game.result or {}).get("ranks") or []
        seats = {s.player_id: s.number for s in game.seats.all()}

        def place(p, ranks=ranks, seats=seats):
            n = seats.get(p.pk)
            return ranks[n] if n is not None and n < len(ranks) else None

        rows.append({"game": game, "a": place(a), "b": place(b)})
    return rows


def full_replay(game: Game) -> dict:
    """Every hand: each seat's own view of the deal (the play layer's views of a game
    that is over), then every applied move with its seat and action."""
    seats = list(game.seats.select_related("player"))
    hands = []
    try:
        _move, _public, private = next(replays.views(game, [], seats=True))
        for seat in seats:
            if seat.number < len(private):
                text = json.dumps(
                    private[seat.number], ensure_ascii=False, sort_keys=True, default=str
                )
                hands.append({"seat": seat, "view": text})
    except Exception:  # a game the engine cannot deal again: its moves still show
        log.warning("case evidence: game %s does not replay", game.pk, exc_info=True)
    return {"game": game, "hands": hands, "moves": replays.applied_moves(game)}


def evidence(case: Case) -> dict:
    player = case.player
    games = case_games(case)
    people = [player, *others_of(case)]
    records = completion.records([p.pk for p in people])
    return {
        "reports": list(case.reports.select_related("reporter", "game").order_by("-created_at")),
        "games": [full_replay(g) for g in games[:REPLAYS] if g.status == GameStatus.FINISHED],
        "together": [{"other": o, "rows": together(player, o)} for o in others_of(case)],
        "completion": [(p, records.get(p.pk, completion.NONE)) for p in people],
        "past": list(
            ModerationAction.objects.filter(player=player).order_by("-created_at")[:PAST_MODERATION]
        ),
        "past_cases": list(
            Case.objects.filter(player=player).exclude(pk=case.pk).order_by("-opened_at")[:10]
        ),
    }


class OpenFirst(admin.SimpleListFilter):
    title = _("status")
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("open", _("open")), ("closed", _("closed")), ("all", _("all"))]

    def choices(self, changelist):
        value = self.value() or "open"
        for lookup, title in self.lookup_choices:
            yield {
                "selected": value == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request, queryset):
        value = self.value() or "open"
        return queryset if value == "all" else queryset.filter(status=value)


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin):
    list_display = ("player_link", "kind", "league", "n_reports", "updated_at", "status")
    list_filter = (OpenFirst, "kind", "league")
    search_fields = ("player__display_name",)
    list_display_links = ("player_link",)
    change_form_template = "admin/games/case/handle.html"

    def has_view_permission(self, request, obj=None) -> bool:
        return cases.may_handle(request.user)

    def has_change_permission(self, request, obj=None) -> bool:
        return cases.may_handle(request.user)

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def has_module_permission(self, request) -> bool:
        return cases.may_handle(request.user) or super().has_module_permission(request)

    def get_queryset(self, request):
        # Annotated before the ordering (``ModelAdmin.get_queryset`` orders at once).
        return (
            Case.objects.select_related("player", "league")
            .annotate(reports_n=Count("reports", filter=Q(reports__handled_at=None)))
            .order_by(*QUEUE_ORDER)
        )

    def get_ordering(self, request):
        # An annotation: named here, not in ``ordering``, which the checks read as a field.
        return QUEUE_ORDER

    @admin.display(description=_("player"), ordering="player__display_name")
    def player_link(self, obj: Case):
        return obj.player.display_name

    @admin.display(description=_("reports"), ordering="reports_n")
    def n_reports(self, obj: Case) -> int:
        return obj.reports_n

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not cases.may_handle(request.user):
            raise PermissionDenied
        case = get_object_or_404(Case.objects.select_related("player", "league"), pk=object_id)
        games = case_games(case)
        form = CaseActionForm(request.POST or None, games=games)
        if request.method == "POST" and case.status == CaseStatus.OPEN and form.is_valid():
            try:
                entry = self._act(request, case, form.cleaned_data, games)
            except PermissionDenied:
                form.add_error(None, _("You may not take this action."))
            except services.ModerationError as exc:
                form.add_error(None, str(exc))
            else:
                self.message_user(
                    request,
                    _("Done: %(action)s. The reporters are told their report was handled.")
                    % {"action": entry.get_kind_display()},
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(reverse("admin:games_case_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "case": case,
            "form": form,
            "title": str(case),
            "evidence": evidence(case),
            "is_open": case.status == CaseStatus.OPEN,
            "link": format_html(
                '<a href="{}">{}</a>',
                reverse("web:player", args=[case.player_id]),
                case.player.display_name,
            ),
        }
        return TemplateResponse(request, self.change_form_template, context)

    def _act(self, request, case: Case, data: dict, games: list[Game]) -> ModerationAction:
        by, reason = request.user, data["reason"]
        action = data["action"]
        if action == "warn":
            return cases.warn(case, by=by, reason=reason)
        if action == "rename":
            return cases.rename(case, data["new_name"], by=by, reason=reason)
        if action == "ban":
            until: datetime | None = data.get("until")
            return cases.ban(case, by=by, reason=reason, until=until)
        if action == "void":
            game = next(g for g in games if g.pk == data["game"])
            return cases.void(case, game, by=by, reason=reason)
        return cases.dismiss(case, by=by, reason=reason)
