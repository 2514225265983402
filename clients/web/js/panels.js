// Per-ruleset panels, drawn from the ruleset's own view of its state
// (`state.game`). Every function here is tolerant of missing keys: a ruleset
// that changes its state, or one that is not known here, still gets the
// generic panels (characters with their live values, the state tree, forms).

import { h, valueTree } from "./render.js";

// ------------------------------------------------------------------ generic helpers

const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const get = (o, ...keys) => {
  for (const k of keys) if (isObj(o) && o[k] !== undefined && o[k] !== null) return o[k];
  return undefined;
};

// Every place in the game view keyed by this character id: [{path, value}].
function byCharacter(game, cid, path = ["game"], depth = 0, out = []) {
  if (!isObj(game) || depth > 3) return out;
  for (const [k, v] of Object.entries(game)) {
    if (k === cid) out.push({ path: [...path, k], value: v });
    else if (isObj(v)) byCharacter(v, cid, [...path, k], depth + 1, out);
  }
  return out;
}

function numericLeaves(value, path, out, label, depth = 0) {
  if (typeof value === "number") out.push({ path, label });
  else if (isObj(value) && depth < 2) {
    for (const [k, v] of Object.entries(value)) numericLeaves(v, [...path, k], out, label ? `${label}.${k}` : k, depth + 1);
  }
  return out;
}

// Numeric values tied to a character (for the GM's award tool).
export function numericPaths(s, cid) {
  const out = [];
  for (const { path, value } of byCharacter(s.game, cid)) {
    const where = path.slice(1, -1).join(".");
    numericLeaves(value, path, out, typeof value === "number" ? where : "");
  }
  const sheet = (s.characters[cid] || {}).sheet || {};
  for (const [k, v] of Object.entries(sheet)) if (typeof v === "number") out.push({ path: ["characters", cid, "sheet", k], label: `sheet.${k}` });
  return out;
}

// The live values of a character found in the game view, as a compact list.
export function characterExtras(s, cid, ctx) {
  const found = byCharacter(s.game, cid);
  if (!found.length) return null;
  // leave out what is empty or off, so the card shows what matters now
  const empty = (v) => v === null || v === "" || v === false || (Array.isArray(v) && !v.length) || (isObj(v) && !Object.keys(v).length);
  const compact = (v) => (isObj(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => !empty(x))) : v);
  return h("div", { class: "extras" }, found.map(({ path, value }) => {
    const where = path.slice(1, -1).join(".");
    return isObj(value) || Array.isArray(value)
      ? valueTree(compact(value), path, LABELS)
      : h("dl", { class: "tree" }, h("dt", { text: LABELS[where] || where }), h("dd", {}, valueTree(value, path)));
  }));
}

// The moves a view lists as legal now, as {label, command}: `legal_moves`,
// `legal` or `moves` lists of commands (objects with a "type").
export function legalMoves(game) {
  const list = get(game, "legal_moves", "legal", "moves", "available");
  if (!Array.isArray(list)) return [];
  return list.filter((m) => isObj(m)).map((m) => {
    const command = isObj(m.command) ? m.command : m;
    if (typeof command.type !== "string") return null;
    const label = m.label || command.label || moveLabel(command);
    const { label: _l, ...cmd } = command;
    return { label, command: cmd };
  }).filter(Boolean);
}

function moveLabel(cmd) {
  const verb = cmd.type.split(".").pop();
  const args = Object.entries(cmd).filter(([k]) => k !== "type").map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`);
  return `${VERBS[verb] || verb}${args.length ? " " + args.join(" ") : ""}`;
}

const VERBS = {
  draw: "ツモ", discard: "打牌", riichi: "リーチ", ron: "ロン", tsumo: "ツモ和了", pass: "パス",
  play: "出す", declare: "宣言", attack: "攻撃", evade: "回避", end_turn: "ターン終了",
};

// Japanese labels for common state keys (anything else shows its key).
export const LABELS = {
  hp: "体力", max_hp: "最大体力", seishin: "精神力", seishinryoku: "精神力", max_seishin: "最大精神力",
  dkk: "DKK", karate: "カラテ", neuron: "ニューロン", wazamae: "ワザマエ", jitsu: "ジツ",
  evasion_dice: "回避ダイス", kaihi: "回避ダイス", states: "状態", conditions: "状態", turn_order: "手番順",
  initiative: "イニシアチブ", round: "ラウンド", turn: "手番", phase: "フェイズ",
  ingaoho: "インガオホー値", dl: "DL", counters: "カウンター", tatsujin: "タツジンカウンター",
  zabuton: "座布団", hand: "手札", pass: "パス", passes: "パス", scene: "シーン", scenes: "シーン",
  scores: "点数", score: "点数", points: "点数", mentsu: "メンツ", declaration: "宣言", declared: "宣言",
  wall: "山", dora: "ドラ", discards: "捨て牌",
};

// ------------------------------------------------------------------ small widgets

function meter(label, value, max, cls = "") {
  const v = Number(value);
  const m = Number(max);
  return h("div", { class: `meter ${cls}` },
    h("span", { class: "m-label", text: label }),
    Number.isFinite(m) && m > 0
      ? h("progress", { value: Math.max(0, v), max: m, "aria-label": label })
      : null,
    h("span", { class: "m-value", text: Number.isFinite(m) && m > 0 ? `${value} / ${max}` : String(value ?? "—") }));
}

function chips(list, cls = "chip") {
  if (!Array.isArray(list) || !list.length) return h("span", { class: "muted", text: "なし" });
  return h("span", { class: "chips" }, list.map((x) => h("span", { class: cls, text: isObj(x) ? (x.name || x.label || JSON.stringify(x)) : String(x) })));
}

function perCharacter(game, ...keys) {
  const m = get(game, ...keys);
  return isObj(m) ? m : {};
}

function charTable(rows, cols) {
  if (!rows.length) return h("p", { class: "muted", text: "キャラクターがいません" });
  return h("table", { class: "grid" },
    h("thead", {}, h("tr", {}, h("th", { text: "" }), cols.map(([label]) => h("th", { text: label })))),
    h("tbody", {}, rows.map(([name, c, cid]) => h("tr", { "data-character": cid },
      h("th", { scope: "row", text: name }), cols.map(([, f]) => h("td", {}, f(c)))))));
}

function turnOrder(list, ctx, current) {
  if (!Array.isArray(list) || !list.length) return null;
  return h("ol", { class: "turn-order", "aria-label": "手番順" }, list.map((x) => {
    const id = isObj(x) ? (x.character_id || x.id) : x;
    return h("li", { class: id === current ? "current" : "", text: isObj(x) && x.name ? x.name : ctx.name(id) });
  }));
}

// ------------------------------------------------------------------ rulesets

const PANELS = {
  nstrpg(s, ctx) {
    // taku_nstrpg.view: fighters{cid: Fighter}, derived{cid: {evasion_per_turn,
    // initiative_order, …}}, combat, turn, atmosphere, pending hits, wasshoi_due.
    const g = s.game || {};
    const fighters = perCharacter(g, "fighters", "characters");
    const derived = perCharacter(g, "derived");
    const sheet = (cid) => (s.characters[cid] || {}).sheet || {};
    const STATUS = { active: "", fainted: "気絶", exploded: "爆発四散", removed: "退場", dead: "死亡" };
    const rows = Object.entries(fighters).map(([cid, f]) => [ctx.name(cid), { ...f, _cid: cid }, cid]);
    const order = Object.keys(fighters).filter((cid) => derived[cid])
      .sort((a, b) => (derived[b].initiative_order ?? 0) - (derived[a].initiative_order ?? 0));
    const pending = Object.values(perCharacter(g, "pending"));
    return h("div", {},
      h("p", {},
        h("strong", { text: g.combat ? `戦闘中 ターン ${g.turn ?? "?"}` : "探索" }),
        g.atmosphere && g.atmosphere !== "normal" ? h("span", { class: "chip", text: ` 雰囲気: ${g.atmosphere}` }) : null,
        g.wasshoi_due ? h("span", { class: "chip bad", text: " Wasshoi!" }) : null,
        g.money_pool ? h("span", { class: "muted", text: ` 万札プール ${g.money_pool}` }) : null),
      charTable(rows, [
        ["体力", (f) => meter("", f.tairyoku, sheet(f._cid).tairyoku, "hp")],
        ["精神力", (f) => meter("", f.seishin, sheet(f._cid).seishin, "mp")],
        ["回避ダイス", (f) => h("span", { class: "big evasion", text: `${f.evasion_dice ?? "—"}` },
          derived[f._cid] ? h("small", { text: ` /${derived[f._cid].evasion_per_turn}` }) : null)],
        ["即応/緊急", (f) => `${f.quick_dice ?? 0} / ${f.emergency_dice ?? 0}`],
        ["DKK", (f) => h("span", { class: "big dkk", text: String(f.dkk ?? 0) })],
        ["状態", (f) => chips([
          STATUS[f.status] ?? f.status, f.kuzure ? "崩れ" : "", f.shuchu ? "集中" : "", f.sokuten ? "連続側転" : "",
          f.adrenaline_used ? "アドレナリン済" : "",
          ...Object.entries(f.injuries || {}).map(([k, n]) => `●${k}${n > 1 ? "×" + n : ""}`),
        ].filter(Boolean))],
      ]),
      order.length ? h("div", {}, h("strong", { text: "手番順（イニシアチブ）" }),
        h("ol", { class: "turn-order", "aria-label": "手番順" },
          order.map((cid) => h("li", { text: `${ctx.name(cid)} (${derived[cid].initiative})` })))) : null,
      pending.length ? h("div", { class: "pending" }, h("strong", { text: "回避待ち" }),
        h("ul", {}, pending.map((p) => h("li", { text: `${ctx.name(p.target)} ← ${p.attacker ? ctx.name(p.attacker) : "?"}: ダメージ${p.damage}${p.critical ? "（" + p.critical + "）" : ""}` }))),
        evadeButtons(s, ctx, pending, fighters)) : null);
  },

  chabu(s, ctx) {
    // taku_chabu.view: chars{cid: {hp, ingaoho, tatsujin, wazamae, dead}}, status{cid},
    // turn (the acting character), combat.round.order, pending declaration.
    const g = s.game || {};
    const chars = perCharacter(g, "chars", "characters");
    const status = perCharacter(g, "status");
    const sheet = (cid) => (s.characters[cid] || {}).sheet || {};
    const rows = Object.entries(chars).map(([cid, c]) => [ctx.name(cid), { ...c, _cid: cid }, cid]);
    const round = isObj(g.combat) ? g.combat.round : null;
    const pending = isObj(g.pending) ? g.pending : null;
    return h("div", {},
      charTable(rows, [
        ["HP", (c) => meter("", c.hp, sheet(c._cid).hp, "hp")],
        ["インガオホー値", (c) => meter("", c.ingaoho, 100, "ingaoho")],
        ["DL", (c) => String(sheet(c._cid).dl ?? "—")],
        ["カウンター", (c) => h("span", { class: "chips" },
          h("span", { class: "chip", text: `タツジン ${c.tatsujin ?? 0}` }),
          h("span", { class: "chip", text: `ワザマエ ${c.wazamae ?? 0}` }))],
        ["状態", (c) => {
          const STATUS = { shibou: "死亡", sentoufunou: "戦闘不能", koudoukanryou: "行動完了", mikoudou: "未行動" };
          const st = status[c._cid];
          return chips([st ? STATUS[st] || st : c.dead ? "死亡" : ""].filter(Boolean));
        }],
      ]),
      isObj(round) ? h("div", {}, h("strong", { text: `ラウンド ${round.number}` }),
        turnOrder(round.order, ctx, g.turn)) : null,
      pending ? h("p", { class: "pending", text: `宣言: ${ctx.name(pending.actor)} ${pending.label || pending.kind}${(pending.awaiting || []).length ? " — 回避待ち: " + pending.awaiting.map(ctx.name).join("、") : ""}` }) : null);
  },

  hiden(s, ctx) {
    // taku_hiden.view: characters{cid: {zabuton, cp_from_zabuton, conditions, incapacitated}}, checks.
    const g = s.game || {};
    const chars = perCharacter(g, "characters", "chars");
    const rows = Object.entries(chars).map(([cid, c]) => [ctx.name(cid), c, cid]);
    const open = Object.values(perCharacter(g, "checks"));
    return h("div", {},
      charTable(rows, [
        ["座布団", (c) => {
          const n = Number(get(c, "zabuton") ?? 0);
          return h("span", { class: "zabuton", "aria-label": `座布団 ${n}枚` },
            Array.from({ length: Math.max(0, Math.min(n, 10)) }, () => h("span", { class: "zab" })), ` ${n}`);
        }],
        ["状態", (c) => chips([...(c.conditions || []), c.incapacitated ? "行動不能" : ""].filter(Boolean))],
      ]),
      open.length ? h("p", { class: "muted", text: `進行中の判定: ${open.length}` }) : null);
  },

  yodomi(s, ctx) {
    // taku_yodomi.view: chars{cid: CharState}, hands{cid: {count, cards?}} (cards only
    // for the hand's owner), scene {number, kind, scene_player, present}, combat.
    const g = s.game || {};
    const chars = perCharacter(g, "chars", "characters");
    const hands = perCharacter(g, "hands");
    const scene = get(g, "scene", "current_scene");
    const KIND = { opening: "オープニング", middle: "ミドル", climax: "クライマックス", ending: "エンディング" };
    const rows = Object.entries(chars).map(([cid, c]) => [ctx.name(cid), { ...c, _hand: hands[cid] }, cid]);
    const mine = Object.entries(hands).filter(([, hd]) => isObj(hd) && Array.isArray(hd.cards));
    const combat = get(g, "combat");
    return h("div", {},
      h("p", { class: "scene" }, h("strong", { text: "シーン: " }),
        isObj(scene)
          ? `${scene.number ?? ""} ${KIND[scene.kind] || scene.kind || ""}（シーンプレイヤー: ${ctx.name(scene.scene_player)}）`
            + (Array.isArray(scene.present) && scene.present.length ? ` 登場: ${scene.present.map(ctx.name).join("、")}` : "")
          : (scene ? String(scene) : "—"),
        get(g, "phase") ? h("span", { class: "muted", text: ` [${g.phase}]` }) : null),
      h("div", { class: "hand", "data-testid": "my-hand" }, h("strong", { text: "あなたの手札（流れ）: " }),
        mine.length
          ? mine.map(([cid, hd]) => h("div", {}, h("span", { text: `${ctx.name(cid)}: ` }), cards(hd.cards)))
          : h("span", { class: "muted", text: "なし" })),
      charTable(rows, [
        ["PP", (c) => meter("", get(c, "pp"), get(c, "max_pp"), "hp")],
        ["SP", (c) => String(get(c, "sp") ?? "—")],
        ["状態", (c) => h("span", {}, c.condition && c.condition !== "active" ? h("span", { class: "chip bad", text: c.condition }) : null,
          chips(Object.entries(get(c, "statuses") || {}).map(([k, v]) => (v > 1 ? `${k}${v}` : k))))],
        ["パス", (c) => chips((get(c, "paths") || []).map((p) => `${ctx.name(p.target)}:${p.emotion}`))],
        ["手札", (c) => String(isObj(c._hand) ? c._hand.count : 0) + "枚"],
        ["キー", (c) => `${c.key_number ?? "—"}${c.suit || ""}`],
      ]),
      isObj(combat) ? h("p", { text: `ラウンド ${combat.round ?? "?"} ${combat.process || ""} 手番: ${combat.actor ? ctx.name(combat.actor) : "—"}` }) : null);
  },

  shadowjan(s, ctx) {
    // taku_shadowjan.view: players{cid: Player}, seats, scores, dealer, turn, to_move,
    // step, multiplier, phase, hand; legal_moves are the buttons (drawn by main.js).
    const g = s.game || {};
    const players = perCharacter(g, "players");
    const scores = perCharacter(g, "scores");
    const seats = Array.isArray(g.seats) && g.seats.length ? g.seats : Object.keys(players);
    const DECL = { riichi: "リーチ", dama: "ダマテン", damaten: "ダマテン", "": "—" };
    const rows = seats.filter((cid) => players[cid] || scores[cid] !== undefined)
      .map((cid) => [
        `${ctx.name(cid)}${cid === g.dealer ? "（親）" : ""}${cid === g.to_move || cid === g.turn ? " ◀" : ""}`,
        { ...(players[cid] || {}), _score: scores[cid] ?? (players[cid] || {}).score }, cid]);
    return h("div", {},
      h("p", {},
        h("strong", { text: `${g.phase || ""}${g.hand ? ` 第${g.hand}局` : ""}` }),
        g.multiplier > 1 ? h("span", { class: "chip bad", text: ` ×${g.multiplier}` }) : null,
        g.to_move ? h("span", { text: ` 手番: ${ctx.name(g.to_move)}${g.step ? `（${g.step}）` : ""}` }) : null),
      charTable(rows, [
        ["点数", (p) => h("span", { class: "big score", text: String(p._score ?? "—") })],
        ["メンツ", (p) => h("span", { class: "mentsu", "aria-label": `メンツ ${p.mentsu ?? 0}` },
          Array.from({ length: Math.max(0, Math.min(Number(p.mentsu) || 0, 4)) }, () => h("span", { class: "tile" })),
          ` ${p.mentsu ?? 0}`)],
        ["宣言", (p) => h("span", { class: p.declaration ? "chip bad" : "muted", text: DECL[p.declaration || ""] ?? p.declaration })],
        ["体力", (p) => String(p.tairyoku ?? "—")],
        ["DKK", (p) => String(p.dkk ?? 0)],
        ["状態", (p) => chips([p.status && p.status !== "active" ? p.status : "", p.out ? "脱落" : "", p.betaori ? "ベタオリ" : "", p.slayer ? "ニンジャスレイヤー" : ""].filter(Boolean))],
      ]));
  },
};

// NSTRPG 2-11 回避判定: for each of my characters with hits waiting, spend 回避ダイス
// (1 … what is left) on all of them at once, or take them (0 dice).
function evadeButtons(s, ctx, pending, fighters) {
  if (!ctx.send) return null;
  const byTarget = {};
  for (const p of pending) (byTarget[p.target] ||= []).push(p.id);
  const mine = Object.keys(byTarget).filter((cid) => ctx.me.role === "gm" || (s.characters[cid] || {}).owner === ctx.me.member_id);
  if (!mine.length) return null;
  return h("div", { class: "evade", role: "group", "aria-label": "回避判定" }, mine.map((cid) => {
    const left = Number((fighters[cid] || {}).evasion_dice || 0);
    const send = (dice) => ctx.send({ type: "nstrpg.evade", defender: cid, hits: byTarget[cid], dice }).catch(() => {});
    return h("div", {}, h("span", { text: `${ctx.name(cid)}: ` }),
      Array.from({ length: left }, (_, i) => h("button", { type: "button", class: "move", text: `回避 ${i + 1}ダイス`, onclick: () => send(i + 1) })),
      h("button", { type: "button", text: "受ける", onclick: () => send(0) }));
  }));
}

export function cards(list) {
  return h("span", { class: "cards-row" }, list.map((c) => {
    const text = isObj(c) ? (c.label || c.name || `${c.suit || ""}${c.rank ?? c.value ?? ""}`) : String(c);
    const red = /[♥♦]|heart|diamond/i.test(text) || (isObj(c) && /heart|diamond|♥|♦/i.test(String(c.suit)));
    return h("span", { class: `playing-card${red ? " red" : ""}`, text });
  }));
}

export function hasPanel(s) {
  return Boolean(PANELS[s.ruleset]) && s.game !== null && s.game !== undefined;
}

// The ruleset's own panel for a state, or null when there is none.
export function rulesetPanel(rulesetId, s, ctx) {
  const f = PANELS[rulesetId];
  if (!f || s.game === null || s.game === undefined) return null;
  try {
    return f(s, ctx);
  } catch (e) {
    console.error(e);
    return null; // a view that changed shape: the generic panels still show it
  }
}
