"""The honest players: people who open tables and play them as the table page does."""

from __future__ import annotations

import queue
import random
import threading
import time
import urllib.parse
import uuid

from bench.abuse.client import Client, Page, Stream, local, table_id
from bench.abuse.common import LOOK_TRIES, WAIT_SECONDS, NormalTable, Run, wall
from bench.table import VERSION, kept, offered_actions
from games import catalog
from games.play import levels


class People:
    """The simulated people: they open tables and play them, as the table page does."""

    def __init__(self, run: Run, count: int):
        self.run = run
        self.count = count
        self.invites: dict[int, queue.Queue] = {}  # a host's index -> its friend's inbox
        for i in range(count):
            if i % 5 == 0 and i + 1 < count:
                self.invites[i] = queue.Queue()

    def threads(self) -> list[threading.Thread]:
        return [
            threading.Thread(target=self.live, args=(i,), name=f"person-{i}", daemon=True)
            for i in range(self.count)
        ]

    def live(self, i: int) -> None:
        run = self.run
        rng = random.Random(i)
        client = Client(run, "normal", f"10.1.{i // 250}.{i % 250 + 1}")
        name = f"Person {i}"
        slugs = catalog.slugs()
        for round_ in range(1000):
            if not run.playing():
                return
            slug = slugs[(i + round_) % len(slugs)]
            if i in self.invites:
                table = self.host(client, name, slug, self.invites[i], f"Person {i + 1}")
            elif i - 1 in self.invites:
                table = self.guest(client, name, self.invites[i - 1])
            else:
                table = self.solo(client, name, slug)
            if table is None:
                time.sleep(1)  # refused (or the friend's table was gone): try again later
                continue
            self.play(client, table, rng)

    def create(self, client: Client, fields: dict) -> int | None:
        r = client.post("create", "/play/new/", fields)
        return table_id(r.url) if r.status == 200 and not r.refused else None

    def solo(self, client: Client, name: str, slug: str) -> int | None:
        kind = catalog.get(slug)
        computers = min(kind.table_players, kind.max_players) - 1
        fields = {"game": slug, "name": name, "computers": computers}
        if levels.offered(kind):
            fields["level"] = [levels.NORMAL] * computers
        table = self.create(client, fields)
        if table is not None:
            with self.run.lock:
                self.run.normal_tables[table] = NormalTable(name, None, computers)
        return table

    def host(self, client, name: str, slug: str, inbox: queue.Queue, friend: str) -> int | None:
        """A lobby for a friend: send them its invite link, wait for them to sit down (a
        while: the lobby is what the hostile clients look for), then start."""
        run = self.run
        kind = catalog.get(slug)
        computers = max(0, min(kind.table_players, kind.max_players) - 2)
        fields = {"game": slug, "name": name, "computers": computers, "friends": "1"}
        table = self.create(client, fields)
        if table is None:
            return None
        entry = NormalTable(name, friend, computers)
        with run.lock:
            run.normal_tables[table] = entry
            run.open_lobbies.add(table)
        page = client.get("table", f"/play/{table}/")
        found = Page(page.body)
        inbox.put((table, local(found.invite or found.share or page.url)))
        waited = time.monotonic() + 10
        while run.playing() and time.monotonic() < waited:
            time.sleep(0.5)
            page = client.get("table", f"/play/{table}/")
            if friend in page.body or Page(page.body).form("start") is None:
                break  # the friend sat down (or the table started without its creator)
        start = Page(page.body).form("start")
        if start is not None:
            entry.start_asked = time.time()
            client.post("start", start["action"], start["fields"])
        with run.lock:
            run.open_lobbies.discard(table)
        return table

    def guest(self, client: Client, name: str, inbox: queue.Queue) -> int | None:
        try:
            table, invite = inbox.get(timeout=max(0.1, self.run.deadline - time.monotonic()))
        except queue.Empty:
            return None
        time.sleep(1.5)  # a person reads the message, opens the link
        join = Page(client.get("table", invite).body).form("join")
        if join is None:
            return None
        client.post("join", join["action"], {**join["fields"], "name": name})
        return table

    def look(self, client: Client, table: int, current: dict | None = None) -> dict | None:
        """The table as the page's long poll brings it (with ``current``: once it differs;
        a poll that ends with no change answers its token alone, and the page keeps
        ``current``); None when the answer is no table (an error, a refusal)."""
        token = None if current is None else current["token"]
        query = "" if token is None else "?" + urllib.parse.urlencode({"token": token})
        path = f"/play/{table}/state/{query}"
        for _ in range(LOOK_TRIES):
            answer = client.get("state", path, timeout=WAIT_SECONDS + 25).json()
            if "retry_ms" not in answer:
                break
            # As the page does: the server had no place for the poll to wait and says when
            # to ask again (a change shows then at once).
            self.run.stop.wait(answer["retry_ms"] / 1000 * random.uniform(0.5, 1.5))
        answer = kept(answer, current)
        return answer if "html" in answer and "token" in answer else None

    def play(self, client: Client, table: int, rng: random.Random) -> None:
        """Follow the table by its stream, as the page does where it can; by long polls
        where it cannot (the server refused the stream)."""
        current = self.look(client, table)
        if current is not None:
            stream = Stream(client, table, current["token"], self.run)
            stream.opened.wait(WAIT_SECONDS + 30)
            try:
                if stream.ok and self.play_streamed(client, table, rng, stream, current):
                    return
            finally:
                stream.close()
        self.play_polled(client, table, rng)

    def play_streamed(self, client, table: int, rng: random.Random, stream, current) -> bool:
        """Whether the game was played to its end (or the run's) over the stream."""
        run = self.run
        try:
            while run.playing():
                current = stream.latest(current)
                if 'class="final"' in current["html"]:
                    return True
                fields = self.choose(current, rng)
                if fields is None:
                    _at, current = stream.changed(current["token"], WAIT_SECONDS + 30)
                    continue
                started = time.perf_counter()
                moved = client.post("move", f"/play/{table}/move/", fields)
                if moved.json().get("ok"):
                    at, current = stream.changed(current["token"], WAIT_SECONDS + 30)
                    with run.tally.lock:
                        run.tally.clicks.append((at - started) * 1000)
                        run.tally.timed_clicks.append((fields["key"], *wall(started, at)))
                time.sleep(rng.uniform(0.2, 0.6))  # a person looks before the next click
        except (EOFError, queue.Empty):
            return False  # the stream ended for good, or went silent: poll instead
        return True

    def play_polled(self, client: Client, table: int, rng: random.Random) -> None:
        run = self.run
        current = self.look(client, table)
        failures = 0
        while run.playing() and failures < 5:
            if current is None:  # as the page does: wait a little, then look again
                failures += 1
                run.stop.wait(2)
                current = self.look(client, table)
                continue
            failures = 0
            if 'class="final"' in current["html"]:
                return
            fields = self.choose(current, rng)
            if fields is None:
                current = self.look(client, table, current)
                continue
            current = self.click(client, table, current, fields)
            time.sleep(rng.uniform(0.2, 0.6))  # a person looks before the next click

    def choose(self, current: dict, rng: random.Random) -> dict | None:
        """The move a person makes on the table shown (its key noted as a person's), as
        the page posts it; None when the table offers them nothing to do."""
        actions = offered_actions(current["html"])
        seen = VERSION.search(current["html"])
        if not actions or seen is None:
            return None
        key = uuid.uuid4().hex
        with self.run.lock:
            self.run.normal_keys.add(key)
        return {"action": rng.choice(actions), "version": seen.group(1), "key": key}

    def click(self, client, table: int, shown: dict, fields: dict):
        """A move while the page's long poll waits, as the page sends it; the click counts
        once the poll brings the changed table."""
        answer: dict = {}

        def poll() -> None:
            answer["table"] = self.look(client, table, shown)
            answer["at"] = time.perf_counter()

        waiting = threading.Thread(target=poll, daemon=True)
        waiting.start()
        time.sleep(0.05)  # the poll is in the server before the person clicks
        started = time.perf_counter()
        moved = client.post("move", f"/play/{table}/move/", fields)
        waiting.join()
        current = answer["table"]
        if moved.json().get("ok") and current is not None and current["token"] != shown["token"]:
            with self.run.tally.lock:
                self.run.tally.clicks.append((answer["at"] - started) * 1000)
                self.run.tally.timed_clicks.append((fields["key"], *wall(started, answer["at"])))
        return current
