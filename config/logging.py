"""Server log hygiene: access-log lines never carry a query string.

A socket URL may hold a single-use ticket or a (deprecated) ``?token=``; an HTTP URL may hold
anything a client put there. uvicorn logs the path *with* its query string, in ``uvicorn.access``
(HTTP) and ``uvicorn.error`` (``"WebSocket /ws/...?token=..." [accepted]``). ``RedactQueryString``
rewrites such an argument to ``/path?[redacted]`` before any handler formats it;
``redact_server_logs()`` installs it on those loggers (config.asgi calls it, after uvicorn has
configured its logging). It is a plain ``logging.Filter``, so a ``--log-config`` can name it too.
"""

import logging
import re

SERVER_LOGGERS = ("uvicorn.access", "uvicorn.error", "daphne.access", "django.server")
REDACTED = "[redacted]"


def redact_query(value: str) -> str:
    """``/path?query`` -> ``/path?[redacted]``; anything else unchanged."""
    if value.startswith("/") and "?" in value:
        return value.split("?", 1)[0] + "?" + REDACTED
    return value


_URL_IN_TEXT = re.compile(r'(^|[\s"])(/[^\s"?]*)\?[^\s"]*')


def _redact_text(text: str) -> str:
    """A preformatted line (e.g. ``"GET /x?y HTTP/1.1"``): redact every path's query string."""
    return _URL_IN_TEXT.sub(lambda m: f"{m.group(1)}{m.group(2)}?{REDACTED}", text)


class RedactQueryString(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(redact_query(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact_query(v) if isinstance(v, str) else v for k, v in record.args.items()}
        if isinstance(record.msg, str) and "?" in record.msg and not record.args:
            record.msg = _redact_text(record.msg)
        return True


def redact_server_logs() -> None:
    """Install the filter on the server loggers, once each."""
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactQueryString) for f in logger.filters):
            logger.addFilter(RedactQueryString())
