"""Which league a chat's games count for, and the links between chats and leagues."""

from __future__ import annotations

from games.leagues.models import League, LeagueChat


def league_for_chat(chat_id: int) -> League | None:
    link = LeagueChat.objects.select_related("league").filter(chat_id=chat_id).first()
    return link.league if link and link.league.is_active else None


def link_chat(chat_id: int, league: League | None, title: str = "") -> None:
    """Link a chat to a league (``None`` unlinks it). A chat counts for one league at most."""
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
