// REST calls (session + CSRF) and the table socket with reconnect and backoff.

export function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

/** Call the JSON API; resolves to the body, rejects with {code, detail, status}. */
export async function api(method, url, body) {
  const opts = {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
  };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, opts);
  } catch {
    throw { code: "network", detail: "network error", status: 0 };
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    throw {
      code: (data && data.code) || `http_${res.status}`,
      detail: (data && (data.detail || data.message)) || res.statusText,
      status: res.status,
    };
  }
  return data;
}

// While a hand is on, this long without a message means a notification may have been lost
// (a server can die between saving an action and announcing it): ask for a snapshot.
const QUIET_SYNC_MS = 10000;

/**
 * A socket that reconnects with exponential backoff (0.5 s doubling to 10 s). The server sends
 * a full snapshot on every connect, which is the resync. Close codes 4401/4403/4404 are final.
 * `expectsMessages()` says whether silence is suspicious now (a hand is being played).
 */
export class TableSocket {
  constructor(path, { onMessage, onStatus, expectsMessages = () => false }) {
    this.path = path;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.delay = 500;
    this.timer = null;
    this.stopped = false;
    this.lastMessageAt = Date.now();
    setInterval(() => {
      if (this.open && expectsMessages() && Date.now() - this.lastMessageAt > QUIET_SYNC_MS) {
        this.lastMessageAt = Date.now();
        this.send({ t: "sync" });
      }
    }, 2500);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${this.path}`;
  }

  connect() {
    if (this.stopped) return;
    this.onStatus(this.everOpened ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.everOpened = true;
      this.delay = 500;
      this.onStatus("connected");
    };
    ws.onmessage = (ev) => {
      this.lastMessageAt = Date.now();
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if ([4401, 4403, 4404].includes(ev.code)) {
        this.stopped = true;
        this.onStatus("offline", ev.code);
        return;
      }
      this.onStatus("reconnecting");
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 10000);
    };
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(obj) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }
}
