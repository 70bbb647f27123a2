"""Reporting a player (issue 48): from a finished game's page (one of the people the
signed-in player sat with) or from a profile. The reporter is the session's player
(``web.actors.session_player``: a browser player, or a Telegram one the Mini App signed
in); the form says nothing of other reports, and nothing is shown to the reported player.
"""

from __future__ import annotations

from typing import cast

from django import forms
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from games.moderation import reports
from games.moderation.models import Report, ReportReason
from games.play.models import Game, Player

from .actors import session_player
from .params import strict


class ReportForm(forms.Form):
    reported = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    reason = forms.ChoiceField(
        label=gettext_lazy("Reason"), choices=ReportReason.choices, widget=forms.RadioSelect
    )
    text = forms.CharField(
        label=gettext_lazy("Details (optional; needed for “other”)"),
        required=False,
        max_length=Report.MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": Report.MAX_TEXT}),
    )

    def __init__(self, *args, players: list[Player], **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["reported"]).choices = [
            (p.pk, p.display_name) for p in players
        ]
        if len(players) == 1:
            self.fields["reported"].widget = forms.HiddenInput()
            self.fields["reported"].initial = players[0].pk

    def clean(self):
        data = super().clean() or {}
        if data.get("reason") == ReportReason.OTHER and not (data.get("text") or "").strip():
            self.add_error("text", _("Say what happened."))
        return data


def _page(request, about, players: list[Player], game: Game | None, status: int = 200):
    reporter = session_player(request)
    context = {"about": about, "game": game, "reporter": reporter, "done": False}
    if reporter is None:
        context["refusal"] = _(
            "Only players can report: play a game in this browser, or open the site from "
            "the bot in Telegram, then come back."
        )
        return render(request, "web/report.html", context, status=403)
    players = [p for p in players if p.pk != reporter.pk]
    if not players:
        context["refusal"] = (
            reports.NotYourGame.message if game is not None else reports.NotYourself.message
        )
        return render(request, "web/report.html", context, status=403)
    form = ReportForm(request.POST or None, players=players)
    if request.method == "POST" and form.is_valid():
        reported = next(p for p in players if p.pk == form.cleaned_data["reported"])
        try:
            reports.file(
                reporter,
                reported,
                form.cleaned_data["reason"],
                game=game,
                text=form.cleaned_data["text"],
                source="web",
            )
        except reports.ReportRefused as exc:
            form.add_error(None, str(exc))
            status = 409 if isinstance(exc, reports.AlreadyReported) else 429
            if not isinstance(exc, (reports.AlreadyReported, reports.TooManyReports)):
                status = 400
        else:
            context["done"] = True
    elif request.method == "POST":
        status = 400
    context["form"] = form
    return render(request, "web/report.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@strict
def game_report(request, pk: int):
    game = get_object_or_404(Game.objects.select_related("league"), pk=pk)
    reporter = session_player(request)
    seats = reports.reportable(game, reporter) if reporter is not None else []
    if reporter is not None and not seats and game.status != "finished":
        raise Http404(_("There is no such game."))
    return _page(request, game, [s.player for s in seats if s.player is not None], game)


@require_http_methods(["GET", "HEAD", "POST"])
@strict
def player_report(request, pk: int):
    player = get_object_or_404(
        Player.objects.filter(seats__game__started_at__isnull=False).distinct(), pk=pk
    )
    return _page(request, player, [player], None)


def urls() -> list:
    """Called by ``web.urls`` once its path converters are registered."""
    return [
        path("games/<id:pk>/report/", game_report, name="report-game"),
        path("players/<id:pk>/report/", player_report, name="report-player"),
    ]
