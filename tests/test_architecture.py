"""The layering rules of docs/architecture.md, enforced by import-linter (.importlinter), and the
document's drawing of them, generated from the same contracts."""

import subprocess
import sys
from pathlib import Path

from games.management import layers

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint), "--config", str(ROOT / ".importlinter")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_architecture_document_embeds_the_drawing_the_contracts_give():
    # docs/architecture.md's layer drawing is generated: after changing .importlinter, run
    # `python manage.py layers --write`.
    generated = layers.drawing((ROOT / ".importlinter").read_text(encoding="utf-8"))
    assert "platform-layers" in generated and "yokai-layers" in generated
    assert layers.embedded((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")) == generated


def test_no_document_refers_to_the_shared_folder_outside_the_repository():
    texts = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    outside = ("../shared", "/work/shared")
    assert [str(p) for p in texts if any(s in p.read_text(encoding="utf-8") for s in outside)] == []


def test_every_engine_package_is_a_one_way_stack_under_a_layers_contract():
    # docs/engines.md, "Adding a game": a new engine comes with its `<slug>-layers` contract.
    engines = sorted(p.parent.name for p in (ROOT / "games" / "engines").glob("*/__init__.py"))
    contracts = layers.layers_contracts((ROOT / ".importlinter").read_text(encoding="utf-8"))
    stacked = {c.containers[0].rsplit(".", 1)[-1] for c in contracts if len(c.containers) == 1
               and c.containers[0].startswith("games.engines.")}
    assert engines and [e for e in engines if e not in stacked] == []
