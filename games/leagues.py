"""Which league a chat's games count for."""

from __future__ import annotations

from games.models import League, LeagueChat


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
