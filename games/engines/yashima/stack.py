"""The resolution stack, the step and decision machinery: every multi-step rule is a task dict on
``state["stacks"][key]`` whose ``"k"`` names its step.

``run`` resolves the top task until one needs a decision (it sets ``task["prompt"]`` with the
concrete commands allowed) or the stack is empty. Tasks pushed while another resolves run first
("newest first"). A prompt with a single possible command is answered automatically.

A task flagged ``"sys": true`` is a step of the game itself (dealing, the destiny reveal, initiative,
handing the turn on, each master's restoration, the round end): a seat's command stops in front of it
and the engine awaits SYSTEM, so the platform records those events under its worker, not under the
seat whose command happened to complete the previous decision.

This module knows no rule: ``HANDLERS`` maps a step kind to its function and is filled in by the
modules above (``tasks``, ``attack``, ``effects``, ``saru``, ``flow``) with ``@handler`` when they
are imported; the engine facade imports every one of them. Pushing a task is a state change
(``ops.push``), so the rules below this layer queue steps by kind without importing their handlers.
"""


HANDLERS = {}


def handler(name):
    def wrap(fn):
        HANDLERS[name] = fn
        return fn
    return wrap


def C(type_, **args):
    return {"type": type_, "args": args}


def ask(t, seat, kind, cmds, info=None):
    t["prompt"] = {"seat": seat, "kind": kind, "cmds": cmds}
    if info is not None:
        t["prompt"]["info"] = info


def pop(sim, t, key=None):
    st = sim.s["stacks"].get(key or sim.key, [])
    for i in range(len(st) - 1, -1, -1):
        if st[i] is t:
            del st[i]
            return


def run(sim, key="main"):
    sim.key = key
    for _ in range(100000):
        st = sim.s["stacks"].get(key) or []
        if not st:
            return
        t = st[-1]
        if t.get("sys"):
            if not sim.system:
                return
            del t["sys"]
        pr = t.get("prompt")
        if pr:
            if len(pr["cmds"]) == 1:
                t["ans"] = pr["cmds"][0]
                t["prompt"] = None
            else:
                return
        HANDLERS[t["k"]](sim, t)
        sim.key = key
    raise RuntimeError(f"resolution did not terminate: {sim.s['stacks'].get(key)}"[:3000])


def system_step(sim, task: dict) -> None:
    """Push ``task`` onto the main stack as a step the SYSTEM takes (see the module docstring)."""
    task["sys"] = True
    sim.s["stacks"]["main"].append(task)


def find_attack(sim, aid):
    for st in sim.s["stacks"].values():
        for t in st:
            if t["k"] == "attack" and t["aid"] == aid:
                return t
    return None
