// A WebSocket that reconnects with capped exponential backoff (+ jitter).
// Handlers: onOpen(isReconnect), onMessage(obj), onClose(event, willRetry).

const FATAL_CLOSE_CODES = new Set([4401, 4403, 4404]);

export class ReconnectingSocket {
  constructor(url, { onOpen, onMessage, onClose, minDelay = 500, maxDelay = 15000 } = {}) {
    this.url = url;
    this.onOpen = onOpen || (() => {});
    this.onMessage = onMessage || (() => {});
    this.onClose = onClose || (() => {});
    this.minDelay = minDelay;
    this.maxDelay = maxDelay;
    this.attempt = 0;
    this.opened = false;
    this.stopped = false;
    this.ws = null;
    this.timer = null;
  }

  connect() {
    if (this.stopped) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      const isReconnect = this.opened;
      this.opened = true;
      this.onOpen(isReconnect);
    });
    ws.addEventListener("message", (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws) return;
      const willRetry = !this.stopped && !FATAL_CLOSE_CODES.has(e.code);
      this.onClose(e, willRetry);
      if (willRetry) this.scheduleReconnect();
    });
  }

  /** Called once the server greeted us: the connection is healthy, reset the backoff. */
  healthy() {
    this.attempt = 0;
  }

  scheduleReconnect() {
    clearTimeout(this.timer);
    const base = Math.min(this.maxDelay, this.minDelay * 2 ** this.attempt);
    const delay = base / 2 + Math.random() * (base / 2);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  get isOpen() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
