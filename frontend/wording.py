"""How refusals read on the pages: the service's message as a sentence for a person. The stable
code (``not_your_turn``, ``match_full``...) stays in the API's answers; pages never show it."""

from django.contrib import messages


def sentence(message: str) -> str:
    message = (message or "").strip()
    if not message:
        return "That did not work."
    return message[0].upper() + message[1:] + ("" if message.endswith((".", "!", "?")) else ".")


def refusal(request, err) -> None:
    """Flash a refused action's message (a RuleViolation or PlatformError) on the next page."""
    messages.error(request, sentence(getattr(err, "message", "") or str(err)))
