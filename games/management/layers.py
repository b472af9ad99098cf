"""Drawings of the ``layers`` contracts in ``.importlinter``, for docs/architecture.md.

Pure functions of the config text: ``layers_contracts`` parses every contract whose type is
``layers``; ``mermaid`` and ``text`` draw one; ``embed`` puts the drawings between the markers of
a document. ``manage.py layers`` prints them, ``--write`` updates the document, and a test fails
when the document's copy differs from what the contracts give, so the drawing cannot go stale.
"""

import configparser
import re
from dataclasses import dataclass

BEGIN = "<!-- layers:begin (generated from .importlinter by `python manage.py layers --write`; do not edit) -->"
END = "<!-- layers:end -->"
_SECTION = "importlinter:contract:"


@dataclass(frozen=True)
class Layer:
    modules: tuple[str, ...]
    independent: bool  # siblings joined by "|" (may not import each other) rather than ":"


@dataclass(frozen=True)
class LayersContract:
    id: str
    name: str
    containers: tuple[str, ...]
    layers: tuple[Layer, ...]  # highest first, as in the config


def _lines(value: str) -> list[str]:
    return [line.strip() for line in value.splitlines() if line.strip() and not line.strip().startswith("#")]


def _layer(line: str) -> Layer:
    independent = ":" not in line
    parts = re.split(r"[|:]", line)
    return Layer(tuple(p.strip().strip("()").strip() for p in parts if p.strip()), independent)


def layers_contracts(config_text: str) -> list[LayersContract]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(config_text)
    out = []
    for section in parser.sections():
        if not section.startswith(_SECTION) or parser[section].get("type", "").strip() != "layers":
            continue
        body = parser[section]
        out.append(LayersContract(
            id=section[len(_SECTION):],
            name=body.get("name", "").strip(),
            containers=tuple(_lines(body.get("containers", ""))),
            layers=tuple(_layer(line) for line in _lines(body.get("layers", ""))),
        ))
    return out


def _node_id(prefix: str, name: str) -> str:
    return prefix + re.sub(r"\W", "_", name)


def mermaid(contract: LayersContract) -> str:
    """A top-down flowchart: one box per layer (side-by-side modules for siblings); an arrow means
    "may import"; a layer may also import every layer further down."""
    lines = ["```mermaid", "flowchart TB"]
    ids = []
    for i, layer in enumerate(contract.layers):
        if len(layer.modules) == 1:
            lid = _node_id("m_", layer.modules[0])
            lines.append(f'  {lid}["{layer.modules[0]}"]')
        else:
            lid = f"layer{i}"
            title = "independent of each other" if layer.independent else "may import each other"
            lines.append(f'  subgraph {lid}["{title}"]')
            lines.append("    direction LR")
            lines += [f'    {_node_id("m_", m)}["{m}"]' for m in layer.modules]
            lines.append("  end")
        ids.append(lid)
    lines += [f"  {upper} --> {lower}" for upper, lower in zip(ids, ids[1:])]
    lines.append("```")
    return "\n".join(lines)


def text(contract: LayersContract) -> str:
    """The same stack as plain text, highest layer first."""
    joiner = {True: " | ", False: " : "}
    rows = [joiner[layer.independent].join(layer.modules) for layer in contract.layers]
    return "\n    v\n".join(f"  {row}" for row in rows)


def _where(contract: LayersContract) -> str:
    return f" (inside `{'`, `'.join(contract.containers)}`)" if contract.containers else ""


def drawing(config_text: str, fmt: str = "mermaid") -> str:
    """Every layers contract, titled by its id and name, in ``fmt`` (mermaid or text)."""
    parts = []
    for contract in layers_contracts(config_text):
        if fmt == "text":
            parts.append(f"{contract.id}: {contract.name}{_where(contract)}\n{text(contract)}")
        else:
            parts.append(f"**`{contract.id}`**: {contract.name}{_where(contract)}\n\n{mermaid(contract)}")
    return "\n\n".join(parts)


def embedded(document: str) -> str | None:
    """What ``document`` holds between the markers (None without them)."""
    if BEGIN not in document or END not in document:
        return None
    return document.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n")


def embed(document: str, generated: str) -> str:
    """``document`` with ``generated`` between its markers."""
    if embedded(document) is None:
        raise ValueError("the document has no layers markers")
    head, rest = document.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    return f"{head}{BEGIN}\n{generated}\n{END}{tail}"
