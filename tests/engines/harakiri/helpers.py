"""Building small scenario documents for rules tests."""

from games.engines.harakiri import ENGINE
from games.kernel import SYSTEM
from games.kernel.scenario import Scenario

FAR = {"akira": "0,9", "hattori": "1,9", "hikaru": "2,9", "tomoe": "3,9"}


def arena(rows, heights=None, events=None, spawns=None, doors=None, points=None, extra_zones=None,
          objective=None, level_increase=False, oracle=None):
    zone = {"name": "Arena", "origin": [0, 0], "rows": rows, "enemies": [], "start": [],
            "events": events or {"green": [], "red": []}, "spawns": spawns or {}, "doors": doors or [],
            "points": points or [], "resistors": [], "oracle": {"green": 0, "red": 0}}
    if heights:
        zone["heights"] = heights
    zones = {"arena": zone}
    zones.update(extra_zones or {})
    return {"provisional": True, "kind": "scenario", "id": "test_arena", "name": "Test arena",
            "oracle": oracle or {"success": {"green": 3, "red": 3}, "failure": {"green": 3, "red": 3}},
            "objective": objective or {"type": "defeat", "enemy": "nobody"}, "level_increase": level_increase,
            "start_zone": "arena", "zones": zones}


def open_rows(w=10, h=10):
    return ["." * w for _ in range(h)]


def doc(scen, characters=None, enemies=None, **kw):
    chars = {c: {"sq": sq} for c, sq in FAR.items()}
    for c, spec in (characters or {}).items():
        chars[c] = {**chars.get(c, {}), **spec}
    d = {"scenario": scen, "characters": chars, "enemies": enemies or {}, "clear_enemies": True}
    d.update(kw)
    return d


def kappa_example_doc():
    """The rulebook's kappa example ("Resolving Enemy Movement"): a red kappa on 0,4 whose green
    oracle line (forced die 1) moves toward the healthiest character it can reach; Tomoe on 2,1
    keeps it from passing diagonally to Akira on 4,0."""
    chars = {"akira": {"sq": "4,0", "health": 9}, "tomoe": {"sq": "2,1", "health": 8},
             "hikaru": {"sq": "0,7", "health": 7}, "hattori": {"sq": "9,9", "health": 9}}
    return doc(arena(open_rows()), chars, {"kappa": {"type": "kappa", "color": "red", "at": "0,4"}},
               activate="color:red", oracle={"color": "green"}, forced=[1])


RESUME = {"type": "resume", "args": {}}


class PlatformScenario(Scenario):
    """As on the platform: when a player's command leaves the enemies' or the oracle's step paused
    (a party decision in the middle of it), the worker's SYSTEM ``resume`` follows at once. The
    split itself is tested with a plain ``Scenario`` in test_system_steps.py."""

    def when(self, seat, type_: str, **args) -> list:
        events = super().when(seat, type_, **args)
        if seat != SYSTEM:
            while ENGINE.system_command(self.state) == RESUME:
                events = events + super().when(SYSTEM, "resume")
        return events


def scenario(document, seed=b"scenario-seed"):
    return PlatformScenario(ENGINE, document, seed=seed)


def run_system(s, limit=50):
    """Submit system commands until a seat (not SYSTEM) is awaited or the game ends."""
    for _ in range(limit):
        st = s.status
        if st.finished or SYSTEM not in st.awaiting:
            return
        cmd = ENGINE.system_command(s.state)
        s.when(SYSTEM, cmd["type"], **cmd["args"])


def types(events):
    return [e["type"] for e in events]


def find(events, type_):
    return [e["payload"] for e in events if e["type"] == type_]
