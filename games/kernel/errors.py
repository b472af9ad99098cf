def error_body(code: str, message: str, extra: dict | None = None) -> dict:
    """An error as every transport sends it: its stable code, its message, and ``extra`` if any."""
    body = {"code": code, "message": message}
    if extra:
        body["extra"] = extra
    return body


class RuleViolation(Exception):
    """A command the rules do not allow. ``code`` is stable and machine-readable."""

    def __init__(self, code: str, message: str, extra: dict | None = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.extra = extra or {}

    def as_dict(self) -> dict:
        return error_body(self.code, self.message, self.extra)
