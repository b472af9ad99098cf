"""Yomi Mode (Shinigami Expansion): the phase's hand-over records a Yomi mark per defeated
character and says when the track reaches a bold square (the Shinigami confrontation itself is
resolved as the campaign book directs, outside this engine).

Rulebook "Yomi Mode": "After completing each phase, mark a box from the Yomi Mode track on the
campaign sheet for each character who was defeated. Once you reach one of the bold squares, do not
continue marking boxes. Instead, all characters face the Shinigami ... Before moving on to the next
chapter, characters regain all their health and repair their armor up to the number indicated on
their equipped armor."
"""

from games.kernel import RuleViolation

from .content import armor_cap

# Provisional: the campaign sheet's track is not public; a bold square every 5 boxes.
DEFAULT_BOLD = [5, 10, 15, 20]


def track_option(options):
    """The state's ``yomi`` entry from the ``yomi_mode`` / ``yomi_track`` options."""
    on = options.get("yomi_mode", False)
    track = options.get("yomi_track") or {}
    if not isinstance(on, bool) or not isinstance(track, dict) or set(track) - {"marks", "bold"}:
        raise RuleViolation("bad_options", "yomi_mode is a boolean, yomi_track {marks, bold}")
    marks = track.get("marks", 0)
    bold = track.get("bold", DEFAULT_BOLD)
    if not isinstance(marks, int) or isinstance(marks, bool) or marks < 0:
        raise RuleViolation("bad_options", "yomi_track.marks must be a whole number >= 0")
    if (not isinstance(bold, list) or not bold or any(not isinstance(b, int) or isinstance(b, bool) or b < 1
                                                      for b in bold) or sorted(set(bold)) != bold):
        raise RuleViolation("bad_options", "yomi_track.bold must be increasing box numbers >= 1")
    if track and not on:
        raise RuleViolation("bad_options", "yomi_track needs yomi_mode")
    return {"on": on, "marks": marks, "bold": list(bold)}


def mark(marks, bold, defeated):
    """(marks after, bold square reached or None): one box per defeated character, stopping at the
    first bold square after the boxes already marked."""
    nxt = next((b for b in bold if b > marks), None)
    after = marks + defeated
    if nxt is not None and after >= nxt:
        return nxt, nxt
    return after, None


def report(s):
    """The ``yomi`` entry of ``PhaseEnded`` ({} without Yomi Mode)."""
    y = s.get("yomi") or {}
    if not y.get("on"):
        return {}
    defeated = list(s.get("defeated_in_phase", []))
    marks, reached = mark(y["marks"], y["bold"], len(defeated))
    return {"yomi": {"defeated": defeated, "marks_before": y["marks"], "marks": marks,
                     "marked": marks - y["marks"], "bold": list(y["bold"]), "bold_reached": reached,
                     "face_shinigami": reached is not None}}


def handover(s, party):
    """Yomi Mode's "regain all their health and repair their armor up to the number indicated on
    their equipped armor" before the next chapter (the party unchanged without Yomi Mode)."""
    if not (s.get("yomi") or {}).get("on"):
        return party
    out = {}
    for c, spec in party.items():
        ch = s["characters"][c]
        cap = armor_cap(ch)
        out[c] = {**spec, "health": ch["max_health"], "armor_value": max(spec["armor_value"], cap)}
    return out
