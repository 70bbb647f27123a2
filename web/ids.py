"""A row's id in a path (``<id:pk>``), parsed alike by the URLconf and by the live push,
which routes its own requests before Django's handler (``web.live.app``)."""

# Ids as the database stores them (a signed 64-bit integer).
MAX_ID = 2**63 - 1


class IdConverter:
    """A row's id in a path: ASCII digits that fit the database's 64-bit integer. Beyond
    it Django's ``int`` reached the query, which failed (a 500: "Python int too large to
    convert to SQLite INTEGER"); here it is no such page (404)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError(value)  # Django answers 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)
