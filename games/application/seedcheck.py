"""Checking a finished match's randomness against its revealed seed.

A match's secret seed is committed to at creation (``MatchCreated`` carries ``sha256(seed)``) and
revealed when it ends. Every command was decided with ``Rng(seed, "<match id>:<head seq before
it>")`` (``games.kernel.rng``), so anyone holding the seed can decide each recorded command again
and must get exactly the recorded events: every shuffle, deal and roll included. This module does
that with the kernel's own ``Rng`` and the match's engine (nothing here draws any other way):

1. the seed must hash to the commitment published at creation;
2. the setup (``MatchStarted``) is run again with the options and seat count it was started with;
3. every game command (a player's, a bot's, a timeout's, the system's) is decided again on the state
   the log had reached just before it: the command kept with its record, or, for a record written
   before commands were kept, the one among the choices the seat had at that point whose fingerprint
   matches.

Each step's draws are counted (``Rng.draws``), so the answer says how many steps drew on the seed.
A step that cannot be decided again (its choice is not among the listed ones, a staff-prepared start,
events imported without their commands) is listed as not checked, never as verified.
"""

from dataclasses import dataclass

from django.core.cache import cache

from games.eventstore import store
from games.eventstore.models import Match, MatchCommand
from games.kernel import SYSTEM, Command, Rng, canonical, seed_commitment

from .errors import SocialRefused
from .lobby import CREATED, FINISHED, PLATFORM_EVENTS, SEAT_CONCEDED, STARTED, aggregate_evolve
from .selectors import engine_of, narration_facts, redact_for_seat, seat_names, state_load
from .services import fingerprint

VERIFIED, FAILED, PARTIAL = "verified", "failed", "partial"
TIME_LIMIT = "time_limit"  # the engines' SYSTEM command a tournament round's clock submits
CACHE_SECONDS = 3600


@dataclass
class Step:
    seq: int
    text: str
    draws: int = 0
    ok: bool | None = None  # None: not checked
    reason: str = ""

    def as_dict(self) -> dict:
        out = {"seq": self.seq, "text": self.text, "draws": self.draws, "ok": self.ok}
        if self.reason:
            out["reason"] = self.reason
        return out


def _payloads(events) -> list:
    return canonical([[e["type"], e.get("payload") or {}] for e in events])


def _candidates(engine, game, seat) -> list[dict]:
    """Every command ``seat`` could have sent at ``game``: its legal commands, its timeout choice, and
    for the system its automated step and the tournament clock's ``time_limit``."""
    out = []
    if seat == SYSTEM:
        out += [engine.system_command(game), {"type": TIME_LIMIT, "args": {}}]
    else:
        out += list(engine.legal_commands(game, seat) or [])
        out.append(engine.timeout_command(game, seat))
    return [c for c in out if c]


def _identify(engine, game, seat, wanted: str):
    for cmd in _candidates(engine, game, seat):
        args = cmd.get("args") or {}
        if fingerprint(seat, cmd["type"], args) == wanted:
            return Command(type=cmd["type"], args=args, seat=seat)
    return None


def _kept(row):
    """The command kept with its row (rows written since commands are kept); None for older rows."""
    if row.kind in ("game", "system") and row.type:
        return Command(type=row.type, args=row.args or {}, seat=row.seat)
    return None


def _check_command(match: Match, engine, state, row, group, seed: bytes, text: str) -> Step | None:
    """Decide one recorded command again; None for a lobby command (no randomness in it)."""
    first = group[0]
    recorded = group[:-1] if group[-1]["type"] == FINISHED and len(group) > 1 else group
    if all(e["type"] in PLATFORM_EVENTS and e["type"] != STARTED for e in recorded):
        return None
    step = Step(seq=first["seq"], text=text)
    rng = Rng(seed, f"{match.pk}:{first['seq'] - 1}")
    current = canonical(state)
    try:
        if first["type"] == STARTED:
            if (first.get("payload") or {}).get("scenario"):
                step.reason = "the match was started from a position prepared by staff"
                return step
            lobby = current["lobby"]
            redone = engine.setup(lobby["options"], len(lobby["seats"]), rng)
            recorded = recorded[1:]
        elif first["type"] == SEAT_CONCEDED:  # a resignation the game went on from: the engine's concede again
            conceded = first["payload"]
            if "taken_over_by" in conceded:  # an absent player's seat taken over (decisions._take_over)
                redone = engine.take_over(current["game"], conceded["seat"], conceded["taken_over_by"], rng)
            else:
                redone = engine.concede(current["game"], conceded["seat"], rng)
            recorded = recorded[1:]
        else:
            command = _kept(row) or _identify(engine, current["game"], row.seat, row.fingerprint)
            if command is None:
                step.reason = "the choice made here is not one of the choices the game lists"
                return step
            redone = engine.decide(current["game"], command, rng)
    except Exception as exc:  # noqa: BLE001 - the rules refusing the recorded command is a finding
        step.ok, step.reason, step.draws = False, f"deciding it again failed: {type(exc).__name__}", rng.draws
        return step
    step.draws = rng.draws
    step.ok = _payloads(redone) == _payloads(recorded)
    if not step.ok:
        step.reason = "deciding it again with the seed gives other outcomes than the recorded ones"
    return step


def _sentence(engine, group, names, facts=None) -> str:
    texts = [redact_for_seat(engine, e, None, names, facts)["text"] for e in group if e["type"] not in PLATFORM_EVENTS]
    texts = [t for t in texts if t]
    if group[0]["type"] == STARTED:
        return "The setup (shuffles and deals)"
    if not texts:
        return "A move whose details were hidden"
    return "; ".join(texts[:3]) + ("…" if len(texts) > 3 else "")


def seed_check(match: Match) -> dict:
    """The verification of a match whose seed is revealed (finished, or abandoned with its seed).
    Raises ``seed_not_revealed`` (409) before that. Cached per match and head."""
    lobby = state_load(match)["lobby"]
    if not lobby.get("seed"):
        raise SocialRefused("seed_not_revealed", "the seed is revealed when the match ends", 409)
    key = f"kamiza:seedcheck:{match.pk}:{match.head_seq}"
    hit = cache.get(key)
    if hit is not None:
        return hit
    doc = _seed_check(match, lobby)
    cache.set(key, doc, CACHE_SECONDS)
    return doc


def _seed_check(match: Match, lobby: dict) -> dict:
    engine = engine_of(match)
    seed_hex = lobby["seed"]
    seed = bytes.fromhex(seed_hex)
    events = store.events_load(match, until=match.head_seq, engine_upcasters=engine.upcasters)
    created = next((e for e in events if e["type"] == CREATED), None)
    published = (created or {}).get("payload", {}).get("seed_hash")
    hash_ok = seed_commitment(seed) == published == match.seed_hash
    rows = {r.first_seq: r for r in MatchCommand.objects.filter(match=match).only("first_seq", "last_seq", "seat",
                                                                                   "fingerprint", "kind", "type", "args")}
    names = seat_names(lobby)
    state, i, checked, steps, unchecked = None, 0, 0, [], []
    while i < len(events):
        row = rows.get(events[i]["seq"])
        size = row.last_seq - row.first_seq + 1 if row is not None else 1
        group = events[i:i + size]
        text = _sentence(engine, group, names, narration_facts(engine, state))
        if row is None:
            if group[0]["type"] not in PLATFORM_EVENTS:
                unchecked.append(Step(group[0]["seq"], text, reason="this event was copied in without its command"))
        else:
            step = _check_command(match, engine, state, row, group, seed, text)
            if step is not None:
                if step.ok is None:
                    unchecked.append(step)
                else:
                    checked += 1
                    if step.draws or not step.ok:
                        steps.append(step)
        for e in group:
            state = aggregate_evolve(engine, state, e)
        i += size
    return _report(seed_hex, published or "", hash_ok, checked, steps, unchecked)


def _report(seed_hex, published, hash_ok, checked, steps, unchecked) -> dict:
    failed = [s for s in steps if not s.ok]
    random_steps = [s for s in steps if s.draws]
    draws = sum(s.draws for s in steps)
    if not hash_ok or failed:
        verdict = FAILED
        if not hash_ok:
            summary = "Verification failed: the revealed seed does not match the hash published when the match was created."
        else:
            summary = (f"Verification failed: {len(failed)} step{'s' if len(failed) != 1 else ''} did not come "
                       f"out of the seed as recorded.")
    elif unchecked:
        verdict = PARTIAL
        summary = (f"The seed matches the hash published when the match was created, and every step that could be "
                   f"checked came from it ({len(random_steps)} used randomness); {len(unchecked)} "
                   f"step{'s' if len(unchecked) != 1 else ''} could not be checked.")
    elif not random_steps:
        verdict = VERIFIED
        summary = ("Verified: the seed matches the hash published when the match was created; no step of this "
                   "match drew on it.")
    else:
        verdict = VERIFIED
        summary = (f"Verified: the seed matches the hash published when the match was created, and deciding all "
                   f"{checked} steps again from it gives exactly what was recorded, including the "
                   f"{len(random_steps)} step{'s' if len(random_steps) != 1 else ''} that shuffled, dealt or rolled.")
    return {
        "seed": seed_hex,
        "seed_hash": published,
        "seed_matches_hash": hash_ok,
        "verdict": verdict,
        "summary": summary,
        "checked": checked,
        "random_steps": len(random_steps),
        "draws": draws,
        "steps": [s.as_dict() for s in steps],
        "unchecked": [s.as_dict() for s in unchecked],
    }
