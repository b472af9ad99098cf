"""The layers drawing is a function of .importlinter: parsing and rendering, on small configs."""

import pytest

from games.management import layers

CONFIG = """
[importlinter]
root_packages = app

[importlinter:contract:other]
name = not a layers contract
type = forbidden
source_modules = app.a
forbidden_modules = app.b

[importlinter:contract:stack]
name = A stack
type = layers
containers =
    app.pkg
layers =
    top
    left | right
    (optional)
    one : two
"""


def test_only_layers_contracts_are_drawn_with_their_layers_in_order():
    [contract] = layers.layers_contracts(CONFIG)
    assert contract.id == "stack" and contract.name == "A stack" and contract.containers == ("app.pkg",)
    assert contract.layers == (
        layers.Layer(("top",), True),
        layers.Layer(("left", "right"), True),
        layers.Layer(("optional",), True),
        layers.Layer(("one", "two"), False),
    )


def test_the_mermaid_drawing_links_each_layer_to_the_one_below():
    drawn = layers.drawing(CONFIG)
    assert drawn.startswith("**`stack`**: A stack (inside `app.pkg`)")
    assert 'subgraph layer1["independent of each other"]' in drawn
    assert 'subgraph layer3["may import each other"]' in drawn
    assert "m_top --> layer1\n  layer1 --> m_optional\n  m_optional --> layer3" in drawn


def test_the_text_drawing_keeps_the_sibling_delimiters():
    assert layers.drawing(CONFIG, "text").splitlines()[1:] == [
        "  top", "    v", "  left | right", "    v", "  optional", "    v", "  one : two"]


def test_embedding_replaces_only_what_is_between_the_markers():
    doc = f"intro\n{layers.BEGIN}\nold\n{layers.END}\noutro\n"
    new = layers.embed(doc, "new drawing")
    assert new == f"intro\n{layers.BEGIN}\nnew drawing\n{layers.END}\noutro\n"
    assert layers.embedded(new) == "new drawing"
    with pytest.raises(ValueError):
        layers.embed("no markers", "x")
