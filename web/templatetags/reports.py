"""The "Report" link of a finished game's page and of a profile (issue 48): shown to a
signed-in player who may report there, to nobody else."""

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from games.moderation import reports
from web.actors import session_player

register = template.Library()


@register.simple_tag(takes_context=True)
def report_link(context, game=None, player=None) -> str:
    request = context.get("request")
    me = session_player(request) if request is not None else None
    if me is None:
        return ""
    if game is not None:
        if not reports.reportable(game, me):
            return ""
        url = reverse("web:report-game", args=[game.pk])
    elif player is not None and player.pk != me.pk:
        url = reverse("web:report-player", args=[player.pk])
    else:
        return ""
    return format_html('<p class="report-link"><a href="{}">{}</a></p>', url, _("Report a player"))
