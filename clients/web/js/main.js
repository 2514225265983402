// The taku browser client: create or join a table, play live, replay, export.
// Plain ES modules, no build step. State comes from the server's view of the
// table (get_state), so any ruleset gets a working panel; rulesets with their
// own panel (panels.js) get theirs on top.

import { Conn, TakuError } from "./conn.js";
import { commandDefs, commandForm, structFields } from "./forms.js";
import { sheetForm, toCcfolia } from "./sheet.js";
import { rulesetPanel, characterExtras, numericPaths, hasPanel, CARD, LABELS } from "./panels.js";
import { planMoves, moveForm, confirmed } from "./moves.js";
import { h, clear, eventItem, valueTree, errorNodes, TIME_ZONE } from "./render.js";
import { chatUi } from "./chat.js";
import { overrideField, scalarKind } from "./override.js";
import { mapPanel, mapOffers } from "./map.js";
import { olderHistory, recentStart } from "./history.js";
import { undoUi } from "./undo.js";
import { timerPanel, timerActions } from "./timers.js";

const $ = (sel) => document.querySelector(sel);
const ROLE = { gm: "GM", player: "PL", spectator: "観戦" };

const app = {
  conn: new Conn(),
  rulesets: [],
  tableId: null,
  me: null, // {member_id, role}
  state: null,
  affordances: [], // the state message's: what I may do now
  turn: null, // the state message's: whose turn it is (null for games without turns)
  events: [], // event messages, in seq order
  replay: null, // {seq, token}
  refreshing: false,
  dirty: false,
};
window.taku = app; // for debugging from the console
// channel tabs, whispers, the チャットパレット, the log download (chat.js); toast is hoisted
const chat = chatUi({ conn: app.conn, app, toast, errorNodes });
// 取り消し / やり直し, undone lines struck through, 「ここから分岐」 (undo.js)
const undo = undoUi({ conn: app.conn, app, toast, errorNodes, store });

// ------------------------------------------------------------------ storage

function stored(tableId) {
  try { return JSON.parse(localStorage.getItem(`taku:${tableId}`) || "null"); } catch { return null; }
}
function store(tableId, data) {
  localStorage.setItem(`taku:${tableId}`, JSON.stringify({ ...(stored(tableId) || {}), ...data }));
}

function parseHash() {
  const q = new URLSearchParams(location.hash.replace(/^#/, ""));
  return { table: q.get("table"), token: q.get("token") };
}

export function inviteLink(tableId, token) {
  const base = `${location.origin}${location.pathname}`;
  return `${base}#table=${encodeURIComponent(tableId)}${token ? `&token=${encodeURIComponent(token)}` : ""}`;
}

// `text` is a string, or (for an error) what errorNodes gives
function toast(text, kind = "error") {
  const t = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  $("#toasts").append(t);
  setTimeout(() => t.remove(), 6000);
}

function errText(e) {
  return e instanceof TakuError ? `${e.serverMessage} (${e.code})` : String(e.message || e);
}

function show(viewId) {
  for (const v of document.querySelectorAll(".view")) v.hidden = v.id !== viewId;
  $("#skip").textContent = viewId === "table" ? "チャット入力へ移動" : "本文へ移動";
}

// The skip link moves the focus itself: following its href would change the hash,
// and the router would leave the table for the home page.
function skipTarget() {
  if ($("#table").hidden) return document.querySelector(".view:not([hidden]) h1, .view:not([hidden]) input");
  if (app.replay) return $("#replay-slider");
  return $("#chat-input").disabled ? $("#log") : $("#chat-input");
}
$("#skip").addEventListener("click", (e) => {
  e.preventDefault();
  const target = skipTarget();
  if (!target) return;
  if (target.tabIndex < 0) target.tabIndex = -1; // a heading takes the focus without joining the tab order
  target.focus();
});

// ------------------------------------------------------------------ home

async function home() {
  show("home");
  document.title = "taku 卓";
  const sel = $("#ruleset");
  if (!app.rulesets.length) app.rulesets = await app.conn.listRulesets();
  const prev = sel.value;
  clear(sel, app.rulesets.map((r) => h("option", { value: r.id, text: r.name })));
  sel.value = prev || (app.rulesets.some((r) => r.id === "generic") ? "generic" : sel.value);
  const summary = () => {
    const info = app.rulesets.find((r) => r.id === sel.value) || {};
    $("#ruleset-summary").textContent = info.summary || "";
    renderTableOptions(info);
  };
  renderTableSettings(app.conn.tableSettingsSchema || {});
  sel.onchange = summary;
  summary();
  const recent = Object.keys(localStorage).filter((k) => k.startsWith("taku:") && !k.endsWith(":previous")).map((k) => [k.slice(5), stored(k.slice(5))]);
  clear($("#recent"), recent.map(([tid, d]) =>
    h("li", {}, h("a", { href: `#table=${tid}`, text: `${d && d.name ? d.name : tid} (${d && d.ruleset ? d.ruleset : "?"})` }))));
}

// the ruleset's table options (house rules), every one labelled from its options_schema
function renderTableOptions(info) {
  const box = $("#table-options");
  const schema = info.options_schema || {};
  const root = schema.$ref ? schema : null;
  app.optionFields = null;
  if (!root) { box.hidden = true; clear(box); return; }
  app.optionFields = structFields(schema, schema, {});
  box.hidden = false;
  clear(box, h("summary", { text: "卓のオプション（ハウスルール）" }), app.optionFields.el);
}

// the core's table settings (spectators' chat, who may undo and fork), from list_rulesets'
// table_settings_schema: one folded group, whatever the ruleset
function renderTableSettings(schemas) {
  const box = $("#table-settings");
  app.settingFields = {};
  const parts = [];
  for (const key of ["settings", "history"]) {
    const schema = schemas[key];
    if (!schema || !schema.$ref) continue;
    const f = structFields(schema, schema, {});
    app.settingFields[key] = f;
    const def = schema.$defs[schema.$ref.split("/").pop()] || {};
    parts.push(h("fieldset", { "data-settings": key }, h("legend", { text: def.title || key }), f.el));
  }
  box.hidden = !parts.length;
  clear(box, h("summary", { text: "卓の設定（観戦者の発言・取り消し・分岐）" }), parts);
}

$("#create-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const ruleset = $("#ruleset").value;
  const errors = [];
  const options = app.optionFields ? app.optionFields.read(errors) : {};
  const extra = Object.fromEntries(Object.entries(app.settingFields || {}).map(([k, f]) => [k, f.read(errors)]));
  if (errors.length) { toast(errors.join(" / ")); return; }
  try {
    const c = await app.conn.createTable(ruleset, $("#table-name").value.trim(), $("#gm-name").value.trim() || "GM", options, extra);
    store(c.table_id, {
      token: c.gm_token, player_token: c.player_token, spectator_token: c.spectator_token,
      name: $("#table-name").value.trim(), ruleset, fresh: true,
    });
    location.hash = `table=${c.table_id}`;
  } catch (x) { toast(errorNodes(x)); }
});

$("#link-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const v = $("#link-input").value.trim();
  const i = v.indexOf("#");
  if (i < 0) { toast("招待リンクではありません"); return; }
  location.hash = v.slice(i + 1);
});

// ------------------------------------------------------------------ joining

async function openTable(tableId, token) {
  for (const other of [...app.conn.feeds.keys()]) {
    if (other === tableId) continue;
    app.conn.feeds.delete(other); // stop following the table we leave
    app.conn.request({ type: "unsubscribe", table_id: other }).catch(() => {});
  }
  app.tableId = tableId;
  app.events = [];
  app.state = null;
  app.replay = null;
  const mine = stored(tableId);
  let useToken = null;
  if (mine && (!token || token === mine.invite || token === mine.token)) useToken = mine.token;
  if (!useToken && !token) {
    show("home");
    toast("この卓の招待リンクが必要です");
    return;
  }
  if (!useToken) {
    // an invite: ask for a name first
    show("join");
    $("#join-table").textContent = tableId;
    $("#join-role").textContent = "プレイヤー招待ならキャラクターを作ってチャット・ダイス・行動ができます。観戦招待なら見るだけです（発言も行動もできません）。";
    // this browser is already a member of the table: offer to stay that member
    $("#join-keep").hidden = !mine;
    $("#join-keep").onclick = () => { location.hash = `table=${tableId}`; };
    $("#join-name").focus();
    $("#join-form").onsubmit = async (e) => {
      e.preventDefault();
      try {
        const j = await app.conn.join(tableId, token, $("#join-name").value.trim());
        if (mine && mine.token) store(`${tableId}:previous`, mine); // a GM testing an invite keeps its GM token
        store(tableId, { token: j.member_token || token, invite: token });
        await enterTable(tableId, j);
      } catch (x) { toast(errorNodes(x)); }
    };
    return;
  }
  try {
    const j = await app.conn.join(tableId, useToken);
    await enterTable(tableId, j);
  } catch (x) {
    toast(errorNodes(x));
    show("home");
  }
}

async function enterTable(tableId, joined) {
  const entry = (app.entries = (app.entries || 0) + 1); // entered again meanwhile: the later one shows
  app.me = { member_id: joined.member_id, role: joined.role };
  show("table");
  $("#live-side").hidden = true; // shown with the first state: panels appear, nothing below them moves
  clear($("#log"));
  logFollows = true; // a table entered shows its newest line
  app.conn.feeds.delete(tableId);
  app.actionsKey = null;
  clear($("#state-panels"));
  const first = recentStart(joined.seq); // a long table: its last events first, older on demand
  await app.conn.subscribe(tableId, first);
  if (entry !== app.entries) return;
  // an older line is made as a live one is: its channel (and tab), whisper, speaker, undo
  olderHistory(app.conn, tableId, $("#log"), first + 1, (m) => undo.decorate(chat.decorate(eventItem(m), m), m));
  await refreshState();
  renderInvites();
  $("#chat-input").focus();
  const mine = stored(tableId) || {};
  if (mine.fresh && app.me.role === "gm") {
    store(tableId, { fresh: false });
    showInviteDialog();
  }
}

// Right after a table is made: the invites with copy buttons, and what each role can do.
function showInviteDialog() {
  const dlg = $("#invite-dialog");
  clear($("#invite-dialog-body"), inviteRows("dlg-"));
  if (typeof dlg.showModal === "function") dlg.showModal(); else dlg.setAttribute("open", "");
  const first = dlg.querySelector("button.copy");
  if (first) first.focus();
}
$("#invite-close").addEventListener("click", () => $("#invite-dialog").close());
$("#invites-open").addEventListener("click", () => showInviteDialog());

// The live log follows its newest line while the reader is at its bottom (within 80 px);
// one who scrolled up to read stays where they are. Whether they are is what their last
// scroll said, not where the log is now: lines grow after they are appended (the GM's
// 「取り消す」 appear once the state says who is GM, the side panel's first state narrows
// the log), and a log that grew under a reader at its bottom still follows.
let logFollows = true;
let logHeight = 0; // the log's height when it was last followed (or not)
$("#log").addEventListener("scroll", () => {
  const log = $("#log");
  // hidden (the replay is open), or resized since: the reader did not scroll, the layout did
  if (!log.clientHeight || log.clientHeight !== logHeight) return;
  logFollows = log.scrollHeight - log.scrollTop - log.clientHeight < 80;
});
function followLog() {
  const log = $("#log");
  logHeight = log.clientHeight;
  if (logFollows) log.scrollTop = log.scrollHeight;
}
// a log made shorter (the whisper picker opened, a phone's keyboard, a smaller window)
new ResizeObserver(() => followLog()).observe($("#log"));

app.conn.onEvent((msg) => {
  if (msg.table_id !== app.tableId) return;
  app.events.push(msg);
  $("#log").append(undo.decorate(chat.decorate(eventItem(msg), msg), msg));
  followLog();
  scheduleRefresh();
});

app.conn.onStatus((s) => {
  const el = $("#conn-status");
  el.textContent = { open: "接続中", connecting: "接続しています…", reconnecting: "再接続しています…", closed: "切断" }[s] || s;
  el.className = `status ${s}`;
});

function scheduleRefresh() {
  if (app.refreshing) { app.dirty = true; return; }
  refreshState();
}

async function refreshState() {
  app.refreshing = true;
  try {
    do {
      app.dirty = false;
      const m = await app.conn.getState(app.tableId);
      app.state = m.state;
      app.affordances = m.affordances || [];
      app.turn = m.turn || null;
      app.me = m.state.you;
      renderLive();
    } while (app.dirty);
  } catch (x) {
    toast(errorNodes(x));
  } finally {
    app.refreshing = false;
  }
}

// ------------------------------------------------------------------ live view

// The Japanese titles of the ruleset's state keys (its state_schema's properties, the first
// title a key has), for the state tree: "dkk_this_turn" is shown as the ruleset names it.
const titleCache = new WeakMap();
function stateTitles(info) {
  const schema = info && info.state_schema;
  if (!schema || typeof schema !== "object") return {};
  if (titleCache.has(schema)) return titleCache.get(schema);
  const names = {};
  const walk = (n) => {
    if (Array.isArray(n)) { n.forEach(walk); return; }
    if (!n || typeof n !== "object") return;
    for (const [k, v] of Object.entries(n.properties && typeof n.properties === "object" ? n.properties : {})) {
      if (v && typeof v.title === "string" && v.title && !(k in names)) names[k] = v.title;
    }
    Object.values(n).forEach(walk);
  };
  walk(schema);
  titleCache.set(schema, names);
  return names;
}

// The state tree's names: the cards' own (panels.js) over the state schema's titles.
function treeNames(ruleset, info) {
  const spec = CARD[ruleset] || {};
  const sections = Object.fromEntries(Object.entries(spec.sections || {}).filter(([k, v]) => typeof v === "string" && !k.includes(".")));
  return { ...stateTitles(info), ...LABELS, ...(spec.labels || {}), ...sections };
}

// The state tree shows what people can read: a key the view adds outside the state schema
// that nothing names (hiden's reference `tables`, nstrpg's `initiative_order`, chabu's
// `status`: their panels show them) is left out, as are the cards' internals (`hide`).
// Data keys (character ids, check ids …) stay.
function namedOnly(value, names, hide, depth = 0) {
  if (value === null || typeof value !== "object" || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => namedOnly(v, names, hide, depth + 1));
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    if (hide.has(k) || (/^[a-z][a-z_]*$/.test(k) && !names[k])) continue;
    out[k] = namedOnly(v, names, hide, depth + 1);
  }
  return out;
}

function rulesetInfo() {
  return app.rulesets.find((r) => r.id === (app.state && app.state.ruleset)) || null;
}

function memberName(id) {
  const m = app.state && app.state.members[id];
  return m ? m.name : id || "—";
}

function myCharacters(state) {
  return Object.values(state.characters).filter((c) => state.you.role === "gm" || c.owner === state.you.member_id);
}

function renderLive() {
  const s = app.state;
  document.title = `${s.name} — taku 卓`;
  store(s.table_id, { name: s.name, ruleset: s.ruleset });
  const me = s.members[s.you.member_id];
  $("#t-name").textContent = s.name || s.table_id;
  $("#t-ruleset").textContent = (rulesetInfo() || { name: s.ruleset }).name;
  $("#t-me").textContent = me ? `${me.name}（${ROLE[me.role] || me.role}）` : "観戦";
  $("#t-seq").textContent = `seq ${s.seq}`;
  $("#t-zone").textContent = TIME_ZONE ? `時刻: ${TIME_ZONE}` : "";
  // the table's fingerprint: the hash chain's head at this seq (taku verify --head SEQ:HEAD)
  $("#t-head").textContent = s.head ? `指紋 ${s.seq}:${s.head}` : "";
  document.body.dataset.seq = s.seq;
  document.body.dataset.role = s.you.role;
  const canAct = s.you.role !== "spectator";
  $("#chat-input").disabled = !canAct;
  $("#chat-send").disabled = !canAct;
  $("#chat-as").disabled = !canAct;
  $("#chat-input").placeholder = canAct ? "チャット / ダイス（例: 2D6>=7）" : "観戦中は発言できません";
  $("#spectator-note").hidden = canAct;
  $("#spectator-banner").hidden = canAct;
  $("#chat-hint").hidden = !canAct;
  // speak as
  const as = $("#chat-as");
  const prev = as.value;
  clear(as, h("option", { value: "", text: me ? me.name : "—" }),
    myCharacters(s).map((c) => h("option", { value: c.id, text: c.name })));
  as.value = [...as.options].some((o) => o.value === prev) ? prev : "";
  chat.render(s);
  speakAsNew(); // a character this player just made: its speaker (the ack came first)
  undo.render(s);
  renderState(s, $("#state-panels"), { live: true });
  $("#gm-tools").hidden = s.you.role !== "gm";
  if (s.you.role === "gm") renderGmTools(s);
  $("#actions").hidden = !canAct;
  if (canAct) renderActions(s);
  $("#live-side").hidden = false;
  followLog(); // its lines may have grown (the GM's 「取り消す」, a narrower log)
}

// The panels every view of a state shows (live and replay).
function renderState(s, root, { live }) {
  const ctx = panelCtx(s, live);
  const parts = [];
  // the map and the turn tracker (map.js): one element that redraws itself in place
  const board = mapPanel(s, ctx, { affordances: live ? app.affordances : [], turn: ctx.turn, info: rulesetInfo() });
  // the GM's map editor starts folded (play comes first; the GM opens it to edit)
  const editor = board && board.querySelector(".map-editor");
  if (editor && !editor.dataset.folded) { editor.open = false; editor.dataset.folded = "1"; }
  // the ruleset's moves now (the state message's affordances): buttons, first thing on the side (live only)
  const moves = live && s.you.role !== "spectator" ? planMoves(app.affordances.filter((a) => !(board && mapOffers(a))), rulesetInfo()) : { buttons: [], forms: [] };
  if (moves.buttons.length || moves.forms.length) {
    const button = (mv) => h("button", { type: "button", class: mv.primary ? "move primary" : "move", "data-command": mv.command.type,
      onclick: () => confirmed(mv) && sendCommand(mv.command).catch(() => {}), text: mv.label });
    const form = (f) => moveForm(f, (cmd) => sendCommand(cmd));
    // several characters' moves (a GM's): one foldable group per character, in order
    const groups = [...new Set([...moves.buttons.map((mv) => mv.group || ""), ...moves.forms.map((f) => f.a.group || "")])];
    const body = groups.length > 1
      ? groups.map((g) => h("details", { class: "move-group", open: true, "data-group": g },
        h("summary", { text: g || "卓" }),
        moves.buttons.filter((mv) => (mv.group || "") === g).map(button),
        moves.forms.filter((f) => (f.a.group || "") === g).map(form)))
      : [moves.buttons.map(button), moves.forms.map(form)];
    parts.push(h("section", { class: "panel legal-moves", role: "group", "aria-label": "今できる手" },
      h("h2", { text: "今できる手" }), body));
  }
  if (board) parts.push(board); // after the moves: its initiative tracker, the map, the GM's editor
  const timers = timerPanel(s, ctx, app.conn && app.conn.coreSchema); // armed timers, counting down (timers.js)
  if (timers) parts.push(timers);
  const special = rulesetPanel(s.ruleset, s, ctx);
  if (special) parts.push(h("section", { class: "panel ruleset-panel", "data-ruleset": s.ruleset },
    h("h2", { text: (rulesetInfo() || { name: s.ruleset }).name }), special));
  // a long panel folds: the characters (each card's sheet folds on its own too)
  parts.push(h("details", { class: "panel characters-panel fold", open: true },
    h("summary", { text: `キャラクター（${Object.keys(s.characters).length}）` }), characterCards(s, ctx)));
  parts.push(h("section", { class: "panel members-panel" }, h("h2", { text: "参加者" }),
    h("ul", { class: "members" }, Object.values(s.members).map((m) =>
      h("li", { class: m.present ? "" : "absent" }, h("span", { class: `role role-${m.role}`, text: ROLE[m.role] || m.role }), ` ${m.name}`)))));
  // keys by their titles, a character's id by its name ("c3" → ヤモト・コキ)
  const names = { ...treeNames(s.ruleset, rulesetInfo()), ...Object.fromEntries(Object.values(s.characters).map((c) => [c.id, c.name])) };
  parts.push(h("details", { class: "panel state-panel" }, h("summary", { text: "状態（ルールセットのビュー）" }),
    valueTree(namedOnly(s.game, names, new Set((CARD[s.ruleset] || {}).hide || [])), ["game"], names)));
  // the GM's values fill the override form: buttons for the keyboard too (Enter / Space)
  if (live && s.you.role === "gm") {
    for (const leaf of parts.flatMap((p) => [...p.querySelectorAll(".leaf[data-path]")])) {
      leaf.setAttribute("role", "button");
      leaf.tabIndex = 0;
      leaf.title = "この値をオーバーライドの欄に入れる";
    }
  }
  patchChildren(root, parts);
}

// Replace only the children that changed, so that a button being clicked, a focused
// field or an opened <details> survives a state refresh that did not touch it. Folds pass
// only between panels of one kind (tag, class, ruleset): when a panel appears or goes
// (the moves, a timer) the others shift, and none takes another's fold.
function panelKey(el) {
  return `${el.tagName}.${el.className}.${el.dataset.ruleset || ""}`;
}

function patchChildren(root, parts) {
  const old = [...root.children];
  parts.forEach((p, i) => {
    const o = old[i];
    if (o && o.isEqualNode(p)) return;
    if (o) {
      if (panelKey(o) === panelKey(p)) {
        const was = [...o.querySelectorAll("details")].map((d) => d.open);
        const now = [...p.querySelectorAll("details")];
        if (o.tagName === "DETAILS") p.open = o.open;
        if (was.length === now.length) now.forEach((d, j) => { d.open = was[j]; });
      }
      root.replaceChild(p, o);
    } else root.append(p);
  });
  old.slice(parts.length).forEach((o) => o.remove());
}

function panelCtx(s, live) {
  return {
    live,
    me: s.you,
    turn: live ? app.turn : null,
    info: rulesetInfo(), // the ruleset's schemas (titles of state keys on the cards)
    affordances: live ? app.affordances : [],
    name: (cid) => (s.characters[cid] || {}).name || memberName(cid),
    memberName,
    send: live ? (cmd) => sendCommand(cmd) : null,
  };
}

function characterCards(s, ctx) {
  const chars = Object.values(s.characters);
  if (!chars.length) return h("p", { class: "muted", text: "まだキャラクターがいません" });
  const mayEdit = (c) => ctx.live && (s.you.role === "gm" || c.owner === s.you.member_id);
  return h("div", { class: "cards" }, chars.map((c) =>
    h("article", { class: "card", "data-character": c.id },
      h("h3", {}, c.name, h("small", { text: ` ${c.owner ? memberName(c.owner) : "NPC"}` })),
      mayEdit(c) ? h("div", { class: "card-tools" },
        h("button", { type: "button", class: "small", "data-action": "edit", text: "編集", onclick: () => openSheetEditor(c.id) }),
        h("button", { type: "button", class: "small", "data-action": "ccfolia", text: "ココフォリア形式でコピー",
          onclick: () => copyCcfolia(c.id) }),
        h("button", { type: "button", class: "small danger", "data-action": "delete", text: "削除", onclick: () => deleteCharacter(c.id) }))
        : null,
      characterExtras(s, c.id, ctx),
      Object.keys(c.sheet || {}).length
        ? h("details", { class: "sheet", open: !hasPanel(s) }, h("summary", { text: "シート" }),
          valueTree(c.sheet, ["characters", c.id, "sheet"], stateTitles({ state_schema: (rulesetInfo() || {}).sheet_schema })))
        : null)));
}

// the character's live values in the game view (体力, 精神力 …): ココフォリアの status bars
function liveValues(s, cid) {
  const out = {};
  const walk = (node, depth) => {
    if (!node || typeof node !== "object" || depth > 3) return;
    for (const [k, v] of Object.entries(node)) {
      if (k === cid && v && typeof v === "object" && !Array.isArray(v)) {
        for (const [f, x] of Object.entries(v)) if (typeof x === "number" && typeof ((s.characters[cid] || {}).sheet || {})[f] === "number") out[f] = x;
      } else walk(v, depth + 1);
    }
  };
  walk(s.game, 0);
  return out;
}

async function copyCcfolia(cid) {
  const c = app.state.characters[cid];
  const entry = (app.state.chat && app.state.chat.palettes && app.state.chat.palettes[cid]) || {};
  const text = JSON.stringify(toCcfolia(c, rulesetInfo(), liveValues(app.state, cid), entry.palette || entry.default || ""));
  app.lastCcfolia = text;
  try { await navigator.clipboard.writeText(text); toast(`「${c.name}」をココフォリアの駒としてコピーしました（ココフォリアの盤面に貼り付け）`, "ok"); }
  catch { toast("クリップボードに書けませんでした（ブラウザの許可を確かめてください）"); }
}

async function deleteCharacter(cid) {
  const c = app.state.characters[cid];
  if (!window.confirm(`「${c.name}」を削除しますか？（ログには残ります）`)) return;
  try { await sendCommand({ type: "remove_character", character_id: cid }); toast(`「${c.name}」を削除しました`, "ok"); } catch { /* toasted */ }
}

function sheetCtx(done) {
  return {
    info: rulesetInfo(), me: app.state.you, members: () => Object.values(app.state.members),
    submit: async (cmd) => {
      const ack = await app.conn.command(app.tableId, cmd);
      if (cmd.type === "create_character") speakAsMade(ack);
      return ack;
    },
    toast, errorNodes, done,
    // a ココフォリア piece's チャットパレット, set on the character the command made or edited
    setPalette: async (ack, cid, palette) => {
      const made = cid || (app.events.find((m) => m.event && m.event.type === "character_created"
        && m.seq >= ack.first_seq && m.seq <= ack.last_seq) || { event: {} }).event.character_id;
      if (!made) return;
      const entry = (app.state.chat && app.state.chat.palettes && app.state.chat.palettes[made]) || {};
      await app.conn.command(app.tableId, { type: "set_chat_palette", character_id: made, palette, color: entry.color || "" });
    },
  };
}

// A player who made a character speaks as it from now on (its チャットパレット shows), and
// on a phone the page goes back from deep in the sheet form to the chat and the palette.
// The ack may come before the character's event: the state's next render finishes it.
function speakAsMade(ack) {
  app.speakAs = ack;
  speakAsNew();
}

function speakAsNew() {
  const ack = app.speakAs;
  if (!ack || !app.state) return;
  const made = (app.events.find((m) => m.event && m.event.type === "character_created"
    && m.seq >= ack.first_seq && m.seq <= ack.last_seq) || { event: {} }).event.character_id;
  const as = $("#chat-as");
  if (!made || ![...as.options].some((o) => o.value === made)) return;
  app.speakAs = null;
  if ((app.state.characters[made] || {}).owner !== app.state.you.member_id) return;
  as.value = made;
  chat.render(app.state);
  if (window.matchMedia("(max-width: 760px)").matches) $("#chat-form").scrollIntoView({ block: "center" });
}

function openSheetEditor(cid) {
  const c = app.state.characters[cid];
  const dlg = $("#sheet-dialog");
  $("#sheet-dialog-title").textContent = `${c.name}のシート`;
  const close = () => dlg.close();
  clear($("#sheet-dialog-body"), sheetForm(sheetCtx(close), c));
  if (typeof dlg.showModal === "function") dlg.showModal(); else dlg.setAttribute("open", "");
  const first = dlg.querySelector("input, select");
  if (first) first.focus();
}

async function sendCommand(cmd) {
  try {
    return await app.conn.command(app.tableId, cmd);
  } catch (x) {
    toast(errorNodes(x));
    throw x;
  }
}

function renderActions(s) {
  const info = rulesetInfo();
  // forms are rebuilt only when what they offer changes (not on every event: a
  // half-typed form must survive other people's moves)
  const key = JSON.stringify([s.ruleset, s.you,
    Object.values(s.characters).map((c) => [c.id, c.name]), Object.values(s.members).map((m) => [m.id, m.name])]);
  if (key === app.actionsKey) return;
  app.actionsKey = key;
  const fctx = {
    characters: () => Object.values(app.state.characters),
    members: () => Object.values(app.state.members),
    submit: (cmd) => app.conn.command(app.tableId, cmd),
  };
  const opened = new Set([...document.querySelectorAll("#actions details[open]")].map((d) => d.dataset.command));
  // GM-only commands (list_rulesets' gm_commands) are offered to the GM only
  const gmOnly = new Set((info && info.gm_commands) || []);
  const isGm = s.you.role === "gm";
  const defs = (info ? commandDefs(info.command_schema) : []).filter((d) => isGm || !gmOnly.has(d.tag));
  const parts = [];
  parts.push(h("details", { class: "cmd", "data-command": "create_character", open: opened.has("create_character") },
    h("summary", { text: "キャラクターを作る" }), sheetForm(sheetCtx(null))));
  // every command of the ruleset, folded: 今できる手 has what fits now
  const all = [];
  for (const d of defs) {
    all.push(h("details", { class: "cmd", "data-command": d.tag, open: opened.has(d.tag) },
      h("summary", { title: d.description }, d.title,
        gmOnly.has(d.tag) ? h("span", { class: "gm-only", title: "GMだけが使えるコマンド", text: "GM" }) : null,
        d.description ? h("small", { text: ` — ${d.description.split("\n")[0].slice(0, 48)}` }) : null),
      d.description ? h("p", { class: "desc", text: d.description.split("\n")[0] }) : null,
      commandForm(d, info.command_schema, fctx)));
  }
  if (all.length) {
    parts.push(h("details", { class: "cmd cmd-all", "data-command": "*all", open: opened.has("*all") },
      h("summary", { text: `ルールのコマンド（すべて: ${all.length}）` }), all));
  }
  if (isGm) parts.push(...timerActions(app.conn.coreSchema, fctx, opened)); // set_timer (timers.js)
  clear($("#actions-body"), parts);
}

// ------------------------------------------------------------------ GM tools

// The Japanese title of a state or sheet key, from the ruleset's schemas (state_schema,
// sheet_schema: the Structs' titles); the key itself when no schema names it.
function keyTitle(key) {
  const info = rulesetInfo() || {};
  for (const schema of [info.sheet_schema, info.state_schema]) {
    for (const def of Object.values((schema && schema.$defs) || {})) {
      const p = (def.properties || {})[key];
      if (p && p.title) return String(p.title);
    }
  }
  return key;
}

// A path as people read it: "ヤモト: 戦闘中の値 › 【DKK】" (characters by name, keys by title).
export function pathLabel(s, path) {
  const parts = [];
  let who = null;
  for (const seg of path.slice(1)) {
    if (typeof seg === "string" && s.characters[seg]) { who = s.characters[seg].name; continue; }
    if (seg === "sheet" && path[0] === "characters") continue;
    parts.push(typeof seg === "number" ? `${seg + 1}番目` : keyTitle(seg));
  }
  return `${who ? `${who}: ` : ""}${parts.join(" › ")}`;
}

function renderGmTools(s) {
  // award: every numeric value tied to a character (game view and sheet)
  const sel = $("#award-target");
  const prev = sel.value;
  const options = [];
  for (const c of Object.values(s.characters)) {
    for (const p of numericPaths(s, c.id)) options.push({ path: p.path, label: pathLabel(s, p.path) });
  }
  clear(sel, options.map((o) => h("option", { value: JSON.stringify(o.path), text: o.label })));
  if ([...sel.options].some((o) => o.value === prev)) sel.value = prev;
  // override: the same values, and every other one clicked in the state
  const ov = $("#ov-path");
  const was = ov.value;
  clear(ov, h("option", { value: "", text: "—（状態の値をクリックしても選べます）" }),
    options.map((o) => h("option", { value: JSON.stringify(o.path), text: o.label })));
  if (was && ![...ov.options].some((o) => o.value === was)) {
    ov.append(h("option", { value: was, text: pathLabel(s, JSON.parse(was)) }));
  }
  // nested sheet values (能力値, 武器 …) too: their form is generated (override.js)
  for (const c of Object.values(s.characters)) {
    for (const [k, v] of Object.entries(c.sheet || {})) {
      if (v === null || typeof v !== "object") continue;
      const key = JSON.stringify(["characters", c.id, "sheet", k]);
      if (![...ov.options].some((o) => o.value === key)) ov.append(h("option", { value: key, text: pathLabel(s, JSON.parse(key)) }));
    }
  }
  ov.value = was;
  const revealed = !!s.seed || !!app.seedRevealed;
  $("#reveal-seed").hidden = revealed;
  if (revealed) showVerifyHint(); else $("#verify-hint").hidden = true;
}

function readPath(s, path) {
  let node = path[0] === "game" ? s.game : s.characters;
  for (const k of path.slice(1)) {
    if (node === null || node === undefined) return undefined;
    node = node[k];
  }
  return node;
}

// the seed: revealed once, at the end; then anyone with the log runs taku verify
$("#reveal-seed").addEventListener("click", async () => {
  if (!window.confirm("シードを公開しますか？ 公開すると誰でもログのダイスを検証できます（取り消せません）。いま配られている手札や手牌も、シードから誰にでも計算できるようになります。")) return;
  try {
    await app.conn.command(app.tableId, { type: "reveal_seed" });
    app.seedRevealed = true;
    showVerifyHint();
    toast("シードを公開しました", "ok");
  } catch (x) { toast(errorNodes(x)); }
});

function showVerifyHint() {
  const hint = $("#verify-hint");
  hint.hidden = false;
  $("#verify-cmd").textContent = `taku verify ${app.tableId}.jsonl`;
  $("#verify-db-cmd").textContent = `taku verify --db taku.db ${app.tableId}`;
}

$("#secret-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const expr = $("#secret-expr").value.trim();
  if (!expr) return;
  try {
    await app.conn.command(app.tableId, { type: "roll", expression: expr, secret: true });
    $("#secret-expr").value = "";
  } catch (x) { toast(errorNodes(x)); }
});

$("#override-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (!$("#ov-path").value) { toast("変更する値を選んでください"); return; }
  const path = JSON.parse($("#ov-path").value);
  const raw = $("#ov-value").value.trim();
  const old = readPath(app.state, path);
  if (app.ovField) {
    const errors = [];
    const nested = app.ovField.read(errors);
    if (errors.length) { toast(errors.join(" / ")); return; }
    try {
      await app.conn.command(app.tableId, { type: "override", path, value: nested, reason: $("#ov-reason").value.trim() });
      toast("変更しました", "ok");
    } catch (x) { toast(errorNodes(x)); }
    return;
  }
  // the value is of the kind the schema says (else the kind it had): a number stays a
  // number, true / false a boolean, "007" for a string field the text "007"
  const kind = scalarKind(rulesetInfo(), path, old);
  let value = raw;
  if (kind === "number" || (kind === "" && /^-?\d+(\.\d+)?$/.test(raw))) {
    value = Number(raw);
    // an emptied box is no number (Number("") is 0: it would set the value to 0)
    if (raw === "" || !Number.isFinite(value)) { toast("数を入力してください"); return; }
  } else if (kind === "boolean") value = raw === "true" || raw === "はい" || raw === "✔";
  try {
    await app.conn.command(app.tableId, { type: "override", path, value, reason: $("#ov-reason").value.trim() });
    toast("変更しました", "ok");
  } catch (x) { toast(errorNodes(x)); }
});

$("#award-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const path = JSON.parse($("#award-target").value || "null");
  if (!path) return;
  const delta = Number($("#award-delta").value || 0);
  const current = Number(readPath(app.state, path) || 0);
  try {
    await app.conn.command(app.tableId, {
      type: "override", path, value: current + delta, reason: $("#award-reason").value.trim() || `付与 ${delta >= 0 ? "+" : ""}${delta}`,
    });
  } catch (x) { toast(errorNodes(x)); }
});

// a click on a value in the state (or Enter / Space on it) fills the override form (GM)
function fillOverride(e) {
  const leaf = e.target.closest && e.target.closest("#state-panels .leaf[data-path]");
  if (!leaf || !app.state || app.state.you.role !== "gm") return;
  const path = JSON.parse(leaf.dataset.path);
  if (path[0] !== "game" && path[0] !== "characters") return;
  e.preventDefault();
  const key = JSON.stringify(path);
  const ov = $("#ov-path");
  if (![...ov.options].some((o) => o.value === key)) ov.append(h("option", { value: key, text: pathLabel(app.state, path) }));
  ov.value = key;
  const v = readPath(app.state, path);
  $("#ov-value").value = v === null || v === undefined || typeof v === "object" ? "" : String(v);
  $("#gm-tools").open = true;
  renderOverrideValue();
  (app.ovField ? $("#ov-nested").querySelector("input, select, button") : $("#ov-value")).focus();
}

// the override's value: the plain box for a scalar, a generated form for a nested value
function renderOverrideValue() {
  const raw = $("#ov-path").value;
  const path = raw ? JSON.parse(raw) : null;
  app.ovField = path && app.state ? overrideField(rulesetInfo(), path, readPath(app.state, path), {
    ctx: { characters: () => Object.values(app.state.characters), members: () => Object.values(app.state.members) },
    titleOf: keyTitle,
  }) : null;
  $("#ov-value-row").hidden = Boolean(app.ovField);
  clear($("#ov-nested"), app.ovField ? app.ovField.el : []);
}
$("#ov-path").addEventListener("change", () => {
  renderOverrideValue();
  const path = $("#ov-path").value ? JSON.parse($("#ov-path").value) : null;
  const v = path && app.state ? readPath(app.state, path) : undefined;
  if (!app.ovField) $("#ov-value").value = v === null || v === undefined || typeof v === "object" ? "" : String(v);
});
document.addEventListener("click", fillOverride);
document.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") fillOverride(e); });

function renderInvites() {
  clear($("#invites"), inviteRows(""));
}

function inviteRows(prefix) {
  const mine = stored(app.tableId) || {};
  const rows = [];
  if (mine.player_token) rows.push([`${prefix}invite-player`, "プレイヤー招待", inviteLink(app.tableId, mine.player_token), "キャラクターを作り、チャットとダイス、自分のキャラクターの行動ができます"]);
  if (mine.spectator_token) rows.push([`${prefix}invite-spectator`, "観戦招待", inviteLink(app.tableId, mine.spectator_token), "見るだけです（発言も行動もできません）"]);
  rows.push([`${prefix}invite-self`, "GMの戻り用リンク（他人に渡さない）", inviteLink(app.tableId, mine.token), "別の端末からGMとして戻るためのリンクです"]);
  // a forked table: each member of the source table joins again as themselves with their own link
  for (const m of mine.member_tokens || []) rows.push([`${prefix}invite-member-${m.id}`, `${m.name}さんのリンク`, inviteLink(app.tableId, m.token), "分岐元の卓のメンバーが同じキャラクターのまま参加するためのリンクです（本人にだけ渡す）"]);
  return rows.map(([id, label, url, what]) => h("div", { class: "invite" },
    h("label", { for: id, text: label }),
    h("small", { class: "invite-what", text: what }),
    h("input", { id, type: "text", readonly: true, value: url, onfocus: (e) => e.target.select() }),
    h("button", { type: "button", class: "copy", "aria-label": `${label}をコピー`, text: "コピー",
      onclick: async () => {
        try { await navigator.clipboard.writeText(url); toast("コピーしました", "ok"); }
        catch { $(`#${id}`).select(); document.execCommand("copy"); toast("コピーしました", "ok"); }
      } })));
}

// ------------------------------------------------------------------ chat

const history = { lines: [], at: 0 };

// ↑ / ↓ in the chat input walk through what was sent (like a terminal)
$("#chat-input").addEventListener("keydown", (e) => {
  if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
  if (!history.lines.length) return;
  e.preventDefault();
  history.at = Math.max(0, Math.min(history.lines.length, history.at + (e.key === "ArrowUp" ? -1 : 1)));
  e.target.value = history.lines[history.at] || "";
});

$("#chat-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = $("#chat-input");
  const text = input.value.trim();
  if (!text) return;
  input.value = "";
  if (history.lines[history.lines.length - 1] !== text) history.lines.push(text);
  history.at = history.lines.length;
  try {
    await chat.send(text, $("#chat-as").value || null);
  } catch (x) {
    input.value = text;
    toast(errorNodes(x));
  }
});

// ------------------------------------------------------------------ replay

$("#replay-toggle").addEventListener("click", () => (app.replay ? closeReplay() : openReplay()));
$("#replay-close").addEventListener("click", () => closeReplay());

async function openReplay() {
  const events = await app.conn.fullLog(app.tableId);
  app.replay = { events, seq: events.length ? events[events.length - 1].seq : 0, token: 0 };
  $("#replay").hidden = false;
  $("#live").hidden = true;
  $("#replay-toggle").setAttribute("aria-pressed", "true");
  const slider = $("#replay-slider");
  slider.min = 1;
  slider.max = app.replay.seq;
  slider.value = app.replay.seq;
  clear($("#replay-log"), events.map((m) => undo.decorate(eventItem(m), m)));
  await replayTo(app.replay.seq);
  slider.focus();
}

function closeReplay() {
  app.replay = null;
  $("#replay").hidden = true;
  $("#live").hidden = false;
  $("#replay-toggle").setAttribute("aria-pressed", "false");
  $("#replay-toggle").focus(); // not <body>: the button that opened the replay
  followLog(); // lines that came while the replay was open: the log shows its newest
}

async function replayTo(seq) {
  const r = app.replay;
  if (!r) return;
  seq = Math.max(1, Math.min(seq, Number($("#replay-slider").max)));
  r.seq = seq;
  const token = ++r.token;
  $("#replay-slider").value = seq;
  $("#replay-seq").textContent = `seq ${seq} / ${$("#replay-slider").max}`;
  for (const li of $("#replay-log").children) {
    const n = Number(li.dataset.seq);
    li.hidden = n > seq;
    li.classList.toggle("current", n === seq);
  }
  const cur = $(`#replay-log li[data-seq="${seq}"]`);
  if (cur) cur.scrollIntoView({ block: "nearest" });
  let m;
  try {
    m = await app.conn.getState(app.tableId, seq);
  } catch (x) {
    if (token !== r.token || app.replay !== r) return;
    // e.g. a ruleset whose view cannot show a state in the middle of a command
    clear($("#replay-state"), h("section", { class: "panel" }, h("p", { class: "form-error", role: "alert",
      text: `seq ${seq} の状態は表示できません（${errText(x)}）` })));
    $("#replay").dataset.seq = seq;
    return;
  }
  if (token !== r.token || app.replay !== r) return; // a later step won
  renderState(m.state, $("#replay-state"), { live: false });
  $("#replay").dataset.seq = m.seq;
}

$("#replay-slider").addEventListener("input", (e) => replayTo(Number(e.target.value)));
$("#replay-prev").addEventListener("click", () => replayTo(app.replay.seq - 1));
$("#replay-next").addEventListener("click", () => replayTo(app.replay.seq + 1));
$("#replay-first").addEventListener("click", () => replayTo(1));
$("#replay-last").addEventListener("click", () => replayTo(Number($("#replay-slider").max)));

// ------------------------------------------------------------------ export

// the server makes the file (taku.export, the same as `taku export`): chat.js downloads it
const exportLog = (kind) => chat.exportLog(kind).catch((x) => toast(errorNodes(x)));
$("#export-text").addEventListener("click", () => exportLog("text"));
$("#export-html").addEventListener("click", () => exportLog("html"));
$("#export-jsonl").addEventListener("click", () => exportLog("jsonl"));
$("#verify-download").addEventListener("click", () => exportLog("jsonl"));
// the phone's header: the tools fold away behind one button
$("#menu-toggle").addEventListener("click", (e) => {
  const open = e.currentTarget.getAttribute("aria-expanded") !== "true";
  e.currentTarget.setAttribute("aria-expanded", String(open));
  $("#table .bar").classList.toggle("menu-open", open);
});

// ------------------------------------------------------------------ keyboard

document.addEventListener("keydown", (e) => {
  if (e.target.matches("input, textarea, select") && e.target.id !== "replay-slider") return;
  if (app.replay && e.key === "Escape") {
    e.preventDefault();
    closeReplay();
  } else if (app.replay && (e.key === "," || e.key === ".")) {
    e.preventDefault();
    replayTo(app.replay.seq + (e.key === "." ? 1 : -1));
  } else if (e.key === "/" && !app.replay && !$("#table").hidden) {
    e.preventDefault();
    $("#chat-input").focus();
  }
});

// ------------------------------------------------------------------ routing

async function route() {
  const { table, token } = parseHash();
  if (table) await openTable(table, token);
  else await home();
}

window.addEventListener("hashchange", () => route().catch((x) => toast(errorNodes(x))));

(async () => {
  try {
    await app.conn.open();
    app.rulesets = await app.conn.listRulesets();
    await route();
  } catch (x) {
    toast(`サーバーに接続できません: ${errText(x)}（再接続を待っています）`);
    // the connection keeps retrying; start once it is up
    app.conn.whenOpen().then(async () => {
      app.rulesets = await app.conn.listRulesets();
      await route();
    }).catch((e) => toast(errorNodes(e)));
  }
  document.body.dataset.ready = "1";
})();
