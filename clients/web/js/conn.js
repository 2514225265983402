// The taku/1 protocol over WebSocket, for the browser (see server/taku/protocol.py).
//
// Requests carry an id and resolve with the reply of the same id (`re`), or
// reject with a TakuError holding the server's stable code. Events of a
// subscription go to the `onEvent` listeners in seq order. When the connection
// drops, the connection is made again, every table is joined again with the
// member's own token, and each subscription resumes after the last seq it
// delivered, so a listener never sees a seq twice or misses one.

export class TakuError extends Error {
  constructor(code, message, details = {}) {
    super(`${code}: ${message}`);
    this.code = code;
    this.serverMessage = message;
    this.details = details;
  }
}

export function newCommandId() {
  const rnd = crypto.getRandomValues(new Uint8Array(12));
  return "w-" + Array.from(rnd, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function wsUrlFor(loc = window.location) {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}/ws`;
}

export class Conn {
  constructor(url = wsUrlFor()) {
    this.url = url;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, msg, retry}
    this.tokens = new Map(); // table id -> own member token
    this.feeds = new Map(); // table id -> last seq delivered
    this.eventListeners = new Set();
    this.statusListeners = new Set();
    this.status = "closed";
    this.closedByUser = false;
    this.attempt = 0;
    this.readyWaiters = [];
  }

  onEvent(cb) { this.eventListeners.add(cb); return () => this.eventListeners.delete(cb); }
  onStatus(cb) { this.statusListeners.add(cb); cb(this.status); return () => this.statusListeners.delete(cb); }

  setStatus(s) {
    this.status = s;
    for (const cb of this.statusListeners) cb(s);
    if (s === "open") {
      const waiters = this.readyWaiters.splice(0);
      waiters.forEach((w) => w());
    }
  }

  open() {
    return new Promise((resolve, reject) => {
      // the protocol's version as a WebSocket subprotocol (the server accepts taku.v1)
      const ws = new WebSocket(this.url, ["taku.v1"]);
      this.ws = ws;
      this.setStatus("connecting");
      let opened = false;
      ws.onopen = async () => {
        opened = true;
        try {
          await this.raw({ type: "hello", client: "taku-web" });
          await this.resume();
          this.attempt = 0;
          this.setStatus("open");
          resolve();
        } catch (e) {
          reject(e);
        }
      };
      ws.onmessage = (ev) => this.receive(ev.data);
      ws.onclose = () => {
        if (this.ws !== ws) return;
        this.failPending();
        if (!opened) reject(new TakuError("client/connection", "サーバーに接続できません"));
        if (this.closedByUser) { this.setStatus("closed"); return; }
        this.setStatus("reconnecting");
        const delays = [100, 300, 800, 1500, 3000];
        const delay = delays[Math.min(this.attempt++, delays.length - 1)];
        setTimeout(() => this.open().catch(() => {}), delay);
      };
    });
  }

  close() {
    this.closedByUser = true;
    if (this.ws) this.ws.close();
  }

  async resume() {
    for (const [tableId, token] of this.tokens) {
      await this.raw({ type: "join", table_id: tableId, token });
    }
    for (const [tableId, lastSeq] of this.feeds) {
      await this.raw({ type: "subscribe", table_id: tableId, after_seq: lastSeq });
    }
  }

  receive(text) {
    const msg = JSON.parse(text);
    if (msg.type === "event" && msg.re === undefined) {
      const last = this.feeds.get(msg.table_id);
      if (last === undefined || msg.seq <= last) return; // not subscribed, or seen before a reconnect
      this.feeds.set(msg.table_id, msg.seq);
      for (const cb of this.eventListeners) {
        try { cb(msg); } catch (e) { console.error(e); }
      }
      return;
    }
    const p = this.pending.get(msg.re);
    if (!p) return;
    this.pending.delete(msg.re);
    if (msg.type === "error") p.reject(new TakuError(msg.code, msg.message, msg.details || {}));
    else p.resolve(msg);
  }

  failPending() {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) {
      if (p.retry) this.whenOpen().then(() => this.sendPending(p));
      else p.reject(new TakuError("client/connection_lost", "接続が切れました"));
    }
  }

  whenOpen() {
    if (this.status === "open") return Promise.resolve();
    return new Promise((r) => this.readyWaiters.push(r));
  }

  sendPending(p) {
    const id = this.nextId++;
    this.pending.set(id, p);
    this.ws.send(JSON.stringify({ ...p.msg, id }));
  }

  // Send now, even while resuming (used by the resume itself).
  raw(msg) {
    return new Promise((resolve, reject) => this.sendPending({ msg, resolve, reject, retry: false }));
  }

  // Send when connected; `retry` sends it again after a reconnect (idempotent requests only).
  async request(msg, { retry = true } = {}) {
    await this.whenOpen();
    return new Promise((resolve, reject) => this.sendPending({ msg, resolve, reject, retry }));
  }

  // the installed rulesets; the core commands' JSON Schema is kept as `coreSchema`
  listRulesets() {
    return this.request({ type: "list_rulesets" }).then((m) => { this.coreSchema = m.core_command_schema || {}; return m.rulesets; });
  }

  // `history`: who may undo and fork ({player_undo, fork_by_members}, both off by default)
  async createTable(ruleset, name, gmName, options = {}, history = {}) {
    const c = await this.request({ type: "create_table", ruleset, name, gm_name: gmName, options, history }, { retry: false });
    this.tokens.set(c.table_id, c.gm_token);
    return c;
  }

  async join(tableId, token, name = "") {
    const j = await this.request({ type: "join", table_id: tableId, token, name }, { retry: false });
    this.tokens.set(tableId, j.member_token || token);
    return j;
  }

  async subscribe(tableId, afterSeq = 0) {
    this.feeds.set(tableId, afterSeq);
    return this.request({ type: "subscribe", table_id: tableId, after_seq: afterSeq });
  }

  command(tableId, command, expectedSeq = null) {
    const msg = { type: "command", table_id: tableId, command_id: newCommandId(), command };
    if (expectedSeq !== null) msg.expected_seq = expectedSeq;
    return this.request(msg);
  }

  // `channel` ("" for メイン) and `to` (member ids: a whisper) as the chat command takes them
  chat(tableId, text, characterId = null, { channel = "", to = [] } = {}) {
    const msg = { type: "chat", table_id: tableId, text, command_id: newCommandId() };
    if (characterId) msg.character_id = characterId;
    if (channel) msg.channel = channel;
    if (to.length) msg.to = to;
    return this.request(msg);
  }

  getState(tableId, atSeq = null) {
    const msg = { type: "get_state", table_id: tableId };
    if (atSeq !== null) msg.at_seq = atSeq;
    return this.request(msg);
  }

  async fullLog(tableId) {
    const out = [];
    for (;;) {
      const after = out.length ? out[out.length - 1].seq : 0;
      const page = await this.request({ type: "get_log", table_id: tableId, after_seq: after, limit: 500 });
      if (!page.events.length) return out;
      out.push(...page.events);
    }
  }
}
