"""The live push (issues 24 and 25): a table's page follows its game as it changes.

- ``app``: the ASGI application that serves the live requests (``/play/<id>/events/``,
  ``/play/<id>/state/``) straight from the loop, beside Django's handler;
- ``stream`` (server-sent events) and ``poll`` (the long poll): the two views;
- ``waits``: what both share (waiting on the hub, the render, no thread held);
- ``notify``: each change announced once (Redis pub/sub, or this process) and this
  process's hub, which wakes the pages that follow it;
- ``changes``: has a table changed (its change token, from the cache);
- ``renders``: the table rendered once per audience and shared;
- ``clock``: coarse timers for the many waits;
- ``slots``: the live requests' limits per address and per process.

Who watches is ``web.actors``'s to say, as for every page. The pages import nothing of
this package (they name its views by URL only); it imports no page.
"""
