"""A tournament's public page (issue 26): its entrants, rounds and tables (each a link to
the game's live page; the signed-in player's own table to their seat), the standings with
the announced tie-breaks, and sign-up, withdrawal and the arena's pause for the session's
player. Nothing hidden is shown: a table is its players and, once over, their places."""

from __future__ import annotations

from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games.play.errors import GameError
from games.play.models import Player
from games.tourneys import entries
from games.tourneys.models import Format, Status, Tournament
from games.tourneys.standings import standings
from web import params

from .play import session_player

ACTIONS = ("join", "leave", "pause", "resume")


@require_safe
def tournament_detail(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.select_related("league"), pk=pk)
    entry_rows = list(tournament.entries.order_by("created_at", "id"))
    rounds = list(tournament.rounds.prefetch_related("tables__game").order_by("-number"))
    ids = {e.player_id for e in entry_rows}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))
    me = session_player(request)
    mine = next((e for e in entry_rows if me and e.player_id == me.pk), None)
    rows = standings(tournament) if tournament.status != Status.SIGNUP else []
    context = {
        "tournament": tournament,
        "entrants": [(e, names.get(e.player_id, "?")) for e in entry_rows],
        "rounds": [_round(r, names, me) for r in rounds],
        "standings": [(row, names.get(row.player_id, "?")) for row in rows],
        "tiebreak_names": [name for name, _v in rows[0].tiebreaks] if rows else [],
        "me": me,
        "mine": mine if mine and mine.withdrawn_at is None else None,
        "may_sign_up": entries.may_sign_up(tournament),
        "may_withdraw": entries.may_withdraw(tournament),
        "is_arena": tournament.format == Format.ARENA,
    }
    return render(request, "web/tournament_detail.html", context)


def _round(rnd, names, me):
    tables = []
    for table in rnd.tables.all():
        ranks = table.ranks or [None] * len(table.players)
        seats = [(names.get(p, "?"), rank) for p, rank in zip(table.players, ranks, strict=True)]
        tables.append(
            {
                "table": table,
                "seats": seats,
                "mine": bool(me and me.pk in table.players),
                "running": bool(table.game and table.game.is_open),
            }
        )
    return {"round": rnd, "tables": tables}


@require_POST
@params.strict
def tournament_entry(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    action = params.choice(request.POST.get("action"), "action", ACTIONS)
    player = session_player(request)
    if player is None:
        return params.refused(request, _("Sign in to take part."), 403)
    try:
        with transaction.atomic():
            if action == "join":
                entries.sign_up(tournament, player)
            elif action == "leave":
                entries.withdraw(tournament, player)
            else:
                entries.set_paused(tournament, player, action == "pause")
    except GameError as exc:
        return params.refused(request, str(exc), 409)
    return redirect("web:tournament", pk=pk)
