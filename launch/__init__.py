"""Launching the embedded site: ``manage.py start`` (``management/commands/start.py``).

An app of its own, at the top of the layers: the command puts the whole site together
(migrations, the first admin, the schedule, the bot's process, the demo league, the
server), so it sits above every app it starts, and no app depends on it. The server's own
plumbing (its processes' workers, the database backend, the edge limits) is ``server``,
the bottom layer, which this command runs."""
