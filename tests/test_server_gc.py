"""The server process's garbage collector (config.garbage), as uvicorn loads it: config.asgi."""

import subprocess
import sys
from pathlib import Path

from config import garbage

ROOT = Path(__file__).resolve().parent.parent


def test_the_server_entry_freezes_what_it_loaded_and_spaces_full_collections():
    # given a fresh interpreter, when it loads the ASGI application as uvicorn does
    probe = ("import gc; before = gc.get_freeze_count(); import config.asgi; "
             "print(before, gc.get_freeze_count(), *gc.get_threshold())")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    before, frozen, *thresholds = map(int, out.stdout.split())
    # then the application's objects are frozen out of every collection, and full collections are spaced
    assert before == 0 and frozen > 50_000
    assert thresholds == [garbage.YOUNG, garbage.MIDDLE, garbage.FULL_EVERY] and garbage.FULL_EVERY > 10
