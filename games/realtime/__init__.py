"""Live updates over WebSockets: one consumer per match socket, fed by the store (never by the
channel layer's payloads), authorised against the current session on every message."""
