"""Engines are discovered: every package under games/engines/ is registered, unless KAMIZA_ENGINES
names the ones to register; KAMIZA_EXTRA_ENGINES adds test engines either way."""

import os
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from games import engines
from games.apps import engine_load, engine_modules
from games.kernel import registry

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_under_games_engines_is_discovered():
    on_disk = sorted(p.name for p in (ROOT / "games" / "engines").iterdir() if (p / "__init__.py").is_file())
    assert engines.discovered() == [f"games.engines.{name}" for name in on_disk]
    assert {"games.engines.yokai", "games.engines.yashima", "games.engines.harakiri"} <= set(engines.discovered())


def test_the_default_catalog_is_every_discovered_engine():
    slugs = {import_module(path).ENGINE.slug for path in engines.discovered()}
    assert {e.slug for e in registry.all_engines()} == slugs


def test_kamiza_engines_restricts_and_extra_engines_add():
    assert engine_modules([], []) == engines.discovered()
    assert engine_modules(["games.engines.yokai"], []) == ["games.engines.yokai"]
    assert engine_modules(["games.engines.yokai"], ["tests.engines.pebbles"]) == ["games.engines.yokai", "tests.engines.pebbles"]
    assert engine_modules([], ["tests.engines.pebbles"]) == [*engines.discovered(), "tests.engines.pebbles"]


def test_a_registered_module_without_an_engine_is_refused():
    assert engine_load("tests.engines.pebbles").slug == "pebbles"
    with pytest.raises(ImproperlyConfigured, match="defines no ENGINE"):
        engine_load("games.engines")


def test_kamiza_engines_restricts_the_catalog_of_a_running_server():
    env = {**os.environ, "KAMIZA_ENGINES": "games.engines.yokai"}
    code = "from games.kernel import registry; print(sorted(e.slug for e in registry.all_engines(True)))"
    result = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "['yokai']"
