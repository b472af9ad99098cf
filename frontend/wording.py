"""How refusals read on the pages: a sentence for a person. The stable code (``not_your_turn``,
``match_full``...) stays in the API's answers; a page carries it at most as a ``code-...`` class on the
message (for tests and styling), never in the words shown. The account, tournament, campaign, replay,
home and lobby pages word their refusals through ``error_text`` (or ``refusal`` / ``form_refusal``, which
use it); the table's script has its twin, ``static/js/words.js``. (The match invitations' views still keep
their own few words, ``invitation_views._WORDS``.)"""

import re

from django.contrib import messages

# Refusals whose service message is written for API clients (field names, seqs, ids) or is missing:
# what a player reads instead. A page may pass its own words (``words=``) for codes it says better.
WORDS = {
    "throttled": "You are doing that too quickly: wait a moment and try again.",
    "conflict": "Someone did this at the same moment: the page now shows where things stand.",
    "version_conflict": "The match moved on meanwhile: look at the table again and retry.",
    "unavailable": "The service is busy for a moment: try again shortly.",
    "not_authenticated": "Sign in first.",
    "session_ended": "You were signed out: sign in again.",
    "invalid_seq": "That moment of the match could not be found: open the replay again and choose it.",
    "seq_beyond_head": "That moment of the match could not be found: open the replay again and choose it.",
    "invitation_closed": "That invitation is no longer open.",
    "corrupt_log": "The tournament could not be read just now: the staff has been told.",
    "match_creation_failed": "The round's matches could not be created yet: they are retried by themselves.",
    "invalid_settings": "Those tournament settings do not fit together.",
    "invalid_match_options": "Those match options do not fit this tournament.",
    "clock_required": "A tournament match needs a decision clock: set the seconds per turn.",
    "invalid_round_minutes": "A round lasts a whole number of minutes, at least 1.",
    "invalid_max_entrants": "A tournament takes at least 2 entrants.",
    "invalid_reason": "The reason is too long.",
}
FALLBACK = "That did not work."
# a stable code on its own ("match_full"): never shown as if it were words
_CODE = re.compile(r"[a-z]+(?:_[a-z]+)+")


def sentence(message: str) -> str:
    message = (message or "").strip()
    if not message:
        return FALLBACK
    return message[0].upper() + message[1:] + ("" if message.endswith((".", "!", "?")) else ".")


def error_text(err, words: dict | None = None) -> str:
    """What a player reads for a refusal (a PlatformError, RuleViolation, CampaignRefused, or an API
    error body ``{code, message}``): the page's words for its code, then ours, then its message as a
    sentence; never the code itself."""
    if isinstance(err, dict):
        code, message = str(err.get("code") or ""), str(err.get("message") or "")
    else:
        code, message = str(getattr(err, "code", "") or ""), str(getattr(err, "message", "") or "")
    chosen = (words or {}).get(code) or WORDS.get(code)
    if chosen:
        return chosen
    message = message.strip()
    if not message or message == code or _CODE.fullmatch(message):
        return FALLBACK
    return sentence(message)


def code_tag(err) -> str:
    code = err.get("code") if isinstance(err, dict) else getattr(err, "code", "")
    return f"code-{code}" if code else ""


def refusal(request, err, words: dict | None = None) -> None:
    """Flash a refused action on the next page: its words, its code only as a class."""
    messages.error(request, error_text(err, words), extra_tags=code_tag(err))


def form_refusal(form, err, field: str | None = None, words: dict | None = None) -> None:
    """A refusal as a form error (on ``field``, or the whole form)."""
    form.add_error(field, error_text(err, words))


def form_errors_shown(request, form) -> None:
    """Flash an invalid form's errors (a form posted from a page that shows it elsewhere)."""
    messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))



def duration_words(seconds: int) -> str:
    """A duration as every page says it: "1 minute", "1 minute 30 seconds", "45 seconds", "1 hour"."""
    seconds = max(int(seconds or 0), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in ((hours, "hour"), (minutes, "minute"), (secs, "second"))
             if n]
    return " ".join(parts) or "0 seconds"


def delay_words(seconds: int, turns: int) -> str:
    """How far behind the players a tournament's spectators watch, "1 minute and 1 turn" ("" when not
    behind): the one formatter of the tournament page, the match page's note and its "Delayed ..." badge
    (which reads it from the page's boot data, ``spectator_delay.words``)."""
    parts = [duration_words(seconds)] if seconds else []
    if turns:
        parts.append(f"{turns} turn{'' if turns == 1 else 's'}")
    return " and ".join(parts)
