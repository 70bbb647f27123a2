"""gunicorn's worker for the site in production: uvicorn (ASGI), so that a page following
its table by server-sent events holds a socket, not one of a few threads. Unlike
uvicorn's own defaults it rewrites no client address from X-Forwarded-For
(``web/clients.py`` alone decides which proxy to believe: ``TRUSTED_PROXIES``), and
it does not ask Django for the ASGI lifespan, which Django does not speak."""

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "proxy_headers": False, "lifespan": "off"}
