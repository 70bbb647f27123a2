"""Driving tournaments through the simulated Telegram (issue 26): a group's administrator
organises one with /tournament's buttons, people sign up by tapping the announcement, and
each plays their tables by tapping the move buttons of their private seat messages."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta

from django.utils import timezone

from bot import callbacks
from bot.models import SeatMessage
from games.leagues.services import link_chat
from games.play import tasks as play_tasks
from games.play.models import Game, GameStatus
from games.play.table import Table as GameTable
from games.tournaments.models import Entry, Tournament
from tests.bot.telegram_fake import FakeTelegram, FakeUser, Recorder, Shown
from tests.factories import LeagueFactory


@dataclass
class Club:
    """A group linked to a league, with its administrator Olga."""

    telegram: FakeTelegram
    recorder: Recorder
    group: dict
    olga: FakeUser
    rng: random.Random = field(default_factory=lambda: random.Random(26))
    queries: list[str] = field(default_factory=list)
    taps: int = 0
    timeouts: int = 0

    @property
    def chat_id(self) -> int:
        return self.group["id"]

    def tap(self, user: FakeUser, message: Shown, data: str) -> str:
        query = self.telegram.tap(user, message, data)
        self.queries.append(query)
        return query

    def toast(self, query: str) -> str:
        return self.telegram.toast(query)

    def shown(self, message: Shown) -> Shown:
        """The message as the chat shows it now (after the bot's edits)."""
        return self.recorder.messages[(message.chat_id, message.message_id)]

    def organise(self, *steps: str) -> Shown:
        """/tournament, then a tap on each step's button (its callback data); returns the
        message, which the last step turned into the announcement."""
        self.olga.say(self.group, "/tournament")
        message = self.recorder.last(self.chat_id)
        for data in steps:
            assert any(b.get("callback_data") == data for b in message.buttons), (
                data,
                message.buttons,
            )
            self.tap(self.olga, message, data)
            message = self.shown(message)
        return message

    def tournament(self) -> Tournament:
        return Tournament.objects.filter(chat_id=self.chat_id).order_by("-pk").first()

    def sign_up(self, users: list[FakeUser], announcement: Shown) -> None:
        t = self.tournament()
        for user in users:
            query = self.tap(user, self.shown(announcement), callbacks.tournament(t.pk, "j"))
            assert Entry.objects.filter(
                tournament=t, player__telegram_id=user.id, withdrawn_at__isnull=True
            ).exists(), self.toast(query)

    def group_posts(self, needle: str) -> list[Shown]:
        return [m for m in self.recorder.screen(self.chat_id) if needle in m.text]

    def play(self, users: list[FakeUser], until, limit: int = 6000) -> None:
        """Until ``until()``: in each running game of the tournament, the first person to
        act who has the bot's private chat taps one of the moves their seat message
        offers; a game that waits only for players away has its turn time run out (the
        sweep plays for them, and hands their seat to a computer after two turns)."""
        by_id = {u.id: u for u in users}
        for _ in range(limit):
            if until():
                return
            games = list(
                Game.objects.filter(
                    tournament_table__round__tournament=self.tournament(),
                    status=GameStatus.RUNNING,
                )
            )
            assert games, "no game running, and the tournament waits for nothing"
            for game in games:
                self._step(game, by_id)
        raise AssertionError(f"not done within {limit} steps")

    def _step(self, game: Game, by_id: dict[int, FakeUser]) -> None:
        table = GameTable(game)
        seats = {s.number: s for s in game.seats.select_related("player")}
        people = [
            n
            for n in table.to_act()
            if seats[n].player_id is not None and not seats[n].replaced_by_computer
        ]
        present = [
            n for n in people if seats[n].player.telegram_id in by_id and seats[n].player.reachable
        ]
        if not present:
            # Nobody here to play (away, or the computers' turn): the clock runs out.
            Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            play_tasks.sweep()
            self.timeouts += 1
            return
        number = present[0]
        user = by_id[seats[number].player.telegram_id]
        row = SeatMessage.objects.get(game=game, seat=number)
        message = self.recorder.messages[(user.id, row.message_id)]
        assert not message.deleted
        moves = [
            b["callback_data"] for b in message.buttons if b.get("callback_data", "")[:1] == "g"
        ]
        assert moves, f"seat {number} is to act but its message offers no move: {message.text}"
        passes = [m for m in moves if m.endswith(":pass")]
        # Mostly passing keeps Felix's auctions short (and the test quick).
        if passes and self.rng.random() < 0.7:
            self.tap(user, message, passes[0])
        else:
            self.tap(user, message, self.rng.choice(moves))
        self.taps += 1

    def answered_once(self) -> None:
        for query in self.queries:
            self.telegram.answer_to(query)


def club(telegram: FakeTelegram, recorder: Recorder, title: str = "Cat lovers") -> Club:
    group = telegram.group(title=title)
    league = LeagueFactory(name="Lega Roma")
    link_chat(group["id"], league)
    olga = telegram.user("Olga")
    recorder.admins[group["id"]] = {olga.id}
    return Club(telegram, recorder, group, olga)
