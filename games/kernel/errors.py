class RuleViolation(Exception):
    """A command the rules do not allow. ``code`` is stable and machine-readable."""

    def __init__(self, code: str, message: str, extra: dict | None = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.extra = extra or {}

    def as_dict(self) -> dict:
        body = {"code": self.code, "message": self.message}
        if self.extra:
            body["extra"] = self.extra
        return body
