"""What the benches share, and the bottom of ``bench``: nothing here imports a bench.

- ``ports``: a free loopback port, waiting for one to answer.
- ``processes``: child processes in process groups of their own, their logs, waiting.
- ``services``: a bench's own Redis, PostgreSQL database, Celery workers and front-ends.
- ``workers``: the Celery app the pipeline benches run (its queries counted).
- ``telegram`` / ``telegram_worker``: the recording Bot API the benches talk to, and the
  worker app that tells it what each message was rendered from.
- ``stats``: percentiles, and the printing of a bench's figure lines.
- ``games``: the catalog games a bench picks.
- ``project``: Django set up for the benches that need it.

``ports``, ``stats`` and ``games`` import no Django directly: the pure benches use them.
"""
