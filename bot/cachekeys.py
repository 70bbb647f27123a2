"""Names of the bot's keys in the shared cache (Django's cache: Redis when configured).

Every key carries a namespace so that tests can give each test a fresh one instead of
flushing a Redis that others share.
"""

NAMESPACE = "bot"


def key(*parts: object) -> str:
    return ":".join((NAMESPACE, *map(str, parts)))
