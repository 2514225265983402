// The nstrpg battle map in the browser (issue 15 item 7): an SVG grid drawn from the
// server's view (state.game.board: {map: {name, width, height, rows}, positions,
// sokuten …}), tokens (name, colour, state), the squares a move may end on (the
// `nstrpg.move` affordance's `to` choices) with a path chosen by clicks, the line of
// sight to an attack's targets, the initiative tracker (the state message's `turn`),
// and the GM's editor (paint squares, paste the text form, place characters).
//
// Keyboard: the grid is one tab stop; the arrow keys move between squares, Enter or
// Space does what a click does. Everything a person reads is Japanese; the squares'
// names come from the command schema (nstrpg.edit_map's `cell` description).
//
// mapPanel() returns one persistent element per view (live, replay) that redraws itself
// in place, so the focused square and a half-chosen path survive a state refresh.

import { h, clear } from "./render.js";

const SVG = "http://www.w3.org/2000/svg";
const U = 32; // viewBox units per square

const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const key = (p) => `${p[0]},${p[1]}`;
const same = (a, b) => Boolean(a && b) && a[0] === b[0] && a[1] === b[1];
const cheb = (a, b) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]));

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") el.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) if (c) el.append(c);
  return el;
}

// ------------------------------------------------------------------ squares

// The squares' names from the schema's description of a square ("# 壁 . 床 D 閉じたドア …"),
// as {"#": "壁", ".": "床", …}; null when the text is not such a list.
export function parseLegend(text) {
  const out = {};
  const parts = String(text || "").trim().split(/\s+/);
  if (parts.length < 4 || parts.length % 2) return null;
  for (let i = 0; i < parts.length; i += 2) {
    if ([...parts[i]].length !== 1) return null;
    out[parts[i]] = parts[i + 1];
  }
  return out;
}

// the same list, for a server whose schema does not describe the squares
const LEGEND_FALLBACK = "# 壁 . 床 D 閉じたドア d 開いたドア W 窓 O 障害物 T 宝箱 X 爆発物";

function legendOf(info) {
  const defs = (info && info.command_schema && info.command_schema.$defs) || {};
  for (const d of Object.values(defs)) {
    const cell = isObj(d) && isObj(d.properties) ? d.properties.cell : null;
    if (cell && Array.isArray(cell.enum) && cell.description) {
      const legend = parseLegend(cell.description);
      if (legend) return legend;
    }
  }
  return parseLegend(LEGEND_FALLBACK);
}

// a short mark inside each square: the colour is never the only cue
const MARK = { D: "扉", d: "開", W: "窓", O: "障", T: "宝", X: "爆" };
const CELL_CLASS = { "#": "wall", ".": "floor", D: "door", d: "door-open", W: "window", O: "obstacle", T: "treasure", X: "explosive" };
const SOLID = "#O"; // never stood on

// ------------------------------------------------------------------ what the server says

// The board of a state, or null: {map, positions: {cid: [x, y]}, sokuten: {cid: n}}.
export function boardOf(st) {
  const b = st && isObj(st.game) ? st.game.board : null;
  if (!isObj(b) || !isObj(b.map) || !Array.isArray(b.map.rows) || !b.map.rows.length) return null;
  return { map: b.map, positions: isObj(b.positions) ? b.positions : {}, sokuten: isObj(b.sokuten) ? b.sokuten : {} };
}

// An affordance's choice of a square: the key whose choices are all [x, y] (`to` of
// `nstrpg.move`, `at` of `nstrpg.place` / `nstrpg.place_entry` …), or null.
const isSquare = (v) => Array.isArray(v) && v.length === 2 && v.every(Number.isInteger);
function squareKey(a) {
  for (const [k, cs] of Object.entries((isObj(a) && a.choices) || {})) {
    if (Array.isArray(cs) && cs.length && cs.every((c) => isObj(c) && isSquare(c.value))) return k;
  }
  return null;
}

// The squares offered now, a move first, then the expected next step: {kind ("move": a
// path is built; "square": one square is chosen), command, key, args, cid, label,
// squares: Map(key -> [x, y]), others: the other open choices {key: [Choice]}}.
function squareOffer(affordances) {
  const list = (affordances || []).filter((a) => isObj(a) && typeof a.command === "string" && squareKey(a));
  const rank = (a) => (a.command === "nstrpg.move" ? 2 : a.primary ? 1 : 0);
  const a = list.sort((x, y) => rank(y) - rank(x))[0];
  if (!a) return null;
  const k = squareKey(a);
  const others = Object.fromEntries(Object.entries(a.choices).filter(([kk, cs]) => kk !== k && Array.isArray(cs) && cs.length));
  return {
    kind: a.command === "nstrpg.move" ? "move" : "square", command: a.command, key: k, args: a.args || {},
    cid: (a.args || {}).character_id || null, label: a.label || "", others,
    squares: new Map(a.choices[k].map((c) => [key(c.value), c.value])),
  };
}

// A command argument's title in the schema (list_rulesets' command_schema), for labels.
function fieldTitle(info, command, arg) {
  const defs = (info && info.command_schema && info.command_schema.$defs) || {};
  for (const d of Object.values(defs)) {
    const props = isObj(d) && isObj(d.properties) ? d.properties : {};
    const tag = isObj(props.type) ? props.type.const || (props.type.enum || [])[0] : null;
    if (tag === command && isObj(props[arg]) && props[arg].title) return props[arg].title;
  }
  return "選択";
}

// Whether the map panel offers this affordance itself (the generic buttons would be one
// a square): choices of squares, and the GM's placing of any character (the editor's).
export function mapOffers(a) {
  if (!isObj(a)) return false;
  return Boolean(squareKey(a)) || (a.command === "nstrpg.place" && isObj(a.choices) && "character_id" in a.choices);
}

// The lines of sight to draw: from each character of the view's sight table
// (game.board.sight: {acting: {enemy: sees}}, NS-60) that the viewer controls, to every
// enemy on the map; `offered`: an `nstrpg.attack` affordance offers it as a target now.
// Without the table (the server cannot say), the offered targets ({sight: null}: the GM
// decides). [{attacker, cid, sight: true | false | null, offered}]
function sightLines(affordances, sight, controls, ally) {
  const offered = new Map(); // attacker -> Set(target): enemies only, never an ally (`ally(a, b)`)
  for (const a of affordances || []) {
    if (!isObj(a) || a.command !== "nstrpg.attack") continue;
    const attacker = (a.args || {}).attacker;
    if (!attacker) continue;
    if (!offered.has(attacker)) offered.set(attacker, new Set());
    for (const c of (a.choices || {}).target || []) if (!ally(attacker, c.value)) offered.get(attacker).add(c.value);
  }
  const out = [];
  const table = isObj(sight) ? sight : {};
  for (const [attacker, seen] of Object.entries(table)) {
    if (!isObj(seen) || !controls(attacker)) continue;
    const targets = offered.get(attacker) || new Set();
    for (const [cid, ok] of Object.entries(seen)) if (!ally(attacker, cid)) out.push({ attacker, cid, sight: Boolean(ok), offered: targets.has(cid) });
  }
  for (const [attacker, targets] of offered) {
    if (attacker in table) continue;
    for (const cid of targets) out.push({ attacker, cid, sight: null, offered: true });
  }
  return out;
}

// Token colours: blues and greens for PCs, reds and purples for NPCs, in order.
const PC_COLOURS = ["#1d4ed8", "#047857", "#0e7490", "#4338ca", "#15803d", "#0369a1"];
const NPC_COLOURS = ["#b91c1c", "#7e22ce", "#c2410c", "#9d174d", "#a16207", "#be123c"];
const STATUS = { fainted: "気絶", exploded: "爆発四散", removed: "退場", dead: "死亡" };

function tokensOf(st, board) {
  const fighters = isObj(st.game && st.game.fighters) ? st.game.fighters : {};
  let pcs = 0;
  let npcs = 0;
  return Object.entries(board.positions).filter(([, p]) => Array.isArray(p)).map(([cid, pos]) => {
    const c = st.characters[cid] || { name: cid };
    const f = fighters[cid] || {};
    const pc = ((c.sheet || {}).kind || "pc") === "pc"; // the sides of NSTRPG: PCs and enemies
    const colour = pc ? PC_COLOURS[pcs++ % PC_COLOURS.length] : NPC_COLOURS[npcs++ % NPC_COLOURS.length];
    const states = [STATUS[f.status], f.kuzure ? "崩れ" : "", f.shuchu ? "集中" : "", f.sokuten ? "連続側転" : ""].filter(Boolean);
    return { cid, pos, name: c.name || cid, pc, colour, states, down: Boolean(STATUS[f.status]) };
  });
}

// ------------------------------------------------------------------ the panel

const instances = new Map(); // "live" | "replay" -> the panel of that view

// The map panel of a state (nstrpg tables), or null: ctx is main.js's panel context
// ({live, me, send, name}); `info` the ruleset's entry of list_rulesets (its schema).
let combatShown = false; // the live view has shown this combat (the page was brought to the map)

export function mapPanel(st, ctx, { affordances = [], turn = null, info = null } = {}) {
  const hasTurn = Boolean(turn && Array.isArray(turn.order) && turn.order.length);
  if (!st || st.ruleset !== "nstrpg") { if (ctx.live) combatShown = false; return null; }
  const board = boardOf(st);
  const isGm = Boolean(ctx.live && ctx.me && ctx.me.role === "gm" && ctx.send);
  if (!board && !isGm && !hasTurn) return null;
  const which = ctx.live ? "live" : "replay";
  if (!instances.has(which)) instances.set(which, newPanel(which));
  const panel = instances.get(which);
  panel.update(st, ctx, { board, affordances: ctx.live ? affordances : [], turn, info, isGm });
  if (ctx.live) {
    // a combat on, on a narrow screen (the map below the chat): the page scrolls to the map
    // once (a scroll, not a layout shift; the chat stays a scroll up)
    if (hasTurn && !combatShown && window.matchMedia("(max-width: 760px)").matches) {
      requestAnimationFrame(() => { if (panel.root.isConnected) panel.root.scrollIntoView({ block: "start" }); });
    }
    combatShown = hasTurn;
  }
  return panel.root;
}

// the grid's description (aria-describedby): how to act for who may, how to look for who watches
const HELP_ACT = "矢印キーでマスを移り、Enter で選びます。移動フェイズでは色の付いたマスが移動できるマスです。1マスずつ選ぶか行き先を選んで、「この経路で移動する」を押します。";
const HELP_WATCH = "矢印キーでマスを移ると、そのマスの様子を読み上げます。";

// which 手番 a turn() is in: the round, whose 手番 and how many are done (一騎打ち's
// second 手番 of the same ninja is another one); "" with no turn order
function turnKey(turn) {
  if (!turn || !Array.isArray(turn.order) || !turn.order.length) return "";
  return `${turn.round}|${turn.actor || ""}|${turn.order.filter((x) => x && x.done).length}`;
}

function newPanel(which) {
  const st = {
    focus: null, // the square holding the grid's tab stop (null: not placed yet)
    focusActor: null, // whose 手番 the focus was last brought to
    path: [], // the squares chosen so far (a move's steps, or a placement's one square)
    pathFor: null, // the offer the path is for ("nstrpg.move:c1:to")
    direct: false, // the path is a destination only: the server picks the way (`to`)
    brush: null, // the GM's square being painted (null: not painting)
    draft: null, // the GM's painted rows, not saved yet
    draftOf: null, // the rows the draft started from
    placing: null, // the character the GM places with the next square chosen
    chosenTarget: null, // the target whose line of sight is drawn thick
    others: {}, // a square offer's other open choices, as chosen in the bar (JSON of the value)
    note: "",
    noteTurn: null, // the 手番 the note was said in: a new 手番 clears it
  };
  const root = h("section", { class: "panel map-panel", "data-testid": `map-${which}`, "aria-label": "マップと手番" });
  const tracker = h("div", { class: "tracker" });
  const head = h("h2", { text: "マップ" });
  const help = h("p", { id: `map-help-${which}`, class: "sr" });
  const scroll = h("div", { class: "map-scroll" });
  const status = h("p", { class: "map-note", role: "status" });
  const moveBar = h("div", { class: "map-move", role: "group", "aria-label": "移動の経路" });
  const sightList = h("ul", { class: "map-sight", "aria-label": "視線" });
  const attackBar = h("div", { class: "map-attack", role: "group", "aria-label": "選んだ相手への攻撃" });
  const editor = h("details", { class: "map-editor", "data-testid": "map-editor" });
  root.append(tracker, head, help, scroll, status, moveBar, sightList, attackBar, editor);
  let cur = null; // what the last update said

  const say = (text) => { st.note = text; status.textContent = text; };
  const rows = () => st.draft || (cur.board ? cur.board.map.rows : []);
  const cellAt = (p) => {
    const r = rows()[p[1]];
    return r === undefined || p[0] < 0 || p[0] >= r.length ? "#" : r[p[0]];
  };
  const tokenAt = (p) => cur.tokens.find((t) => same(t.pos, p)) || null;
  const offerKey = () => (cur.offer ? `${cur.offer.command}:${cur.offer.cid}:${cur.offer.key}` : null);

  function squareName(p, withToken = true) {
    const cell = cur.legend[cellAt(p)] || cellAt(p);
    const t = withToken ? tokenAt(p) : null;
    const who = t ? ` ${t.name}${t.states.length ? `（${t.states.join("・")}）` : ""}` : "";
    return `${p[0] + 1}列${p[1] + 1}行 ${cell}${who}`;
  }

  // ---------------------------------------------------------------- moving and placing

  // A click (or Enter) on square p while a move is offered: back along the path to p,
  // one more step from the path's end, or straight to a square the move may end on (the
  // server then picks a shortest legal way). Anything else is refused, saying why.
  function chooseSquare(p) {
    const offer = cur.offer;
    if (st.pathFor !== offerKey()) { st.path = []; st.direct = false; st.pathFor = offerKey(); }
    const name = squareName(p);
    const ends = offer.squares.has(key(p));
    if (offer.kind === "square") {
      if (!ends) { say(`${name}は選べません`); return; }
      st.path = [p];
      say(`${name}を選びました`);
      return;
    }
    const i = st.direct ? -1 : st.path.findIndex((q) => same(q, p));
    if (i >= 0) {
      st.path = st.path.slice(0, i + 1);
      say(`経路を${name}まで戻しました（${st.path.length}マス）`);
      return;
    }
    if (st.direct) { st.path = []; st.direct = false; }
    const end = st.path.length ? st.path[st.path.length - 1] : cur.board.positions[offer.cid];
    const t = tokenAt(p);
    const ally = Boolean(t) && t.cid !== offer.cid && t.pc === cur.moverIsPc;
    const step = cheb(end, p) === 1 && (cur.diagonal || end[0] === p[0] || end[1] === p[1]);
    // 連続側転移動 passes enemies and obstacles; a normal move only allies (it ends on `ends`)
    const passable = cur.diagonal ? cellAt(p) !== "#" : !SOLID.includes(cellAt(p)) && (ends || ally);
    if (step && passable && st.path.length < 20) {
      st.path = [...st.path, p];
      say(`${name}を経路に加えました（${st.path.length}マス）`);
      return;
    }
    if (ends) {
      st.path = [p];
      st.direct = true;
      say(`${name}へ移動します（経路はサーバーが最短で選びます）`);
      return;
    }
    say(`${name}には移動できません`);
  }

  // the value of each other open choice: the one chosen in the bar, or the only one
  function otherArgs(offer) {
    const out = {};
    for (const [k, cs] of Object.entries(offer.others)) {
      const chosen = st.others[k];
      out[k] = cs.some((c) => JSON.stringify(c.value) === chosen) ? JSON.parse(chosen) : cs[0].value;
    }
    return out;
  }

  async function sendOffer() {
    const offer = cur.offer;
    if (!offer || !st.path.length) return;
    const end = st.path[st.path.length - 1];
    const cmd = offer.kind === "square"
      ? { type: offer.command, ...offer.args, ...otherArgs(offer), [offer.key]: end }
      : st.direct
        ? { type: offer.command, ...offer.args, to: end }
        : { type: offer.command, ...offer.args, path: st.path };
    const who = cmd.character_id ? cur.ctx.name(cmd.character_id) : "";
    try {
      await cur.ctx.send(cmd);
      st.path = [];
      st.direct = false;
      say(offer.kind === "square" ? `${offer.label}: ${squareName(end, false)}` : `${who}は${squareName(end, false)}へ移動しました`);
    } catch {
      say(offer.kind === "square" ? `${squareName(end, false)}は選べませんでした` : "その経路では移動できません");
    }
    redraw(true);
  }

  // ---------------------------------------------------------------- the GM's editor

  function paint(p) {
    if (!st.draft) { st.draft = [...cur.board.map.rows]; st.draftOf = cur.board.map.rows.join("\n"); }
    const was = squareName(p, false);
    const r = st.draft[p[1]];
    if (r[p[0]] !== st.brush) st.draft[p[1]] = r.slice(0, p[0]) + st.brush + r.slice(p[0] + 1);
    say(`${was}を${cur.legend[st.brush] || st.brush}にしました（未保存）`);
  }

  function changedCells() {
    const base = cur.board.map.rows;
    const out = [];
    (st.draft || []).forEach((row, y) => [...row].forEach((c, x) => { if (base[y][x] !== c) out.push({ x, y, cell: c }); }));
    return out;
  }

  async function send(cmd, done) {
    try {
      await cur.ctx.send(cmd);
      done();
    } catch { /* main.js's toast shows the server's message and code */ }
    redraw();
  }

  function activate(p) {
    st.focus = p;
    if (cur.isGm && st.placing) {
      const cid = st.placing;
      st.placing = null;
      const reason = (editor.querySelector(".map-reason") || {}).value || "";
      send({ type: "nstrpg.place", character_id: cid, at: p, reason: reason.trim() },
        () => say(`${cur.ctx.name(cid)}を${squareName(p, false)}に置きました`));
      return;
    }
    if (cur.isGm && st.brush) { paint(p); redraw(true); return; }
    const t = tokenAt(p);
    const target = t && cur.targets.some((x) => x.cid === t.cid) ? t.cid : null;
    if (cur.offer && (!target || cur.offer.squares.has(key(p)))) chooseSquare(p);
    else if (target) {
      st.chosenTarget = target; // an enemy clicked: the target of the attack buttons below
      say(`${t.name}を攻撃の相手に選びました（${squareName(p, false)}）`);
    } else say(squareName(p));
    redraw(true);
  }

  // ---------------------------------------------------------------- drawing

  function drawGrid(refocus) {
    const rs = rows();
    const width = Math.max(...rs.map((r) => r.length));
    const height = rs.length;
    const offer = st.brush || st.placing ? null : cur.offer;
    const mine = offer && st.pathFor === offerKey() ? st.path : [];
    const onPath = new Set(mine.map(key));
    const name = cur.board.map.name || "";
    const svg = s("svg", {
      class: `map-svg${st.brush ? " editing" : ""}`, viewBox: `0 0 ${width * U} ${height * U}`,
      role: "grid", "aria-label": `マップ${name ? ` ${name}` : ""}（${width}×${height}マス）`,
      "aria-describedby": `map-help-${which}`, "aria-readonly": st.brush ? "false" : "true",
      style: `--w:${width}`,
    });
    st.focus = startFocus(width, height);
    for (let y = 0; y < height; y++) {
      const row = s("g", { role: "row" });
      for (let x = 0; x < width; x++) {
        const p = [x, y];
        const c = rs[y][x] || ".";
        const can = offer && offer.squares.has(key(p));
        const cls = ["sq", CELL_CLASS[c] || "floor", can ? "reach" : "", onPath.has(key(p)) ? "path" : "", same(p, st.focus) ? "cursor" : ""];
        const extra = (can ? (offer.kind === "square" ? "（選べる）" : "（移動できる）") : "") + (onPath.has(key(p)) ? (offer.kind === "square" ? "（選択中）" : "（経路）") : "");
        row.append(s("g", {
          class: cls.filter(Boolean).join(" "), role: "gridcell", tabindex: same(p, st.focus) ? "0" : "-1",
          "aria-label": squareName(p) + extra, "aria-selected": onPath.has(key(p)) ? "true" : "false",
          "data-x": x, "data-y": y, "data-cell": c, onclick: () => activate(p),
        },
        s("rect", { x: x * U, y: y * U, width: U, height: U }),
        MARK[c] ? s("text", { x: x * U + U / 2, y: y * U + U / 2, class: "mark", "aria-hidden": "true", text: MARK[c] }) : null));
      }
      svg.append(row);
    }
    if (mine.length && offer && offer.kind === "move" && !st.direct) {
      const pts = [cur.board.positions[offer.cid], ...mine].map((q) => `${q[0] * U + U / 2},${q[1] * U + U / 2}`).join(" ");
      svg.append(s("polyline", { class: "path-line", points: pts, "aria-hidden": "true" }));
    }
    if (!st.draft) {
      for (const t of cur.targets) {
        const a = cur.board.positions[t.attacker];
        const b = cur.board.positions[t.cid];
        if (!a || !b) continue;
        svg.append(s("line", {
          class: `sight ${t.sight === null ? "unknown" : t.sight ? "clear" : "blocked"}${st.chosenTarget === t.cid ? " chosen" : ""}`, "aria-hidden": "true",
          "data-target": t.cid, x1: a[0] * U + U / 2, y1: a[1] * U + U / 2, x2: b[0] * U + U / 2, y2: b[1] * U + U / 2,
        }));
      }
      for (const t of cur.tokens) {
        const cx = t.pos[0] * U + U / 2;
        const cy = t.pos[1] * U + U / 2;
        const cls = ["token", t.down ? "down" : "", cur.turn && cur.turn.actor === t.cid ? "actor" : ""];
        svg.append(s("g", { class: cls.filter(Boolean).join(" "), "aria-hidden": "true", "data-character": t.cid },
          s("circle", { cx, cy, r: U * 0.42, fill: t.colour }),
          s("text", { x: cx, y: cy, class: "tname", text: [...t.name].slice(0, 2).join("") }),
          // its first state as one character in a badge (気絶 → 気, 崩れ → 崩 …); all of them in the square's label
          t.states.length ? s("g", { class: "badge" },
            s("circle", { cx: cx + U * 0.33, cy: cy - U * 0.33, r: U * 0.2 }),
            s("text", { x: cx + U * 0.33, y: cy - U * 0.33, text: [...t.states[0]][0] })) : null));
      }
    }
    svg.addEventListener("focusin", (e) => {
      const g = e.target && e.target.closest ? e.target.closest(".sq") : null;
      if (g) st.focus = [Number(g.dataset.x), Number(g.dataset.y)];
    });
    svg.addEventListener("keydown", (e) => {
      const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
      if (dir) {
        e.preventDefault();
        focusSquare(svg, [Math.max(0, Math.min(width - 1, st.focus[0] + dir[0])), Math.max(0, Math.min(height - 1, st.focus[1] + dir[1]))]);
      } else if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        activate(st.focus);
      }
    });
    const had = refocus || (document.activeElement && scroll.contains(document.activeElement));
    clear(scroll, svg);
    if (had) focusSquare(svg, st.focus);
  }

  // The grid's tab stop: where it was; at a new 手番 the acting character's square; first
  // the viewer's character (else the first floor square), never a wall to begin on.
  function startFocus(width, height) {
    const actor = cur.turn && cur.turn.actor;
    const at = (cid) => (cid && Array.isArray(cur.board.positions[cid]) ? cur.board.positions[cid] : null);
    if (actor && actor !== st.focusActor && at(actor)) { st.focusActor = actor; return [...at(actor)]; }
    if (st.focus) return [Math.min(st.focus[0], width - 1), Math.min(st.focus[1], height - 1)];
    const mine = cur.tokens.find((t) => cur.controls(t.cid));
    if (mine) return [...mine.pos];
    const rs = rows();
    for (let y = 0; y < rs.length; y++) for (let x = 0; x < rs[y].length; x++) if (!SOLID.includes(rs[y][x])) return [x, y];
    return [0, 0];
  }

  function focusSquare(svg, p) {
    const old = svg.querySelector(".sq[tabindex='0']");
    if (old) { old.setAttribute("tabindex", "-1"); old.classList.remove("cursor"); }
    const g = svg.querySelector(`.sq[data-x='${p[0]}'][data-y='${p[1]}']`);
    if (!g) return;
    st.focus = p;
    g.setAttribute("tabindex", "0");
    g.classList.add("cursor");
    g.focus();
  }

  function drawTracker() {
    const t = cur.turn;
    if (!t || !Array.isArray(t.order) || !t.order.length) { clear(tracker); tracker.hidden = true; return; }
    tracker.hidden = false;
    // in 一騎打ち a ninja is in the order twice: the current slot is its first not done
    const current = t.actor ? t.order.findIndex((x) => x.id === t.actor && !x.done) : -1;
    const now = current >= 0 ? current : t.order.findIndex((x) => x.id === t.actor);
    clear(tracker,
      h("h2", { text: "手番" }),
      h("p", { class: "now", "data-testid": "turn-now" },
        t.round_label ? h("span", { class: "chip", text: t.round_label }) : null,
        h("strong", { text: t.actor ? ` ${t.actor_label || cur.ctx.name(t.actor)}の手番` : " 手番の合間" }),
        t.phase_label ? h("span", { class: "phase", text: `（${t.phase_label}）` }) : null),
      h("ol", { class: "initiative", "aria-label": "手番順（イニシアチブ）" }, t.order.map((slot, i) =>
        h("li", {
          class: [i === now ? "current" : "", slot.done ? "done" : ""].filter(Boolean).join(" "),
          "aria-current": i === now ? "step" : null, "data-character": slot.id,
        },
        h("span", { class: "who", text: slot.label || cur.ctx.name(slot.id) }),
        slot.value !== undefined && slot.value !== null ? h("span", { class: "init", text: ` イニシアチブ ${slot.value}` }) : null,
        i === now ? h("span", { class: "chip now-chip", text: "手番" }) : null,
        slot.done && i !== now ? h("span", { class: "chip done-chip", text: "済" }) : null))));
  }

  function drawMoveBar() {
    const offer = cur.offer;
    if (!offer || !cur.board || st.brush || st.placing) { clear(moveBar); moveBar.hidden = true; return; }
    moveBar.hidden = false;
    const n = st.pathFor === offerKey() ? st.path.length : 0;
    if (offer.kind === "square") {
      const sel = Object.entries(offer.others).filter(([, cs]) => cs.length > 1).map(([k, cs]) => {
        const id = `map-other-${which}-${k}`;
        const box = h("select", { id, onchange: (e) => { st.others[k] = e.target.value; } },
          cs.map((c) => h("option", { value: JSON.stringify(c.value), text: c.label, selected: st.others[k] === JSON.stringify(c.value) })));
        return h("label", { for: id, class: "inline" }, h("span", { class: "sr", text: fieldTitle(cur.info, offer.command, k) }), box);
      });
      clear(moveBar,
        h("span", { text: `${offer.label}${offer.cid ? `（${cur.ctx.name(offer.cid)}）` : ""}: ` }), sel,
        h("span", { class: "muted", text: n ? `${squareName(st.path[0], false)}を選択中` : "色の付いたマスから選ぶ" }),
        h("button", { type: "button", class: "primary", "data-testid": "map-go", disabled: !n, onclick: () => sendOffer(), text: "このマスに決める" }),
        h("button", { type: "button", disabled: !n, onclick: () => { st.path = []; say("選択を消しました"); redraw(); }, text: "選び直す" }));
      return;
    }
    const who = cur.ctx.name(offer.cid);
    const what = n ? (st.direct ? `行き先 ${squareName(st.path[0], false)}` : `経路 ${n}マス`) : "色の付いたマスを1マスずつ、または行き先を選ぶ";
    clear(moveBar,
      h("span", { text: `${who}の${/連続側転/.test(offer.label) ? "連続側転移動" : /全力/.test(offer.label) ? "全力移動" : "移動"}: ` }),
      h("span", { class: "muted", text: what }),
      h("button", { type: "button", class: "primary", "data-testid": "map-go", disabled: !n, onclick: () => sendOffer(), text: "この経路で移動する" }),
      h("button", { type: "button", disabled: !n, onclick: () => { st.path = []; st.direct = false; say("経路を消しました"); redraw(); }, text: "選び直す" }));
  }

  function drawSight() {
    const list = st.draft ? [] : cur.targets.filter((t) => cur.board.positions[t.attacker] && cur.board.positions[t.cid]);
    sightList.hidden = !list.length;
    const attacks = list.length ? attackButtons() : [];
    clear(attackBar, attacks);
    attackBar.hidden = !attacks.length;
    const words = (t) => (t.sight === null ? "視線はGMが判断" : t.sight ? "視線が通る" : "視線が通らない");
    clear(sightList, list.map((t) => h("li", { class: t.sight === null ? "" : t.sight ? "ok" : "bad" },
      h("button", {
        type: "button", class: "link", "aria-pressed": st.chosenTarget === t.cid ? "true" : "false", "data-target": t.cid,
        onclick: () => { st.chosenTarget = st.chosenTarget === t.cid ? null : t.cid; redraw(); },
        text: `${cur.ctx.name(t.attacker)} → ${cur.ctx.name(t.cid)}: ${words(t)}（${cheb(cur.board.positions[t.attacker], cur.board.positions[t.cid])}マス）${t.offered ? "" : "・攻撃の対象にできない"}`,
      }))));
  }

  // The attacks offered now on the chosen target (the `nstrpg.attack` affordances whose
  // `target` choices hold it, one button a weapon; those with styles stay in 今できる手).
  function attackButtons() {
    const cid = st.chosenTarget;
    if (!cid || !cur.ctx.send) return [];
    const out = [];
    for (const a of cur.affordances) {
      if (!isObj(a) || a.command !== "nstrpg.attack" || !isObj(a.choices)) continue;
      if (!(a.choices.target || []).some((c) => c.value === cid) || "style" in a.choices) continue;
      if (cur.ally((a.args || {}).attacker, cid)) continue; // no one-click shot at an ally
      const weapons = Array.isArray(a.choices.weapon) && a.choices.weapon.length ? a.choices.weapon : [null];
      for (const w of weapons) {
        const cmd = { type: a.command, ...(a.args || {}), target: cid, ...(w ? { weapon: w.value } : {}) };
        out.push(h("button", { type: "button", class: a.primary ? "primary" : "", "data-command": a.command,
          onclick: () => send(cmd, () => say(`${cur.ctx.name(cid)}を攻撃しました`)),
          text: `${cur.ctx.name(cid)}に${a.label}${w ? `（${w.label}）` : ""}` }));
      }
    }
    return out;
  }

  function drawEditor() {
    if (!cur.isGm) { clear(editor); editor.hidden = true; return; }
    editor.hidden = false;
    const legend = cur.legend;
    const brushes = Object.keys(legend);
    const sample = "##########\n#........#\n#...O....#\n#........D\n##########";
    const text = h("textarea", { id: `map-text-${which}`, class: "mono map-text", rows: 6, spellcheck: "false",
      text: cur.board ? cur.board.map.rows.join("\n") : sample });
    const name = h("input", { id: `map-name-${which}`, class: "map-name", type: "text", maxlength: 100, value: cur.board ? cur.board.map.name || "" : "" });
    const reason = h("input", { id: `map-reason-${which}`, class: "map-reason", type: "text", maxlength: 200, placeholder: "例: ドアを壊した" });
    const who = h("select", { id: `map-who-${which}`, class: "map-who" },
      Object.values(cur.chars).map((c) => h("option", { value: c.id, text: c.name })));
    const painting = h("fieldset", { class: "brushes" },
      h("legend", { text: "マスを塗る（選んでからマップのマスを押す）" }),
      brushes.map((c) => h("label", { class: "brush" },
        h("input", { type: "radio", name: `map-brush-${which}`, value: c, checked: st.brush === c,
          onchange: () => { st.brush = c; st.placing = null; say(`${legend[c]}を塗ります。マスを選んでください`); redraw(); } }),
        h("span", { class: `swatch ${CELL_CLASS[c] || ""}`, "aria-hidden": "true", text: MARK[c] || "" }),
        ` ${legend[c]}`)));
    clear(editor,
      h("summary", { text: "マップを編集（GM）" }),
      cur.board ? [
        painting,
        h("div", { class: "row" },
          h("label", { class: "field", for: reason.id }, h("span", { class: "fname", text: "理由（ログに残る）" }), reason),
          h("button", { type: "button", class: "primary", "data-testid": "map-save", disabled: !st.draft,
            onclick: () => send({ type: "nstrpg.edit_map", cells: changedCells(), reason: reason.value.trim() },
              () => { const n = changedCells().length; st.draft = null; st.brush = null; say(`マップを保存しました（${n}マス）`); }),
            text: "塗ったマスを保存" }),
          h("button", { type: "button", disabled: !st.draft && !st.brush,
            onclick: () => { st.draft = null; st.brush = null; say("塗るのをやめました"); redraw(); }, text: "塗るのをやめる" })),
        Object.keys(cur.chars).length ? h("div", { class: "row" },
          h("label", { class: "field", for: who.id }, h("span", { class: "fname", text: "キャラクターを置く・動かす" }), who),
          h("button", { type: "button", onclick: () => { st.placing = who.value; st.brush = null; say(`${cur.ctx.name(who.value)}を置くマスを選んでください`); redraw(); }, text: "マスを選んで置く" }),
          h("button", { type: "button", onclick: () => send({ type: "nstrpg.place", character_id: who.value, at: null, reason: reason.value.trim() }, () => say(`${cur.ctx.name(who.value)}をマップから外しました`)), text: "マップから外す" })) : null,
      ] : null,
      h("label", { class: "field", for: text.id }, h("span", { class: "fname", text: `テキスト（1文字が1マス、1行が横一列: ${brushes.map((c) => `${c} ${legend[c]}`).join("、")}）` }), text),
      h("label", { class: "field", for: name.id }, h("span", { class: "fname", text: "マップ名" }), name),
      h("button", { type: "button", "data-testid": "map-from-text",
        onclick: () => send({ type: "nstrpg.set_map", text: text.value, name: name.value.trim(), reason: reason.value.trim() || "テキストから作成" },
          () => { st.draft = null; say("テキストからマップを作りました"); }),
        text: "テキストからマップを作る" }));
  }

  function redraw(refocus = false) {
    head.hidden = !cur.board;
    help.hidden = !cur.board;
    help.textContent = cur.canAct ? HELP_ACT : HELP_WATCH;
    if (cur.board) drawGrid(refocus);
    else clear(scroll, cur.isGm ? h("p", { class: "muted", text: "まだマップがありません。下の「マップを編集」でテキストを貼るか、今できる手の「マップを設定する」でサンプルを選んでください。" }) : null);
    if (!cur.board && cur.isGm && !editor.dataset.shown) editor.open = true; // a GM without a map: the editor first
    editor.dataset.shown = cur.isGm ? "1" : "";
    drawMoveBar();
    drawSight();
    status.textContent = st.note;
    // the editor's fields are rebuilt only when what they show changes, not on every paint
    const sig = JSON.stringify([cur.isGm, cur.board && cur.board.map, Object.keys(cur.legend), Boolean(st.draft), st.brush, Object.keys(cur.chars)]);
    if (sig !== editor.dataset.sig) {
      // what the GM typed and where the focus was survive the rebuild
      const open = editor.open;
      const typed = [...editor.querySelectorAll("input[type=text][id], select[id]")].map((el) => [el.id, el.value]);
      const a = editor.contains(document.activeElement) ? document.activeElement : null;
      const again = a && (a.id ? `#${a.id}` : a.name ? `input[name='${a.name}'][value='${a.value}']` : null);
      drawEditor();
      for (const [id, v] of typed) {
        const el = editor.querySelector(`#${id}`);
        if (el && (el.tagName !== "SELECT" || [...el.options].some((o) => o.value === v))) el.value = v;
      }
      editor.open = open;
      editor.dataset.sig = sig;
      const back = again && editor.querySelector(again);
      if (back) back.focus();
    }
  }

  return {
    root,
    update(sv, ctx, { board, affordances, turn, info, isGm }) {
      const offer = board ? squareOffer(affordances) : null;
      const mapText = board ? board.map.rows.join("\n") : null;
      if (st.draft && st.draftOf !== mapText) st.draft = null; // the map changed under the draft
      if (!offer || (st.pathFor && st.pathFor !== `${offer.command}:${offer.cid}:${offer.key}`)) { st.path = []; st.direct = false; }
      const fighters = isObj(sv.game && sv.game.fighters) ? sv.game.fighters : {};
      const controls = (cid) => isGm || (sv.characters[cid] || {}).owner === (ctx.me || {}).member_id;
      const isPc = (cid) => (((sv.characters[cid] || {}).sheet || {}).kind || "pc") === "pc";
      const ally = (a, b) => Boolean(a && b) && a !== b && isPc(a) === isPc(b); // NSTRPG's two sides
      // a new 手番 (or the gap between two): the last one's note goes
      const turnNow = turnKey(turn);
      if (st.noteTurn !== null && st.noteTurn !== turnNow) st.note = "";
      st.noteTurn = turnNow;
      cur = {
        ctx, board, offer, turn, isGm, info, affordances,
        // who may act here: the live view of a GM or a player (a spectator and the replay only watch)
        canAct: Boolean(ctx.live && ctx.send && ctx.me && ctx.me.role !== "spectator"),
        legend: legendOf(info),
        tokens: board ? tokensOf(sv, board) : [],
        controls, ally,
        targets: board && ctx.live ? sightLines(affordances, sv.game.board.sight, controls, ally) : [],
        moverIsPc: Boolean(offer && (((sv.characters[offer.cid] || {}).sheet || {}).kind || "pc") === "pc"),
        diagonal: Boolean(offer && offer.kind === "move" && board && offer.cid in board.sokuten),
        chars: Object.fromEntries(Object.entries(sv.characters).filter(([cid]) => cid in fighters)),
      };
      if (st.chosenTarget && !cur.targets.some((t) => t.cid === st.chosenTarget)) st.chosenTarget = null;
      drawTracker();
      redraw();
    },
  };
}
