"""The distributed suite's chaos hook (workers.chaos): a no-op unless switched on; when a point is
armed, a task reaching it marks where it is (so the test can SIGKILL the worker right there) and
lingers."""

import os

from workers import chaos


def test_off_by_default(settings):
    settings.WORKER_CHAOS_DIR = ""
    chaos.pause("advance")
    assert chaos.hook("advance") is None


def test_marks_and_pauses_only_at_an_armed_point(settings, tmp_path):
    settings.WORKER_CHAOS_DIR = str(tmp_path)
    (tmp_path / "campaign_policy").write_text("0.01")
    chaos.pause("advance")
    chaos.hook("campaign_policy")()
    assert (tmp_path / "marks").read_text() == f"campaign_policy {os.getpid()}\n"
