"""The step registry is complete: every task kind the engine's source pushes has a handler. The
handlers register themselves in ``stack.HANDLERS`` from the modules above the step machinery, which
the engine facade imports (docs/games/yashima.md, "Module layers"); a module left out of that import
would only fail when its step first runs."""

import ast
from pathlib import Path

from games.engines.yashima import stack


def _pushed_kinds():
    """Every literal task kind ``{"k": "...", ...}`` in the package (effect items use upper-case keywords)."""
    kinds = set()
    for path in Path(stack.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if isinstance(key, ast.Constant) and key.value == "k" and isinstance(value, ast.Constant) \
                            and isinstance(value.value, str) and value.value.islower():
                        kinds.add(value.value)
    return kinds


def test_every_pushed_task_kind_has_a_registered_handler():
    kinds = _pushed_kinds()
    assert len(kinds) > 20  # the walk found the tasks (this would catch a broken parse)
    assert kinds <= set(stack.HANDLERS), sorted(kinds - set(stack.HANDLERS))
