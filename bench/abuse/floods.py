"""Hostile clients that flood: tables full of hard computers, abandoned at once, and more long
polls than a client may hold."""

from __future__ import annotations

import random
import threading
import urllib.parse

from bench.abuse.client import Client, table_id
from bench.abuse.common import GAME, MAX_POLLS, OVERRUN
from games import catalog
from games.play import levels


class Floods:
    """The flooding kinds of ``Hostile`` (``hard_tables``, ``long_polls``)."""

    # a) tables full of hard computers, abandoned at once
    def hard_tables(self, h: int, client: Client, rng: random.Random) -> None:
        """Five hard computers a table; refused, as many as the site allows and the rest
        normal ones: every table it may have, abandoned to its computers."""
        slugs = [k.slug for k in catalog.all_games() if "hard" in levels.offered(k)]
        for n in range(10_000):
            if not self.run.playing():
                return
            if n % 3 == 2:
                client.fresh()  # a new session: the limits per address must hold too
            slug = rng.choice(slugs)
            for hard in (5, 1):
                levels_asked = ["hard"] * hard + [levels.NORMAL] * (5 - hard)
                fields = {"game": slug, "name": f"Hostile {h}", "computers": 5}
                r = client.post("hard_tables", "/play/new/", {**fields, "level": levels_asked})
                table = table_id(r.url) if r.status == 200 else None
                if table is not None:
                    with self.run.lock:
                        self.run.hostile_tables.append(table)
                    break
            self.pause(1.0)

    # b) as many long polls as they may hold
    def long_polls(self, h: int, client: Client, rng: random.Random) -> None:
        """More long polls than the site allows a client, on a lobby of its own (nothing
        changes there: each poll lasts the longest it may) and on live tables."""
        fields = {"game": GAME, "name": f"Hostile {h}", "computers": 0, "friends": "1"}
        own = table_id(client.post("long_polls", "/play/new/", fields).url)
        polls = [
            threading.Thread(
                target=self.hold, args=(client, own, random.Random(h * 100 + i)), daemon=True
            )
            for i in range(MAX_POLLS)
        ]
        for poll in polls:
            poll.start()
            self.pause(0.05)
        for poll in polls:
            poll.join()

    def hold(self, client: Client, own: int | None, rng: random.Random) -> None:
        while self.run.playing():
            table = own if own is not None and rng.random() < 0.7 else self.run.live_tables(rng)
            if table is None:
                self.pause(0.5)
                continue
            token = client.get("long_polls", f"/play/{table}/state/").json().get("token")
            query = urllib.parse.urlencode({"token": token or ""})
            if token is None or client.get("long_polls", f"/play/{table}/state/?{query}").refused:
                self.pause(0.5)  # refused: try again a little later

    def timed_poll(self, client: Client, kind: str, path: str) -> None:
        r = client.get(kind, path, timeout=OVERRUN + 5)
        if r.status == 0 or r.seconds > OVERRUN:
            answer = f"status {r.status}" if r.status else "no answer"
            self.run.tally.success("long_poll_overrun", f"{path}: {answer} in {r.seconds:.1f} s")
