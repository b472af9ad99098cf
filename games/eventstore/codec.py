"""Reading events back: row -> event dict, with upcasters bringing old schema versions up to date.

Upcasters are keyed by ``(event_type, from_version)`` and return the payload at ``from_version + 1``;
they chain until no upcaster applies. Platform upcasters live here; each engine declares its own in
``ENGINE.upcasters``.
"""

import json

import orjson

PLATFORM_UPCASTERS: dict = {}


def json_decode(text: str | bytes):
    """A stored JSON column's value: orjson, or the standard library for what orjson refuses
    (NaN and integers past 64 bits, which Django's json.dumps may have written)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def needs_upcast(engine_upcasters: dict | None = None) -> bool:
    """Whether any upcaster could apply (none registered: every event reads as stored)."""
    return bool(PLATFORM_UPCASTERS or engine_upcasters)


def upcast(type_: str, version: int, payload: dict, engine_upcasters: dict | None = None) -> tuple[int, dict]:
    if not needs_upcast(engine_upcasters):
        return version, payload
    tables = (PLATFORM_UPCASTERS, engine_upcasters or {})
    while True:
        step = next((t[(type_, version)] for t in tables if (type_, version) in t), None)
        if step is None:
            return version, payload
        payload = step(payload)
        version += 1


def row_to_event(row, engine_upcasters: dict | None = None) -> dict:
    version, payload = upcast(row.type, row.version, row.payload, engine_upcasters)
    return {
        "seq": row.seq,
        "type": row.type,
        "v": version,
        "payload": payload,
        "actor": row.actor,
        "command_id": str(row.command_id) if row.command_id else None,
        "at": row.at.isoformat(),
    }
