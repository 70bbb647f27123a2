"""A group upgraded to a supergroup: Telegram moves the chat to a new id.

Telegram announces the move twice (a service message in the old chat naming the new id,
and one in the new chat naming the old) and answers any later call to the old id with
``ChatMigrated``. Whichever comes first moves everything; the others find nothing left.
"""

from __future__ import annotations

import logging

from django.db import transaction

from bot.models import ChatSettings, GameMessages, TournamentMessages
from games.leagues.services import move_chat_link
from games.play import services
from games.tournaments.models import Tournament

log = logging.getLogger(__name__)


def migrate(old_chat_id: int, new_chat_id: int) -> list[int]:
    """Move a chat's games, league link, settings and tournaments to its new id. Returns
    the open games that moved: the caller syncs them, which posts them anew in the
    supergroup (a tournament's announcement is posted anew by its next news)."""
    with transaction.atomic():
        moved = services.move_chat(old_chat_id, new_chat_id)
        move_chat_link(old_chat_id, new_chat_id)
        old_settings = ChatSettings.objects.filter(chat_id=old_chat_id).first()
        if old_settings is not None:
            if ChatSettings.objects.filter(chat_id=new_chat_id).exists():
                old_settings.delete()
            else:
                ChatSettings.objects.filter(pk=old_settings.pk).update(chat_id=new_chat_id)
        GameMessages.objects.filter(chat_id=old_chat_id).update(chat_id=new_chat_id)
        # The old group's message ids mean nothing in the supergroup: the next sync posts
        # the open games' lobby and table there anew.
        GameMessages.objects.filter(game_id__in=moved).update(
            lobby_message_id=None, lobby_hash="", table_message_id=None, table_hash=""
        )
        Tournament.objects.filter(chat_id=old_chat_id).update(chat_id=new_chat_id)
        TournamentMessages.objects.filter(chat_id=old_chat_id).update(
            chat_id=new_chat_id, announcement_id=None
        )
    if moved or old_settings is not None:
        log.info("chat %s moved to %s with games %s", old_chat_id, new_chat_id, moved)
    return moved
