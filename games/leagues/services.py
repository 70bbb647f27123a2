"""Which league a chat's games count for, and the links between chats and leagues.

A chat joins a league only with the league's approval: the join code its organisers
issue (``issue_join_code``) and hand to the groups they accept. A group administrator
sends it in the group (``/settings <code>``); ``join_with_code`` links the chat.
"""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction

from games.leagues.models import League, LeagueChat

# No look-alikes (0/O, 1/I/L): the code is read out and typed by people.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


def normalise_code(code: str) -> str:
    return "".join(code.split()).upper().replace("-", "")[:16]


def issue_join_code(league: League) -> str:
    """Give the league a new join code (the old one stops working). Returns it."""
    for _attempt in range(5):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        try:
            with transaction.atomic():
                League.objects.filter(pk=league.pk).update(join_code=code)
        except IntegrityError:  # another league drew the same code: draw again
            continue
        league.join_code = code
        return code
    raise RuntimeError("could not draw a free join code")


def revoke_join_code(league: League) -> None:
    """No chat may join the league by itself any more (linked chats stay linked)."""
    League.objects.filter(pk=league.pk).update(join_code=None)
    league.join_code = None


def league_for_code(code: str) -> League | None:
    """The active league whose join code this is."""
    code = normalise_code(code or "")
    if not code:
        return None
    return League.objects.filter(join_code=code, is_active=True).first()


def join_with_code(chat_id: int, code: str, title: str = "") -> League | None:
    """Link a chat to the league whose join code it sent. Returns the league, or None for
    a code no active league has (nothing changes)."""
    league = league_for_code(code)
    if league is not None:
        link_chat(chat_id, league, title)
    return league


def league_for_chat(chat_id: int) -> League | None:
    link = LeagueChat.objects.select_related("league").filter(chat_id=chat_id).first()
    return link.league if link and link.league.is_active else None


def link_chat(chat_id: int, league: League | None, title: str = "") -> None:
    """Link a chat to a league (``None`` unlinks it). A chat counts for one league at most.
    No check here: the bot links a chat only through ``join_with_code``; the admin links
    any chat."""
    if league is None:
        LeagueChat.objects.filter(chat_id=chat_id).delete()
        return
    LeagueChat.objects.update_or_create(
        chat_id=chat_id, defaults={"league": league, "title": title[:255]}
    )


def move_chat_link(old_chat_id: int, new_chat_id: int) -> None:
    """A group upgraded to a supergroup keeps its league under its new chat id, unless the
    new chat was linked on its own: then that link stands."""
    link = LeagueChat.objects.filter(chat_id=old_chat_id).first()
    if link is None or old_chat_id == new_chat_id:
        return
    if LeagueChat.objects.filter(chat_id=new_chat_id).exists():
        link.delete()
    else:
        link.chat_id = new_chat_id
        link.save(update_fields=["chat_id"])


def organised_leagues(player) -> list[League]:
    """Issue 45: the active leagues ``player`` organises (``LeagueMember.is_organiser``)."""
    if player is None:
        return []
    return list(
        League.objects.filter(
            is_active=True, members__player=player, members__is_organiser=True
        ).order_by("name")
    )
