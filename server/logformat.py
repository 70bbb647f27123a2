"""Structured logs: one JSON object per line (``LOG_FORMAT=json``), with the game and the
Telegram update being handled when they are known (``server.logcontext``)."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from server import logcontext


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **logcontext.current(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)
