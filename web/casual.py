"""A casual table's two small requests (issue 45): its page saying it is open and in sight
(``present``: the lone person's clock stands still meanwhile, ``games.play.presence``),
and "Play again" at its end (``again``: the same game at the same seats,
``games.play.again``)."""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.play import again as play_again
from games.play import errors, presence
from games.play.models import GameStatus, Seat

from . import limits
from .actors import actor, csrf_unless_init_data, from_mini_app, json_refusal
from .play import refuse, table_game


@csrf_unless_init_data
@require_POST
def present(request, pk: int):
    """The page of the session's seat at game ``pk`` is open and visible (204); anyone
    else's report is ignored alike, so the answer tells a stranger nothing."""
    player, refused = actor(request)
    if refused:
        return refused
    if player is not None:
        seat = (
            Seat.objects.filter(game_id=pk, player=player, game__status=GameStatus.RUNNING)
            .values_list("number", flat=True)
            .first()
        )
        if seat is not None:
            presence.mark(pk, seat)
    return HttpResponse(status=204)


@csrf_unless_init_data
@require_POST
def again(request, pk: int):
    """The new table of ended game ``pk`` for the session's player, who sat at it."""
    game = table_game(pk)
    player, refused = actor(request)
    if refused:
        return refused
    if player is None:
        return refuse(request, pk, errors.GameError())
    hard = game.seats.filter(player__isnull=True, strategy="hard").count()
    try:
        limits.check_hard_computers(player, hard)
        with limits.table_creation(request):
            new = play_again.play_again(game, player)
    except limits.LimitReached as exc:
        if from_mini_app(request):
            return json_refusal(exc.message, 429)
        request.session["play_error"] = exc.message
        return redirect("web:table", pk=pk)
    except errors.GameError as exc:
        return refuse(request, pk, exc)
    if from_mini_app(request):
        return JsonResponse({"ok": True, "message": "", "url": reverse("web:table", args=[new.pk])})
    return redirect("web:table", pk=new.pk)
