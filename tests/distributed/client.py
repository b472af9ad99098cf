"""A small API + socket client for the distributed suite, speaking the public contract only."""

import asyncio
import json
import time
import uuid

import requests
import websockets


class Player:
    def __init__(self, stack, server: int, username: str):
        self.stack, self.server, self.username = stack, server, username
        r = requests.post(stack.url(server, "/api/auth/register/"), json={"username": username, "password": "kamiza-dist-pass-1"}, timeout=10)
        assert r.status_code == 201, r.text
        self.token = r.json()["token"]
        self.headers = {"Authorization": f"Token {self.token}"}

    def call(self, method, path, server=None, **kw):
        server = self.server if server is None else server
        r = requests.request(method, self.stack.url(server, path), headers=self.headers, timeout=20, **kw)
        assert r.status_code < 500, r.text
        return r

    def view(self, match_id, server=None) -> dict:
        return self.call("GET", f"/api/matches/{match_id}/view/", server).json()

    def submit(self, match_id, command, expected_seq, server=None):
        body = {"command_id": str(uuid.uuid4()), "expected_seq": expected_seq, **command}
        return self.call("POST", f"/api/matches/{match_id}/commands/", server, json=body)


def wait_until(predicate, timeout=60.0, interval=0.2, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}")


class SocketRecorder:
    """Connects in a background asyncio task and records every message received."""

    def __init__(self, url: str):
        self.url = url
        self.messages: list[dict] = []
        self.raw: list[str] = []

    async def run(self, stop: asyncio.Event):
        origin = self.url.replace("ws://", "http://").split("/ws/")[0]  # browsers always send one
        async with websockets.connect(self.url, open_timeout=20, origin=origin) as ws:
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=0.2)
                except asyncio.TimeoutError:
                    continue
                self.raw.append(text)
                self.messages.append(json.loads(text))

    def seqs(self) -> list[int]:
        return [ev["seq"] for m in self.messages if m.get("type") == "events" for ev in m["events"]]

    def last_seq(self) -> int:
        seqs = [m.get("seq", 0) for m in self.messages if "seq" in m]
        return max(seqs) if seqs else 0
