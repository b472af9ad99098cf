"""State shape, the event fold (``apply``) and the decide-time working copy (``W``).

Every change to the state is an event; ``apply`` mutates a private copy in place and never
draws randomness. ``W`` is the working copy ``decide`` builds: each emitted event is applied
at once so later rules read the up-to-date state, and the list of events is what decide returns.
"""

from games.kernel import event, json_copy

from . import content, leaving

CONDITIONS = ("bleeding", "poisoned", "blinded", "downed")
SHARED = ("squares", "zones_def")  # replaced wholesale when they change, so shared by copies


def fastcopy(state):
    out = {}
    for k, v in state.items():
        if k in SHARED or not isinstance(v, (dict, list)):
            out[k] = v
        else:
            out[k] = json_copy(v)
    return out


def _deep(v):
    return json_copy(v) if isinstance(v, (dict, list)) else v


_C = ("characters", "enemies")
TOUCHES = {
    "OracleReshuffled": ("oracle",), "OracleCardsAdded": ("oracle",), "OracleDrawn": ("oracle",),
    "EventRevealed": ("zones",), "MaliceRaised": (), "RoundEffectAdded": ("round_effects",),
    "InitiativeSet": ("initiative",), "InitiativeDeckSet": ("initiative",), "InitiativeCardRevealed": ("initiative",), "TurnStarted": ("initiative", "turn"), "TurnChanged": ("turn",),
    "TurnEnded": ("turn",), "ActivationsBegan": (), "WorkPushed": ("work",), "WorkUpdated": ("work",),
    "WorkDone": ("work",), "DecisionOpened": ("pending",), "VoteCast": ("pending",), "DecisionMade": ("pending",),
    "AttackRolled": ("attack",), "AttackDieRerolled": ("attack",), "AttackFinished": ("attack",),
    "EnemyDamaged": _C, "EnemyChanged": _C, "EnemySpawned": _C + ("plus_types",), "AICardDrawn": _C,
    "AICardSetAside": _C, "AIDeckShuffled": _C, "EnemyDefeated": _C + ("heads", "defeated_enemies"), "CreatureRemoved": _C, "HeadRetrieved": _C + ("heads",),
    "DoorOpened": ("doors",), "PointRemoved": ("points",), "ResistanceRemoved": ("resistors",),
    "MarketDeckSet": (), "ShareReady": ("share",), "ShareEnded": ("share",),
    "ResistorDefeated": ("resistors",), "HeadRewardsEnded": ("zones", "heads"), "ForcedRollsUsed": ("forced",), "ObjectiveAchieved": (),
}


def copy_for(state, ev):
    """A copy of ``state`` deep enough for ``apply(copy, ev)`` to leave ``state`` untouched."""
    t = ev["type"]
    if t in CREATURE_SET:
        keys = _C
    elif t in INFO:
        keys = ()
    elif t in TOUCHES:
        keys = TOUCHES[t]
    else:
        return fastcopy(state)
    out = dict(state)
    for k in keys:
        out[k] = _deep(state[k])
    return out


# -- lookups --------------------------------------------------------------------------------


def creature(s, who):
    if who in s["characters"]:
        return s["characters"][who]
    return s["enemies"].get(who)


def is_character(s, who):
    return who in s["characters"]


def living_characters(s):
    return [c for c, ch in s["characters"].items() if not ch["defeated"]]


def side_of(s, who):
    """"party" for characters and allied creatures, "shogun" for the rest."""
    if who in s["characters"]:
        return "party"
    e = s["enemies"].get(who)
    return "party" if e and e.get("allied") else "shogun"


def headless_zone(s, zone):
    """Failure, step 7: "no enemy heads can be acquired in zones that were already active. They can
    only be acquired in newly discovered zones from this point onward" - a zone that was on the
    table at a failure (``zones.<z>.no_heads``, reset or present but empty) gives no heads from any
    enemy placed there later. ``reset`` alone marks such a zone in a log written before
    ``HeadRewardsEnded`` existed (then only the zones the failure reset were closed). Here, under
    the flow and the views, so that the board is told what the rules decide."""
    zs = s["zones"].get(zone) or {}
    return bool(zs.get("no_heads") or zs.get("reset"))


def controller(s, char):
    return s["control"][char]


# -- events -----------------------------------------------------------------------------------

# Events whose payload is {"who": creature, "set": {...}} (plus descriptive fields).
CREATURE_SET = {
    "ActionPointsChanged", "HealthChanged", "ConditionsChanged", "ArmorChanged", "KiChanged",
    "MeditationChanged", "ItemsChanged", "CreatureMoved", "KarmaChanged", "HeadsChanged",
    "KamiSkillUsed", "KamiModeChanged", "WeaponSwapped", "CharacterDefeated", "AttributesChanged",
    "SkillsChanged", "CharacterResurrected", "CounterReadied",
}
# Events that only describe what happened (the changes come in the events around them).
INFO = {"AttackResolved", "EnemyAttackRolled", "StateNote", "EnemyActivated", "EnemyLineChosen",
        "EventEffectSkipped", "ResurrectionRolled", "Interacted", "ItemUsed", "TechniqueUsed", "MarketRevealed",
        "AttackDieRemoved"}


def apply(s, ev):
    t, p = ev["type"], ev["payload"]
    if t in CREATURE_SET:
        creature(s, p["who"]).update(p["set"])
        if t == "CharacterDefeated":
            s["last_defeat_sq"] = p["square"]
            s["defeated_in_phase"] = sorted(set(s.get("defeated_in_phase", [])) | {p["who"]})  # Yomi Mode
    elif t in INFO:
        pass
    elif t in ("PhaseStarted", "ScenarioLoaded"):
        s.clear()
        s.update(json_copy(p["state"]))
    elif t == "ForcedRollsUsed":
        s["forced"] = s["forced"][p["n"]:]
    elif t == "OracleReshuffled":
        s["oracle"]["deck"] = list(p["deck"])
        s["oracle"]["drawn"] = []
    elif t == "OracleCardsAdded":
        s["oracle"]["deck"] = list(p["deck"])
    elif t == "OracleDrawn":
        s["oracle"]["deck"].pop(0)
        s["oracle"]["drawn"].append(p["card"])
        s["oracle"]["current"] = p["card"]
        s["oracle"]["color"] = p["color"]
    elif t == "EventRevealed":
        z = s["zones"][p["zone"]]
        z["events"][p["deck"]].pop(0)
        z["revealed"].append(p["event"])
    elif t == "MaliceRaised":
        s["malice"] = p["malice"]
    elif t == "RoundEffectAdded":
        s["round_effects"].append(p["effect"])
    elif t == "InitiativeSet":
        s["initiative"]["queue"] = list(p["queue"])
        if "pos" in p:
            s["initiative"]["pos"] = p["pos"]
    elif t == "InitiativeDeckSet":
        s["initiative"]["deck"] = list(p["deck"])
    elif t == "InitiativeCardRevealed":
        s["initiative"]["deck"].pop(0)
        s["initiative"]["queue"].append(p["card"])
    elif t == "TurnStarted":
        s["initiative"]["pos"] = p["pos"]
        s["turn"] = p["turn"]
    elif t == "TurnChanged":
        s["turn"].update(p["set"])
    elif t == "TurnEnded":
        s["turn"] = None
    elif t == "RoundEnded":
        s["round"] = p["next_round"]
        s["phase"] = "oracle"
        s["round_effects"] = []
        s["initiative"] = {"queue": [], "pos": -1}
        for ch in s["characters"].values():
            ch["items_used"] = []
            ch["evaded"] = False
            ch["breeze"] = 0
    elif t == "ActivationsBegan":
        s["phase"] = "activation"
    elif t == "WorkPushed":
        s["work"] = list(p["items"]) + s["work"] if p.get("front", True) else s["work"] + list(p["items"])
    elif t == "WorkUpdated":
        s["work"][0] = p["item"]
    elif t == "WorkDone":
        s["work"].pop(0)
    elif t == "DecisionOpened":
        s["pending"] = p["pending"]
    elif t == "VoteCast":
        s["pending"]["votes"][str(p["seat"])] = p["option"]
    elif t == "DecisionMade":
        s["pending"] = None
    elif t == "AttackRolled":
        s["attack"] = p["attack"]
    elif t == "AttackDieRerolled":
        s["attack"] = p["attack"]
    elif t == "AttackFinished":
        s["attack"] = None
    elif t == "EnemyDamaged":
        s["enemies"][p["who"]].update(p["set"])
    elif t == "EnemyDefeated":
        e = s["enemies"].pop(p["who"])
        if p.get("head"):
            s["heads"].append({"sq": e["sq"], "boss": p["head"] == "boss"})
        s["defeated_enemies"].append({"id": p["who"], "kind": e["kind"], "type": e["type"]})
    elif t == "CreatureRemoved":
        s["enemies"].pop(p["who"], None)
    elif t == "EnemySpawned":
        s["enemies"][p["who"]] = p["enemy"]
        if p["enemy"].get("plus") and p["enemy"]["type"] not in s["plus_types"]:
            s["plus_types"].append(p["enemy"]["type"])
    elif t == "EnemyChanged":
        s["enemies"][p["who"]].update(p["set"])
    elif t == "AICardDrawn":
        ai = s["enemies"][p["who"]]["ai"]
        ai["deck"].pop(0)
        ai["discard"].append(p["card"])
    elif t == "AICardSetAside":  # the drawn card stays in play instead of the discard pile
        ai = s["enemies"][p["who"]]["ai"]
        ai["discard"] = [c for c in ai["discard"] if c != p["card"]]
        ai["in_play"] = ai.get("in_play", []) + [p["card"]]
    elif t == "AIDeckShuffled":
        ai = s["enemies"][p["who"]]["ai"]
        ai["deck"] = list(p["deck"])
        ai["discard"] = []
    elif t == "ZoneRevealed":
        s["squares"] = {**s["squares"], **p["squares"]}
        s["zones"][p["zone"]] = p["zone_state"]
        s["enemies"].update(p["enemies"])
        s["doors"].update(p["doors"])
        s["points"].update(p["points"])
        s["resistors"].update(p["resistors"])
        s["spawns"].update(p["spawns"])
        for e in p["enemies"].values():
            if e.get("plus") and e["type"] not in s["plus_types"]:
                s["plus_types"].append(e["type"])
    elif t == "ZonesRemoved":
        gone = set(p["zones"])
        s["squares"] = {k: v for k, v in s["squares"].items() if v["z"] not in gone}
        for coll in ("enemies", "doors", "points", "resistors"):
            s[coll] = {k: v for k, v in s[coll].items() if v.get("zone") not in gone}
        s["spawns"] = {k: v for k, v in s["spawns"].items() if k not in p.get("spawns", [])}
        s["heads"] = [h for h in s["heads"] if h["sq"] in s["squares"]]
        for z in gone:
            s["zones"][z]["active"] = False
    elif t == "DoorOpened":
        s["doors"][p["door"]]["open"] = True
    elif t == "PointRemoved":
        s["points"].pop(p["point"], None)
    elif t == "ResistanceRemoved":
        s["resistors"][p["resistor"]]["tokens"] = p["tokens"]
    elif t == "ResistorDefeated":
        s["resistors"].pop(p["resistor"], None)
    elif t == "HeadRetrieved":
        s["heads"].pop(p["index"])
        creature(s, p["who"]).update(p["set"])
    elif t == "PhaseEnded":
        s["phase"] = "ended"
        s["result"] = p["result"]
        s["work"] = []
        s["pending"] = None
        s["turn"] = None
        s["attack"] = None
    elif t == "FailureBegan":
        s["phase"] = "failure"
        s["failures"] = p["failures"]
        s["turn"] = None
        s["attack"] = None
        s["work"] = []
        s["pending"] = None
        s["initiative"] = {"queue": [], "pos": -1}
        s["round_effects"] = []
    elif t == "ZoneReset":
        z = p["zone"]
        for coll in ("enemies", "doors", "points", "resistors"):
            s[coll] = {k: v for k, v in s[coll].items() if v.get("zone") != z}
            s[coll].update(p[coll])
        s["zones"][z] = p["zone_state"]
    elif t == "HeadRewardsEnded":  # Failure, step 7
        closed = set(p["zones"])
        for z in closed:
            s["zones"][z] = {**s["zones"][z], "no_heads": True}
        s["heads"] = [h for h in s["heads"] if s["squares"][h["sq"]]["z"] not in closed]
    elif t == "FailureRecovered":
        s["failures"] = p["failures"]
        if "last_defeat_sq" in p:  # absent from logs written before it was recorded
            s["last_defeat_sq"] = p["last_defeat_sq"]
        s["phase"] = "oracle"
        s["result"] = None
        s["round"] = p["next_round"]
    elif t == "AftermathBegan":
        s["phase"] = "aftermath"
        s["aftermath_reason"] = p.get("reason")
        s["turn"] = None
        s["attack"] = None
        s["work"] = []
        s["pending"] = None
    elif t == "MarketDeckSet":
        s["market"] = list(p["deck"])
    elif t == "ShareReady":  # a seat is done exchanging before the Exploration Phase starts
        s["share"] = {**s["share"], "ready": sorted(set(s["share"]["ready"]) | {p["seat"]})}
    elif t == "ShareEnded":
        s["share"] = None
        s["phase"] = "oracle"
    elif t == leaving.SEAT_LEFT:  # a player resigned (concede.py): their decisions wait on the heir
        leaving.apply_left(s, p)
        pending = s.get("pending")
        if pending and p["to"] is not None:
            votes = {k: v for k, v in pending["votes"].items() if k != str(p["seat"])}
            s["pending"] = {**pending, "by": p["to"] if pending["by"] == p["seat"] else pending["by"], "votes": votes}
    elif t == leaving.PARTY_LEFT:  # the last player left: the match ends, no one wins
        s.update(phase="ended", result="abandoned", work=[], pending=None, turn=None, attack=None)
    elif t == "DistractionSet":
        s["distraction"] = p["by"]
    elif t == "DistractionUsed":
        s["distraction"] = None
    elif t == "ObjectiveAchieved":
        s["objective_done"] = True
    else:  # pragma: no cover - a programming error, never reached by valid events
        raise ValueError(f"unknown event {t}")
    return s


class W:
    """The working copy a ``decide`` call builds its events on."""

    def __init__(self, state, rng):
        self.s = fastcopy(state)
        self.rng = rng
        self.events = []
        self.forced_used = 0

    def emit(self, type_, **payload):
        ev = event(type_, payload)
        apply(self.s, ev)
        self.events.append(ev)
        return ev

    # -- dice (scenario documents may force the next outcomes, 1-6, for reproducible tests)
    def d6(self) -> int:
        forced = self.s.get("forced") or []
        if self.forced_used < len(forced):
            v = forced[self.forced_used]
            self.forced_used += 1
            return v
        return self.rng.randint(1, 6)

    def roll(self, die: str) -> dict:
        n = self.d6()
        if die == "test":
            return dict(content.DICE["test"][n - 1], die="test")
        if die == "focus":
            return dict(content.DICE["focus"][n - 1], die="focus", n=n)
        die = content.rolled_die(die, bool(self.s.get("blue_die")))  # "Replace the Red Die" (option)
        face = dict(content.DICE["attack"][die][n - 1])
        face["die"] = die
        return face

    def shuffled(self, items):
        return self.rng.shuffled(items)

    def finish(self):
        if self.forced_used:
            self.emit("ForcedRollsUsed", n=self.forced_used)
            self.forced_used = 0
        return self.events
