"""Counter: a test-only engine with an endless stream of cheap legal commands.

Store contract tests and the platform benchmark need many appends on one match without the game
ending; every seat may ``add`` at any time (all seats are awaited). Never listed in the catalog.
"""

from games.kernel import EngineBase, RuleViolation, Status, event


class Counter(EngineBase):
    slug = "counter"
    name = "Counter (test engine)"
    min_seats = 1
    max_seats = 8
    listed = False

    def setup(self, options, seats, rng):
        return [event("CounterReset", {"seats": seats})]

    def decide(self, state, command, rng):
        if command.type != "add":
            raise RuleViolation("unknown_command", f"unknown command {command.type!r}")
        n = command.args.get("n", 1)
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 100:
            raise RuleViolation("bad_args", "n must be an integer from 1 to 100")
        return [event("Added", {"seat": command.seat, "n": n})]

    def evolve(self, state, ev):
        if ev["type"] == "CounterReset":
            return {"seats": ev["payload"]["seats"], "total": 0, "adds": 0}
        return {**state, "total": state["total"] + ev["payload"]["n"], "adds": state["adds"] + 1}

    def status(self, state):
        return Status(phase="counting", awaiting=list(range(state["seats"])))

    def legal_commands(self, state, seat):
        return [{"type": "add", "args": {"n": 1}}]

    def view_for(self, state, seat):
        return dict(state)


ENGINE = Counter()
