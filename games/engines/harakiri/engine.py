"""The Harakiri: Blades of Honor engine (decider contract): the Exploration Phase, and with the
option ``phase: "adventure"`` the Adventure Phase (``adventure/``), each match one phase."""

import json

from games.kernel import SYSTEM, EngineBase, Rng, RuleViolation, Status, event, json_member

from . import act2, actions, bot, catalogue, combat, concede as leave_table, content, describe as narration, flow, leaving, sharing, views, work_queue
from .adventure import describe as adventure_words, engine as adventure_engine
from .setup import ORDER, build_state, make_enemy, playable, zone_payload
from .state import W, apply, copy_for

CHARACTER_COMMANDS = {"move", "exert", "step", "end_move", "attack", "technique", "reroll_ki", "interact", "give",
                      "swap_weapon", "use_item", "meditate", "place_ki", "withdraw_ki", "retrieve_head",
                      "kami_mode", "end_activation"}
CHARACTER_COMMANDS |= act2.COMMANDS  # Yastun Lad's move, Nemesis' mark
SHARE_COMMANDS = {"share", "end_share"}  # Exploration Phase Setup, step 2 (option ``share``)
KNOWN = CHARACTER_COMMANDS | SHARE_COMMANDS | {"choose", "reroll_die", "resolve_attack", "draw_oracle",
                                               "activate_enemy", "resume"}


ADVENTURE = adventure_engine.ENGINE
PHASES = ("exploration", "adventure")


def is_adventure(state) -> bool:
    """An Adventure Phase state (the Exploration Phase's state has no ``flow``)."""
    return isinstance(state, dict) and "flow" in state


def _phase_options(options: dict) -> tuple[str, dict]:
    """(the phase, the options of that phase's engine)."""
    return options.get("phase", "exploration"), {k: v for k, v in options.items() if k != "phase"}


def _hero_label(key: str) -> str:
    hero = content.CHARACTERS[key]
    act = f", Act {hero['act']}" if hero.get("act") else ""
    return f"{hero['name']} ({hero['class']}{act})"


# ``title``/``description``/``default`` and the ``x-`` annotations (labels of enum values, seat-valued
# integers, a map keyed by another option's choice) only present the options to players (the lobby's
# form, docs/engines.md "Options"); validation ignores them. Untitled options (the campaign's
# hand-over: adventure, missions, marks, party, market, share, yomi_*) are set by the campaign pages
# and the API only.
EXPLORATION_OPTIONS = {
    "type": "object",
    "properties": {
        "phase": {"const": "exploration"},
        "scenario": {"enum": sorted(content.SCENARIOS), "default": "act1_burning_village", "title": "Scenario",
                     "description": "The map, the enemies and the objective.",
                     "x-labels": {k: v["name"] for k, v in sorted(content.SCENARIOS.items())}},
        "characters": {"type": "array", "items": {"enum": sorted(content.CHARACTERS)}, "minItems": 4,
                       "maxItems": 4, "uniqueItems": True, "default": list(ORDER), "title": "Heroes",
                       "description": "The four heroes of the party.",
                       "x-labels": {k: _hero_label(k) for k in sorted(content.CHARACTERS)}},
        "control": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 3},
                    "title": "Who plays each hero", "x-seat": True, "x-keys-from": "characters",
                    "description": "Leave on Automatic to deal the heroes out in turn; every player needs at "
                                   "least one hero."},
        "leader": {"type": "integer", "minimum": 0, "maximum": 3, "default": 0, "x-seat": True,
                   "title": "Party leader", "description": "Takes the party's decisions (unless the party votes)."},
        "party_vote": {"type": "boolean", "default": False, "title": "The party votes",
                       "description": "Every player votes on party decisions; the leader's vote breaks a tie."},
        "failure_procedure": {"type": "boolean", "default": True, "title": "Failure procedure",
                              "description": "When the party fails, play the rulebook's failure procedure; "
                                             "unticked, a failure ends the match."},
        "round_cap": {"type": "integer", "minimum": 1, "title": "Round limit",
                      "description": "End the phase after this many rounds. Leave empty to play until the "
                                     "objective is met or the party fails."},
        "blue_die": {"type": "boolean", "default": False, "title": "Blue die instead of red",
                     "description": "Optional rule (Souls of Yomi): roll the blue attack die (1 to 3) wherever a "
                                    "red die (0 to 4) is called for; same average, less luck."},
        "adventure": {"enum": ["success", "failure"]},
        # the Adventure Phase's missions (number -> final status) and the campaign sheet's marks,
        # for the scenario's adventure_consequences
        "missions": {"type": "object", "maxProperties": 20, "propertyNames": {"pattern": "^[0-9]{1,3}$"},
                     "additionalProperties": {"enum": ["completed", "failed", "active", "hidden", "unavailable"]}},
        "marks": {"type": "array", "maxItems": 200, "items": {"type": "string", "pattern": "^[a-z_0-9]{1,64}$"}},
        "party": {"type": "object", "additionalProperties": {"type": "object"}},
        "market": {"type": "array", "items": {"type": "string"}, "maxItems": 200},
        "share": {"type": "boolean"},
        "yomi_mode": {"type": "boolean"},
        "yomi_track": {"type": "object"},
    },
    "additionalProperties": False,
}
ADVENTURE_OPTIONS = {**ADVENTURE.options_schema,
                     "properties": {"phase": {"const": "adventure"}, **ADVENTURE.options_schema["properties"]},
                     "required": ["phase"]}

DEBUG_RAISE = False  # tests may set it to see the traceback of an unexpected error


def _normalize(type_, args):
    args = dict(args)
    if type_ == "attack":
        args.setdefault("focus", False)
        args.setdefault("skill", None)
    if type_ == "technique" and args.get("skill") == "healing":
        args.setdefault("ally", None)
    return {"type": type_, "args": args}


class HarakiriEngine(EngineBase):
    slug = "harakiri"
    name = "Harakiri: Blades of Honor"
    version = "1"
    min_seats = 1
    max_seats = 4
    turn_events = frozenset({"TurnStarted"})
    cooperative = True  # the party wins or loses together: no ratings
    # One match is one phase: the Exploration Phase (default) or, with ``phase: "adventure"``, the
    # Adventure Phase (``chapter``, ``control``, ``kami``, ``sheet``: docs/games/harakiri-adventure.md).
    options_schema = {
        "type": "object",
        "properties": {"phase": {"enum": list(PHASES)}},
        "if": {"properties": {"phase": {"const": "adventure"}}, "required": ["phase"]},
        "then": ADVENTURE_OPTIONS,
        "else": EXPLORATION_OPTIONS,
    }

    # -- content ---------------------------------------------------------------------------
    def glossary(self) -> dict:
        return json.loads(json.dumps(content.GLOSSARY))

    def content(self) -> dict:
        skills = [dict(sk, implemented=sk["id"] in catalogue.IMPLEMENTED) for sk in content.SKILLS_DOC["skills"]]
        kami = []
        for k in content.KAMI_DOC["kami"]:
            ks = []
            for sk in k["skills"]:
                impl = sk["id"] in catalogue.IMPLEMENTED or (sk["level"] == 6 and k["id"] in catalogue.KAMI_MODES)
                if sk["level"] == 1 and sk["id"] != "izanami_l1":
                    impl = None  # Adventure Phase only: not part of this engine
                ks.append(dict(sk, implemented=impl))
            kami.append(dict(k, skills=ks))
        return {
            "provisional": True,
            "dice": content.DICE,
            "characters": {k: dict(v, playable=playable(k)) for k, v in content.CHARACTERS.items()},
            "weapons": content.WEAPONS,
            "armors": content.ARMORS,
            "items": content.ITEMS,
            "skills": skills,
            "kami": kami,
            "enemies": {k: v for k, v in content.ENEMIES_DOC.items() if k in ("minions", "servants", "wanderers",
                                                                              "chosen")},
            "oracle": content.ORACLE,
            "scenarios": {k: {"id": v["id"], "name": v["name"], "act": v.get("act"),
                              "objective": v["objective"]} for k, v in content.SCENARIOS.items()},
            "adventure": ADVENTURE.content(),
        }

    # -- lifecycle -------------------------------------------------------------------------
    def validate_options(self, options, seats):
        if not self.min_seats <= seats <= self.max_seats:
            raise RuleViolation("bad_options", "1 to 4 seats")
        phase, options = _phase_options(options)
        if phase == "adventure":
            ADVENTURE.validate_options(options, seats)
            return
        build_state(content.SCENARIOS[options.get("scenario", "act1_burning_village")], options, seats,
                    lambda xs: list(xs), lambda: 1)

    def setup(self, options, seats, rng):
        self.validate_options(options, seats)
        phase, options = _phase_options(options)
        if phase == "adventure":
            return ADVENTURE.setup(options, seats, rng)
        doc = content.SCENARIOS[options.get("scenario", "act1_burning_village")]
        s = build_state(doc, options, seats, rng.shuffled, lambda: rng.randint(1, 6))
        return [event("PhaseStarted", {"state": s})]

    def scenario(self, document):
        if isinstance(document, dict) and document.get("phase") == "adventure":
            return ADVENTURE.scenario({k: v for k, v in document.items() if k != "phase"})
        try:
            return _scenario_events(document)
        except RuleViolation:
            raise
        except Exception as exc:  # a malformed document (schema, keys, types) is a rule violation
            raise RuleViolation("bad_scenario", f"{type(exc).__name__}: {str(exc)[:300]}") from None

    # -- decide ----------------------------------------------------------------------------
    def decide(self, state, command, rng):
        try:
            return self._decide(state, command, rng)
        except RuleViolation:
            raise
        except Exception as exc:  # never let a malformed command escape as another exception
            if DEBUG_RAISE:
                raise
            raise RuleViolation("bad_args", f"{type(exc).__name__}: {exc}") from None

    def _decide(self, state, command, rng):
        if is_adventure(state):
            return ADVENTURE.decide(state, command, rng)
        if not isinstance(state, dict) or state.get("phase") == "ended":
            raise RuleViolation("game_over", "the Exploration Phase has ended")
        if not isinstance(command.type, str) or command.type not in KNOWN:
            raise RuleViolation("unknown_command", f"unknown command {command.type!r}")
        if not isinstance(command.args, dict):
            raise RuleViolation("bad_args", "args must be an object")
        st = self.status(state)
        if not json_member(command.seat, st.awaiting):
            raise RuleViolation("not_your_turn", "this decision is not yours")
        wanted = _normalize(command.type, command.args)
        if not json_member(wanted, self.legal_commands(state, command.seat)):
            raise RuleViolation("illegal_command", f"{command.type} {command.args} is not allowed now")
        w = W(state, rng)
        t, a = wanted["type"], wanted["args"]
        s = w.s
        if command.seat == SYSTEM:
            if t == "draw_oracle":
                flow.draw_oracle(w)
            elif t == "activate_enemy":
                w.emit("WorkPushed", items=[{"op": "enemy", "enemy": a["enemy"], "stage": "start"}], front=True)
            # "resume": the enemies' or the oracle's step a player's decision paused goes on
        elif t in SHARE_COMMANDS:
            sharing.share_execute(w, command.seat, wanted)
        elif t == "choose":
            self._choose(w, command.seat, a["option"])
        elif t == "reroll_die":
            combat.reroll_die(w, a["die"], a["with"])
        elif t == "resolve_attack":
            combat.finish_char_attack(w)
        else:
            actions.execute(w, s["turn"]["who"], wanted)
        flow.advance(w, by_player=command.seat != SYSTEM)
        return w.finish()

    def _choose(self, w, seat, index):
        s = w.s
        pending = s["pending"]
        option = pending["options"][index]
        if pending["by"] == "party" and work_queue.voting(s):
            w.emit("VoteCast", seat=seat, option=index)
            pick = work_queue.vote_result(w.s)
            if pick is None:
                return
            option = pending["options"][pick]
        work_queue.answer(w, option)

    def evolve(self, state, ev):
        if is_adventure(state) or (state is None and ev["type"] == "AdventureStarted"):
            return ADVENTURE.evolve(state, ev)
        new = {} if state is None else copy_for(state, ev)
        return apply(new, ev)

    # -- reading ---------------------------------------------------------------------------
    def finished_phase(self, state) -> str:
        """As ``status`` says of a phase played to its end: the Adventure Phase's ``finished``, the
        Exploration Phase's ``ended``."""
        return ADVENTURE.finished_phase(state) if is_adventure(state) else "ended"

    def status(self, state) -> Status:
        """``phase`` is always the Exploration Phase's own stage (``share``, ``oracle``, ``activation``,
        ``failure``, ``aftermath``, ``ended``), the word the board shows: a decision or an open attack
        roll is said by ``awaiting`` and the view's ``pending``/``attack``, not by a phase of its own."""
        if is_adventure(state):
            return ADVENTURE.status(state)
        s = state
        if s["phase"] == "ended":
            won = s["result"] == "victory"
            return Status(phase="ended", awaiting=[], finished=True,
                          winners=list(range(s["seats"])) if won else [])
        if s["phase"] == "share":
            return Status(phase="share", awaiting=sharing.share_awaiting(s))
        p = s["pending"]
        if p:
            if p["by"] == "party":
                if work_queue.voting(s):
                    aw = [i for i in leaving.in_play(s) if str(i) not in p["votes"]]
                else:
                    aw = [s["leader"]]
            else:
                aw = [p["by"]]
            return Status(phase=s["phase"], awaiting=aw)
        if s["attack"]:
            return Status(phase=s["phase"], awaiting=[s["control"][s["attack"]["attacker"]]])
        if work_queue.automated_work_next(s):
            return Status(phase=s["phase"], awaiting=[SYSTEM])
        if s["phase"] == "oracle":
            return Status(phase="oracle", awaiting=[SYSTEM])
        turn = s["turn"]
        if turn and turn["kind"] in ("character", "double"):
            return Status(phase="activation", awaiting=[s["control"][turn["who"]]])
        return Status(phase=s["phase"], awaiting=[SYSTEM])

    def legal_commands(self, state, seat):
        if is_adventure(state):
            return ADVENTURE.legal_commands(state, seat)
        st = self.status(state)
        if st.finished or seat not in st.awaiting:
            return []
        s = state
        if seat == SYSTEM:
            sc = self.system_command(state)
            return [sc] if sc else []
        if s["phase"] == "share":
            return sharing.share_commands(s, seat)
        if s["pending"]:
            return [{"type": "choose", "args": {"option": i}} for i in range(len(s["pending"]["options"]))]
        if s["attack"]:
            out = [{"type": "reroll_die", "args": r} for r in combat.reroll_options(s, s["attack"])]
            return out + [{"type": "resolve_attack", "args": {}}]
        return actions.character_commands(s, s["turn"]["who"])

    def system_command(self, state):
        if is_adventure(state):
            return ADVENTURE.system_command(state)
        s = state
        if s["phase"] in ("ended", "share") or s["pending"] or s["attack"]:
            return None
        if work_queue.automated_work_next(s):
            return {"type": "resume", "args": {}}
        if s["phase"] == "oracle":
            return {"type": "draw_oracle", "args": {}}
        turn = s["turn"]
        if turn and turn["kind"] == "enemies" and turn["todo"]:
            return {"type": "activate_enemy", "args": {"enemy": turn["todo"][0]}}
        return None

    def bot_command(self, state, seat, rng):
        """A bot seat plays its characters (``bot.py``; docs/games/harakiri.md, "Bot"): the party's
        goal, attacks by expected damage, interactions, healing; every pending decision. The
        Adventure Phase has its own engine's bot."""
        if is_adventure(state):
            return ADVENTURE.bot_command(state, seat, rng)
        return bot.choose(state, seat, self.legal_commands(state, seat))

    def timeout_command(self, state, seat):
        """A timed-out seat ends what it is doing: the activation, the movement, the attack
        roll; a decision takes its first option."""
        legal = self.legal_commands(state, seat)
        for kind in ("resolve_attack", "end_move", "end_activation", "end_share"):
            for c in legal:
                if c["type"] == kind:
                    return c
        return legal[0] if legal else None

    # -- resigning (a cooperative game: the party plays on; concede.py) ----------------------
    def concede(self, state, seat, rng):
        """A player who resigns leaves the table: their characters pass to the first player left
        and the party plays on; the last one leaving ends the match, failed (docs/games/harakiri.md,
        "Resigning")."""
        return leave_table.concede(state, seat, rng)

    def take_over(self, state, seat, by, rng):
        """``by`` takes over the characters of ``seat``, an absent player (docs/games/harakiri.md,
        "An absent player"; the platform decides when a seat has been awaited long enough)."""
        return leave_table.take_over(state, seat, by, rng)

    def concede_refusal(self, state, seat):
        return leave_table.refusal(state, seat)

    def out_of_play(self, state, seat):
        return leave_table.out_of_play(state, seat)

    def resign_heir(self, state, seat) -> int | None:
        """The seat that takes over ``seat``'s characters if its player resigns now (None: the last
        player, whose leaving ends the match)."""
        return leaving.heir(state, seat) if isinstance(state, dict) else None

    def view_for(self, state, seat):
        if is_adventure(state):
            return ADVENTURE.view_for(state, seat)
        return views.view(state)

    def view_open(self, state):
        """A cooperative game: no seat holds a hidden hand, so the open board is everyone's board.
        What it hides from all (the oracle's, the AI's and the zones' deck orders, the campaign
        book's unread entries) is not drawn on any board; staff read it in the raw state."""
        return self.view_for(state, None)

    def redact_event(self, ev, seat):
        """Each phase hides its own event types (no type one phase redacts is emitted by the other;
        ``test_phases.py`` checks it), so both redactions apply to every event."""
        return views.redact(ADVENTURE.redact_event(ev, seat))

    def describe(self, ev, seat, names=()) -> str:
        if adventure_words.owns(ev):
            return adventure_words.describe(ev, seat, names)
        return narration.describe(ev, seat, names)


def _scenario_ai(e, base, spec):
    """A chosen's AI cards placed by a scenario document: each of its own cards at most once."""
    ai = {pile: list(spec.get(pile, [])) for pile in ("deck", "discard", "in_play")}
    cards = ai["deck"] + ai["discard"] + ai["in_play"]
    own = {c["id"] for c in content.enemy_board(base["kind"], base["type"])["ai_deck"]}
    if len(cards) != len(set(cards)) or not set(cards) <= own:
        raise RuleViolation("bad_scenario", f"{e}: AI cards must be its own cards, each once (got {cards})")
    return ai


def _scenario_events(doc):
    """See docs/games/harakiri.md, "Scenario documents"."""
    scen = doc.get("scenario", "act1_burning_village")
    if isinstance(scen, str):
        scen = content.SCENARIOS[scen]
    else:
        content.validate(scen)
    seats = doc.get("seats", 1)
    options = dict(doc.get("options", {}))
    ki_rolls = list(doc.get("ki", []))
    s = build_state(scen, options, seats, lambda xs: list(xs), lambda: ki_rolls.pop(0) if ki_rolls else 3)
    for z in doc.get("reveal", []):
        zp = zone_payload(s, z, lambda xs: list(xs))
        apply(s, event("ZoneRevealed", zp))
    if doc.get("clear_enemies"):
        s["enemies"] = {}
    if doc.get("clear_resistors"):
        s["resistors"] = {}
    for e, spec in doc.get("enemies", {}).items():
        base = make_enemy({"kind": spec.get("kind", "minion"), "type": spec["type"], "color": spec.get("color"),
                           "at": spec["at"], "plus": spec.get("plus", False), "allied": spec.get("allied")},
                          spec.get("zone") or s["squares"].get(spec["at"], {}).get("z"), s["plus_types"],
                          lambda xs: list(xs))
        for k in ("health", "armor_tokens", "conditions"):
            if k in spec:
                base[k] = spec[k] if k != "conditions" else {**base["conditions"], **spec[k]}
        if "ai" in spec and "ai" in base:  # a chosen's AI cards: deck order, discard pile, cards in play
            base["ai"] = _scenario_ai(e, base, spec["ai"])
        s["enemies"][e] = base
    for r, spec in doc.get("resistors", {}).items():
        s["resistors"][r] = {"sq": spec["at"], "tokens": spec.get("tokens", 1), "living": spec.get("living", True),
                             "name": spec.get("name", r), "zone": s["squares"].get(spec["at"], {}).get("z")}
    for c, spec in doc.get("characters", {}).items():
        ch = s["characters"][c]
        for k, v in spec.items():
            if k == "conditions":
                ch["conditions"] = {**ch["conditions"], **v}
            elif k == "attrs":
                ch["attrs"] = {**ch["attrs"], **v}
            else:
                ch[k] = v
    s["defeated_in_phase"] = sorted(c for c, ch in s["characters"].items() if ch["defeated"])
    for k in ("malice", "round", "forced", "round_effects", "heads"):
        if k in doc:
            s[k] = doc[k]
    if "squares" in doc:
        sq = dict(s["squares"])
        for k, v in doc["squares"].items():
            if v is None:
                sq.pop(k, None)
            else:
                sq[k] = v
        s["squares"] = sq
    if "oracle" in doc:
        s["oracle"].update(doc["oracle"])
    if "initiative" in doc:
        s["next_initiative"] = list(doc["initiative"])
    events = [event("ScenarioLoaded", {"state": s})]
    if "activate" in doc:
        queue = doc.get("queue") or ([f"enemy:{e}" for e, en in sorted(s["enemies"].items())
                                      if en["kind"] == "chosen"] + flow.base_cards(s))
        s["phase"] = "activation"
        card = doc["activate"]
        s["initiative"] = {"queue": list(queue), "pos": queue.index(card) - 1}
        events = [event("ScenarioLoaded", {"state": s})]
        w = W(s, Rng(b"harakiri-scenario", "scenario"))
        flow.advance(w)
        events += w.finish()
    return events


ENGINE = HarakiriEngine()
