"""The fault scoreboard: each fault test records, per fault, the commands its clients sent, how many
the service acknowledged (a 201, or a socket ``command_result``) and how many of those are missing
from the log afterwards. The table is printed at the end of the run, in CI's log too, pass or fail.

A record travels as a ``user_properties`` entry of the test's report, so it reaches the summary
from xdist workers as well."""

KEY = "fault_score"


def record(node, fault: str, sent: int, acknowledged: int, lost: int, note: str = "") -> None:
    node.user_properties.append((KEY, {"fault": fault, "sent": sent, "acknowledged": acknowledged, "lost": lost,
                                       "note": note}))


def _rows(terminalreporter) -> list[dict]:
    rows = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) != "call":
                continue
            for key, value in getattr(report, "user_properties", ()):
                if key == KEY:
                    rows.append({**value, "outcome": report.outcome})
    return rows


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    rows = _rows(terminalreporter)
    if not rows:
        return
    width = max(len("fault"), *(len(r["fault"]) for r in rows))
    terminalreporter.write_sep("=", "fault scoreboard")
    terminalreporter.write_line(f"{'fault':<{width}}  {'sent':>6}  {'acknowledged':>12}  {'lost':>5}  test")
    for r in rows:
        verdict = "passed" if r["outcome"] == "passed" else r["outcome"].upper()
        note = f"  ({r['note']})" if r.get("note") else ""
        terminalreporter.write_line(
            f"{r['fault']:<{width}}  {r['sent']:>6}  {r['acknowledged']:>12}  {r['lost']:>5}  {verdict}{note}")
    lost = sum(r["lost"] for r in rows)
    terminalreporter.write_line(f"acknowledged commands lost in all: {lost} (must be 0)")
