"""The game archive: every game that started, newest first, filtered by game, league,
player, dates and status through the address (``/games/?game=<slug>&league=<slug>``), so a
filtered list can be shared and linked from the league and player pages.

Keyset pages (``paging``) on the start time: four queries at most (the leagues of the
form, the player filtered on, the games, their seats), the same on the thousandth page as
on the first."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import cast
from urllib.parse import urlencode

from django import forms
from django.shortcuts import render
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from games import catalog
from games.leagues.models import League
from games.play.models import Game, GameStatus
from games.ratings import standings

from . import paging
from .params import strict
from .players import public_players

# A lobby never started: its seats are not public (see ``players.public_players``).
STATUSES = [(s.value, capfirst(s.label)) for s in GameStatus if s != GameStatus.LOBBY]


class DateInput(forms.DateInput):
    input_type = "date"  # the phone's own date picker; it sends ISO dates

    def __init__(self):
        super().__init__(format="%Y-%m-%d")


class ArchiveFilters(forms.Form):
    game = forms.ChoiceField(label=_("Game"), required=False)
    league = forms.ChoiceField(label=_("League"), required=False)
    status = forms.ChoiceField(
        label=_("Status"), required=False, choices=[("", _("Any")), *STATUSES]
    )
    since = forms.DateField(label=_("From"), required=False, widget=DateInput())
    until = forms.DateField(label=_("To"), required=False, widget=DateInput())
    # Set by the links of a player's page and of the names in the list, not typed.
    player = forms.ModelChoiceField(
        queryset=public_players(), required=False, widget=forms.HiddenInput
    )

    def __init__(self, data, leagues: list[League]):
        super().__init__(data)
        self.leagues = {league.slug: league for league in leagues}
        cast(forms.ChoiceField, self.fields["game"]).choices = [
            ("", _("All games")),
            *catalog.choices(),
        ]
        cast(forms.ChoiceField, self.fields["league"]).choices = [
            ("", _("All leagues")),
            *((league.slug, league.name) for league in leagues),
        ]

    def clean(self):
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and until < since:
            self.add_error("until", _("The end date is before the start date."))
        return data

    def filter(self, games):
        """``games`` narrowed by every filter that is valid (an invalid one is shown with
        its error and left out)."""
        data = self.cleaned_data
        if data.get("game"):
            games = games.filter(game_type=data["game"])
        if data.get("league"):
            games = games.filter(league=self.leagues[data["league"]])
        if data.get("status"):
            games = games.filter(status=data["status"])
        if data.get("player"):
            games = games.filter(seats__player=data["player"])  # one seat each: no repeats
        if data.get("since"):
            games = games.filter(started_at__gte=_day_start(data["since"]))
        if data.get("until"):
            games = games.filter(started_at__lt=_day_start(data["until"] + timedelta(days=1)))
        return games


def _day_start(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=timezone.get_current_timezone())


@require_safe
@strict
def game_list(request):
    leagues = list(League.objects.only("pk", "slug", "name").order_by("name"))
    form = ArchiveFilters(request.GET, leagues)
    form.is_valid()
    games = form.filter(Game.objects.filter(started_at__isnull=False))
    # The filters ride along on the page links.
    query = {k: v for k, v in request.GET.items() if k in form.fields and v}
    page = paging.page(
        games.select_related("league").prefetch_related(standings.seats_prefetch()),
        "started_at",
        descending=True,
        after=paging.cursor(request, "after"),
        before=paging.cursor(request, "before"),
        query=query,
    )
    player = form.cleaned_data.get("player")
    context = {
        "form": form,
        "page": page,
        "games": [standings.GameLine(g, standings.seat_lines(g)) for g in page.items],
        "player": player,
        "without_player": "?" + urlencode({k: v for k, v in query.items() if k != "player"}),
        "filtered": bool(query),
    }
    return render(request, "web/game_list.html", context)
