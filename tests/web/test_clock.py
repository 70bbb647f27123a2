"""The live pages' coarse timers (``web.live.clock``): due callbacks run within a tick, a
cancelled one never, and thousands cost one ticker."""

from __future__ import annotations

import asyncio

from web.live import clock


def test_due_callbacks_run_within_a_tick_and_cancelled_ones_never():
    async def run() -> tuple[dict, int]:
        loop = asyncio.get_running_loop()
        ran: dict[str, float] = {}
        started = loop.time()
        timers = clock.of()
        # asyncio's own timers, as the control: on a busy machine the loop itself runs late,
        # and what the clock adds to that is what is measured.
        loop.call_later(0.05, lambda: ran.setdefault("control soon", loop.time() - started))
        loop.call_later(0.3, lambda: ran.setdefault("control page", loop.time() - started))
        timers.after(0.05, lambda: ran.setdefault("soon", loop.time() - started))
        later = timers.after(0.05, lambda: ran.setdefault("cancelled", 0))
        timers.cancel(later)
        for n in range(5000):  # as many pages as the bench opens
            timers.after(0.3, lambda n=n: ran.setdefault(f"page {n}", loop.time() - started))
        tasks = len(asyncio.all_tasks())
        await asyncio.sleep(0.6)
        return ran, tasks

    ran, tasks = asyncio.run(run())
    assert 0.05 <= ran["soon"] <= ran["control soon"] + 2 * clock.TICK
    assert "cancelled" not in ran
    assert sum(key.startswith("page") for key in ran) == 5000
    assert max(ran[f"page {n}"] for n in range(5000)) <= ran["control page"] + 2 * clock.TICK
    assert tasks == 2  # the test's own and the one ticker
