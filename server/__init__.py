"""The plumbing every process of the site stands on: the workers gunicorn and uvicorn run,
the embedded server's edge limits, the SQLite backend, the in-process tasks, the Redis
cache, logging, health and the operational metrics. The bottom layer: it imports no app
(``games``, ``bot``, ``web``, ``admin_ui``) and no settings module; ``config`` composes it
with the apps, and ``launch`` starts the embedded site."""
