"""The writers of ``bench platform``'s ``writers_8_vs_1`` and of its bare baseline, in this process
(the benchmark starts them as ``manage.py bench writer`` processes): each says it is ready, waits
for the window the ``go`` file names, writes through it, reports, and tears down only once
released. Figures are printed, never asserted."""

import json
import os
import threading
import time

import pytest
from django.db import connection

from games.benchmarks import platform
from games.eventstore.models import Match

WINDOW_S = 0.3


def _open_window(barrier, seconds=WINDOW_S) -> dict:
    start = time.time() + 0.05
    window = {"start": start, "stop": start + seconds}
    (barrier / "go").write_text(json.dumps(window))
    return window


def _release_once_reported(barrier):
    """The orchestrator's part: release the writer once its report is there, and not before."""
    report = barrier / f"{os.getpid()}-0.json"
    seen = {}

    def release():
        while not report.exists():
            time.sleep(0.005)
        seen["report"] = json.loads(report.read_text())
        (barrier / "release").touch()

    thread = threading.Thread(target=release)
    thread.start()
    return thread, seen


def _assert_wrote_through(report, window, seen):
    assert (report["start"], report["commands"]) == (window["start"], seen["report"]["commands"])
    assert report["commands"] > 0
    assert window["stop"] <= report["end"] < window["stop"] + 5


@pytest.mark.django_db
def test_a_bare_writer_commits_one_row_at_a_time_to_a_table_of_its_own(tmp_path):
    window = _open_window(tmp_path)
    thread, seen = _release_once_reported(tmp_path)
    report = platform.run_writer(str(tmp_path), bare=True)
    thread.join()
    assert (tmp_path / f"{os.getpid()}-0.ready").exists()
    _assert_wrote_through(report, window, seen)
    if connection.vendor == "postgresql":  # dropped with the baseline's connection
        with connection.cursor() as cursor:
            cursor.execute("SELECT to_regclass(%s)", [f"bench_rows_{os.getpid()}_0"])
            assert cursor.fetchone()[0] is None


@pytest.mark.django_db(transaction=True)
def test_a_writer_submits_commands_to_a_match_of_its_own_until_its_window_closes(tmp_path):
    window = _open_window(tmp_path)
    thread, seen = _release_once_reported(tmp_path)
    report = platform.run_writer(str(tmp_path))
    thread.join()
    (match,) = Match.objects.filter(game="counter")
    _assert_wrote_through(report, window, seen)
    assert match.head_seq >= report["commands"]


@pytest.mark.django_db
@pytest.mark.django_db(transaction=True)
def test_writer_threads_each_write_to_a_match_of_their_own_and_report_apart(tmp_path):
    """Eight writers as a server's requests are: threads of one process, each its own connection."""
    window, reports = {}, {}

    def release_once_all_reported():  # the orchestrator's part, for three writers
        while len(list(tmp_path.glob("*.ready"))) < 3:
            time.sleep(0.005)
        window.update(_open_window(tmp_path))
        while len(list(tmp_path.glob("*.json"))) < 3:
            time.sleep(0.005)
        reports.update({path.stem: json.loads(path.read_text()) for path in tmp_path.glob("*.json")})
        (tmp_path / "release").touch()

    thread = threading.Thread(target=release_once_all_reported)
    thread.start()
    total = platform.run_writer(str(tmp_path), threads=3)
    thread.join()
    assert sorted(reports) == [f"{os.getpid()}-{n}" for n in range(3)]
    assert sorted(path.stem for path in tmp_path.glob("*.ready")) == sorted(reports)
    assert all(report["commands"] > 0 and report["start"] == window["start"] for report in reports.values())
    assert total["commands"] == sum(report["commands"] for report in reports.values())
    matches = Match.objects.filter(game="counter")
    assert matches.count() == 3
    heads, commands = sorted(m.head_seq for m in matches), sorted(r["commands"] for r in reports.values())
    assert len({head - n for head, n in zip(heads, commands)}) == 1  # each match its own writer's commands


def test_a_writer_waits_for_its_release_before_tearing_down(tmp_path):
    _open_window(tmp_path, seconds=0.05)
    done = threading.Event()
    writer = threading.Thread(target=lambda: (platform.run_writer(str(tmp_path), bare=True), done.set()))
    writer.start()
    while not (tmp_path / f"{os.getpid()}-0.json").exists():
        time.sleep(0.005)
    assert not done.wait(0.2)  # reported, and still holding its table and connection
    (tmp_path / "release").touch()
    writer.join()
    assert done.is_set()


def test_the_machine_is_busier_after_work_than_before():
    before = platform.machine_busy_seconds()
    if before is None:
        pytest.skip("no /proc/stat here")
    deadline = time.process_time() + 0.1
    while time.process_time() < deadline:
        pass
    assert platform.machine_busy_seconds() - before >= 0.05


def test_the_write_paths_windows_report_the_machines_cpu_per_command_and_cores_busy():
    one = [{"commands": 1000, "window_s": 1.5, "machine_busy_s": 0.6}, {"commands": 1000, "window_s": 1.5, "machine_busy_s": 0.8}]
    eight = [{"commands": 4000, "window_s": 1.5, "machine_busy_s": 2.9}, {"commands": 4000, "window_s": 1.5, "machine_busy_s": 3.1}]
    assert platform._machine_cpu(one, eight) == {
        "machine_cores": os.cpu_count(), "writers_1_machine_cpu_ms_per_command": 0.7,
        "writers_8_machine_cpu_ms_per_command": 0.75, "writers_8_cores_busy": 2.0}
    assert platform._machine_cpu(one, [{**eight[0], "machine_busy_s": None}]) == {}
    assert platform._machine_cpu(one, eight, eight_name="writers_8_in_2_processes") == {
        "machine_cores": os.cpu_count(), "writers_1_machine_cpu_ms_per_command": 0.7,
        "writers_8_in_2_processes_machine_cpu_ms_per_command": 0.75, "writers_8_in_2_processes_cores_busy": 2.0}
