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

// What a character card shows per ruleset: Japanese names for the keys the client
// knows (`labels`, over the common LABELS), keys that are internals (`hide`: never
// shown), value names (`values`: {key: {raw: shown}}) and the game view's sections
// (`sections`: {key: heading}, null hides the section). A key not listed keeps its
// raw name, so a ruleset that adds a value (or one the client does not know) still
// shows everything.
const YODOMI_CONDITION = { active: "通常", incapacitated: "戦闘不能", dead: "死亡", flow_death: "流れとしての死", yodomi_life: "澱みとしての生", vanished: "完全消滅" };
const YODOMI_PHASE = { preplay: "プリプレイ", scene: "シーン", scene_end: "シーン終了", between: "シーン間", finished: "終了" };

export const CARD = {
  nstrpg: {
    // the map shows each position (1-based, as the log names squares): not on the cards
    sections: { fighters: "戦闘中の値", derived: "算出値", last_roll: "直前の判定", "board.positions": null },
    labels: {
      tairyoku: "体力", seishin: "精神力", status: "状態", ability_damage: "能力値ダメージ", injuries: "部位損傷",
      injury_penalty: "部位損傷ペナルティ", quick_dice: "即応ダイス", emergency_dice: "緊急回避ダイス",
      evasion_dice: "回避ダイス", kuzure: "崩れ", shuchu: "集中", sokuten: "連続側転", adrenaline_used: "アドレナリン使用済",
      adrenaline_evasion: "アドレナリン(回避−1)", sixth_sense_used: "ニンジャ第六感使用済", equipped: "装備", boosts: "一時的な能力値変化",
      evasion_per_turn: "回避ダイス/ターン", initiative: "イニシアチブ", current: "現在の能力値", auto_skills: "自動スキル",
      kyakuryoku: "脚力", kind: "種類", stat: "能力値", pool: "ダイス数", difficulty: "難易度", success: "成功", rerolled: "振り直し済",
      evaded: "回避済", patterns: "出目", label: "メモ",
    },
    hide: ["ref", "purpose", "initiative_order", "looted"],
    values: {
      status: { active: "通常", fainted: "気絶", exploded: "爆発四散", removed: "退場", dead: "死亡" },
      kind: { check: "判定", attack: "攻撃", evade: "回避", evasion: "回避", opposed: "対抗判定" },
      stat: { karate: "カラテ", neuron: "ニューロン", wazamae: "ワザマエ", jitsu: "ジツ", kyakuryoku: "脚力", tairyoku: "体力", seishin: "精神力", dice: "固定ダイス" },
      difficulty: { 2: "KIDS", 3: "EASY", 4: "NORMAL", 5: "HARD", 6: "ULTRA-HARD", 7: "UH2", 8: "UH3", 9: "UH4" },
    },
  },
  chabu: {
    sections: { chars: null, status: null },
    labels: { dead: "死亡" },
  },
  hiden: {
    sections: { characters: "状態" },
    labels: { cp_from_zabuton: "座布団からのCP", incapacitated: "行動不能" },
  },
  yodomi: {
    sections: { chars: "状態", hands: "手札", introductions: "自己紹介", handouts: "ハンドアウト" },
    labels: {
      pp: "PP", sp: "SP", max_pp: "最大PP", side: "陣営", condition: "状態", acted: "行動", statuses: "バッドステータス",
      disabled_items: "使用不能アイテム", item_pp: "アイテムPP", kiwaza_by: "奇技", key_number: "キーナンバー", suit: "スート",
      paths: "パス", wealth: "財産点", flying: "飛行", stealth: "隠密", passenger_of: "同乗", in_scene: "登場中",
      appeared: "登場済", destroyed_sp: "破壊されたSP", count: "枚数", cards: "カード", recover_next_scene: "次シーンで回復",
      intuition_due: "直感把握", may_convert: "変換可", full_conversion_pending: "完全変換待ち",
    },
    hide: ["last_purchase_scene", "backstage_done", "backstage_recovered", "backstage_purchase_done", "backstage_skill_done",
      "path_done", "emotion_done", "cut_done", "receives_flow"],
    values: {
      side: { pc: "PC", npc: "NPC", enemy: "敵" },
      condition: YODOMI_CONDITION,
      acted: { none: "—", unacted: "未行動", acted: "行動済" },
    },
  },
  shadowjan: {
    sections: { players: "対局", scores: null },
    labels: {
      score: "点数", seat_roll: "席決めの出目", mentsu: "メンツ", declaration: "宣言", betaori: "ベタオリ", tairyoku: "体力",
      seishin: "精神力", status: "状態", ability_damage: "能力値ダメージ", evasion_dice: "回避ダイス", out: "脱落",
      slayer: "ニンジャスレイヤー",
    },
    hide: ["character_id", "declared_turns", "declared_at", "sixes", "karate_uses", "ikasama_uses", "tenho_ok", "turns"],
    values: {
      declaration: { riichi: "リーチ", dama: "ダマテン", damaten: "ダマテン" },
      status: { active: "通常", fainted: "気絶", exploded: "爆発四散", dead: "死亡" },
    },
  },
};

// A value as the card shows it: hidden keys dropped, empty or off values left out
// (the card shows what matters now), known values named.
function cardValue(v, spec, depth = 0) {
  if (!isObj(v) || depth > 3) return v;
  const hide = new Set(spec.hide || []);
  const names = spec.values || {};
  const out = {};
  for (const [k, x] of Object.entries(v)) {
    if (hide.has(k) || isEmpty(x)) continue;
    const named = names[k] && (typeof x === "string" || typeof x === "number") ? names[k][x] : undefined;
    out[k] = named !== undefined ? named : cardValue(x, spec, depth + 1);
  }
  return out;
}
const isEmpty = (v) => v === null || v === "" || v === false || (Array.isArray(v) && !v.length) || (isObj(v) && !Object.keys(v).length);

// The titles of a path of state keys from the ruleset's state_schema (the Structs' own
// Japanese titles), joined with " › "; null when some key has none.
function schemaPath(info, keys) {
  const schema = info && info.state_schema;
  const defs = (schema && schema.$defs) || {};
  const deref = (node) => {
    if (!isObj(node)) return null;
    if (typeof node.$ref === "string") return defs[node.$ref.split("/").pop()] || null;
    for (const alt of node.anyOf || []) { const d = deref(alt); if (d) return d; }
    return null;
  };
  let node = deref(schema);
  const titles = [];
  for (const k of keys) {
    const p = node && isObj(node.properties) ? node.properties[k] : null;
    if (!isObj(p) || !p.title) return null;
    titles.push(String(p.title));
    node = deref(p);
  }
  return titles.length ? titles.join(" › ") : null;
}

// The live values of a character found in the game view, as a compact list.
export function characterExtras(s, cid, ctx) {
  const spec = CARD[s.ruleset] || {};
  const sections = spec.sections || {};
  const labels = { ...LABELS, ...(spec.labels || {}) };
  // a ruleset with its own panel shows some sections there: those are left out here
  const found = byCharacter(s.game, cid).filter(({ path }) => !(hasPanel(s) && (sections[path[1]] === null || sections[path.slice(1, -1).join(".")] === null)));
  if (!found.length) return null;
  const parts = found.map(({ path, value }) => {
    const where = path.slice(1, -1).join(".");
    // a key the client does not name: the Japanese titles of the state schema ("board.sokuten" → "マップ › 連続側転成功")
    const heading = sections[where] ?? labels[where] ?? schemaPath(ctx && ctx.info, path.slice(1, -1)) ?? where;
    if (isObj(value) || Array.isArray(value)) {
      const shown = cardValue(value, spec);
      if (isEmpty(shown)) return null;
      return h("div", { class: "extra" }, h("div", { class: "extra-head", text: heading }), valueTree(shown, path, labels));
    }
    return h("dl", { class: "tree" }, h("dt", { text: heading, title: where }), h("dd", {}, valueTree(value, path)));
  }).filter(Boolean);
  return parts.length ? h("div", { class: "extras" }, parts) : null;
}

// The ruleset's moves now, from the state message's `affordances` (the server's own
// description: command, label, decided args, choices for the open ones), as
// {label, command}: one per combination of choices, at most `max` per affordance.
// The core's own actions (chat, roll, characters …, tags without a ".") have forms.
export function affordanceMoves(affordances, max = 48) {
  if (!Array.isArray(affordances)) return [];
  const out = [];
  for (const a of affordances) {
    if (!isObj(a) || typeof a.command !== "string" || !a.command.includes(".")) continue;
    let combos = [{ label: "", args: {} }];
    for (const [key, choices] of Object.entries(a.choices || {})) {
      if (!Array.isArray(choices) || !choices.length) continue;
      combos = combos.flatMap((c) => choices.map((ch) => ({
        label: c.label ? `${c.label}・${ch.label}` : String(ch.label),
        args: { ...c.args, [key]: ch.value },
      })));
    }
    for (const c of combos.slice(0, max)) {
      const args = Object.fromEntries(Object.entries({ ...(a.args || {}), ...c.args }).filter(([, v]) => v !== null));
      out.push({ label: c.label ? `${a.label}（${c.label}）` : a.label, command: { type: a.command, ...args }, primary: !!a.primary });
    }
  }
  return out;
}

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
  // the table wraps its cells to fit the side panel; should it still be wider, its
  // container scrolls sideways (focusable, with a shadow at the edge that hides columns)
  return h("div", { class: "grid-scroll", tabindex: "0", role: "region", "aria-label": "キャラクターの一覧" },
    h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, h("span", { class: "sr", text: "名前" })), cols.map(([label]) => h("th", {}, headLabel(label))))),
      h("tbody", {}, rows.map(([name, c, cid]) => h("tr", { "data-character": cid },
        h("th", { scope: "row", text: name }), cols.map(([label, f]) => h("td", { "data-label": label }, f(c))))))));
}

// A column's label, whole words on each line: the header keeps its words together
// (CSS keep-all) and may break only after a "/" or where kanji and katakana meet
// ("回避" "ダイス", "即応/" "緊急", never "回避ダ" "イス").
const script = (c) => (/[\u30a0-\u30ff]/.test(c) ? "kana" : /[\u3400-\u9fff]/.test(c) ? "kanji" : "");
function headLabel(label) {
  const out = [];
  let word = "";
  [...label].forEach((c, i, all) => {
    const prev = all[i - 1];
    if (word && (prev === "/" || (script(prev) && script(c) && script(prev) !== script(c)))) {
      out.push(word, h("wbr"));
      word = "";
    }
    word += c;
  });
  return [...out, word];
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
          return h("span", { class: "zabuton", role: "img", "aria-label": `座布団 ${n}枚` },
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
        get(g, "phase") ? h("span", { class: "muted", text: ` [${YODOMI_PHASE[g.phase] ?? g.phase}]` }) : null),
      h("div", { class: "hand", "data-testid": "my-hand" }, h("strong", { text: "あなたの手札（流れ）: " }),
        mine.length
          ? mine.map(([cid, hd]) => handOf(cid, hd.cards, ctx))
          : h("span", { class: "muted", text: "なし" })),
      charTable(rows, [
        ["PP", (c) => meter("", get(c, "pp"), get(c, "max_pp"), "hp")],
        ["SP", (c) => String(get(c, "sp") ?? "—")],
        ["状態", (c) => h("span", {}, c.condition && c.condition !== "active" ? h("span", { class: "chip bad", text: YODOMI_CONDITION[c.condition] ?? c.condition }) : null,
          chips(Object.entries(get(c, "statuses") || {}).map(([k, v]) => (v > 1 ? `${k}${v}` : k))))],
        ["パス", (c) => chips((get(c, "paths") || []).map((p) => `${ctx.name(p.target)}:${p.emotion}`))],
        ["手札", (c) => String(isObj(c._hand) ? c._hand.count : 0) + "枚"],
        ["キー", (c) => `${c.key_number ?? "—"}${c.suit || ""}`],
      ]),
      isObj(combat) ? h("p", { text: `ラウンド ${combat.round ?? "?"} ${combat.process || ""} 手番: ${combat.actor ? ctx.name(combat.actor) : "—"}` }) : null);
  },

  shadowjan(s, ctx) {
    // taku_shadowjan.view: players{cid: Player}, seats, scores, dealer, turn, multiplier,
    // phase, hand; whose move it is comes from the state message's `turn` (ctx.turn), the
    // moves from its `affordances` (buttons drawn by main.js).
    const g = s.game || {};
    const players = perCharacter(g, "players");
    const scores = perCharacter(g, "scores");
    const seats = Array.isArray(g.seats) && g.seats.length ? g.seats : Object.keys(players);
    const DECL = { riichi: "リーチ", dama: "ダマテン", damaten: "ダマテン", "": "—" };
    const PHASE = { lobby: "対局前", turn: "対局中", declare: "宣言", battle: "戦闘", ended: "終局" };
    const t = ctx.turn || {};
    const rows = seats.filter((cid) => players[cid] || scores[cid] !== undefined)
      .map((cid) => [
        `${ctx.name(cid)}${cid === g.dealer ? "（親）" : ""}${cid === t.actor || (!t.actor && cid === g.turn) ? " ◀" : ""}`,
        { ...(players[cid] || {}), _score: scores[cid] ?? (players[cid] || {}).score }, cid]);
    return h("div", {},
      h("p", {},
        h("strong", { text: `${PHASE[g.phase] ?? g.phase ?? ""}${t.round_label ? ` ${t.round_label}` : g.hand ? ` 第${g.hand}局` : ""}` }),
        g.multiplier > 1 ? h("span", { class: "chip bad", text: ` ×${g.multiplier}` }) : null,
        t.actor ? h("span", { text: ` 手番: ${t.actor_label || ctx.name(t.actor)}${t.phase_label ? `（${t.phase_label}）` : ""}` }) : null),
      charTable(rows, [
        ["点数", (p) => h("span", { class: "big score", text: String(p._score ?? "—") })],
        ["メンツ", (p) => h("span", { class: "mentsu", role: "img", "aria-label": `メンツ ${p.mentsu ?? 0}` },
          Array.from({ length: Math.max(0, Math.min(Number(p.mentsu) || 0, 4)) }, () => h("span", { class: "tile" })),
          ` ${p.mentsu ?? 0}`)],
        ["宣言", (p) => h("span", { class: p.declaration ? "chip bad" : "muted", text: DECL[p.declaration || ""] ?? p.declaration })],
        ["体力", (p) => String(p.tairyoku ?? "—")],
        ["DKK", (p) => String(p.dkk ?? 0)],
        ["状態", (p) => chips([p.status && p.status !== "active" ? ({ fainted: "気絶", exploded: "爆発四散", dead: "死亡" }[p.status] ?? p.status) : "", p.out ? "脱落" : "", p.betaori ? "ベタオリ" : "", p.slayer ? "ニンジャスレイヤー" : ""].filter(Boolean))],
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

// yodomi (YD-22〜): a hand drawn as cards; the cards the state message's affordances let
// this character play on its latest check are highlighted buttons: a click picks one
// (or more), "出す" plays them on that check; パス (yodomi.pass_cards) plays none and
// settles the check as rolled for everyone.
function handOf(cid, list, ctx) {
  const plays = (ctx.affordances || []).filter((a) => a.command === "yodomi.play_cards" && a.args
    && (!a.group || a.group === ctx.name(cid) || String(a.label).startsWith(`${ctx.name(cid)}:`))
    && Array.isArray((a.choices || {}).cards));
  const play = plays[0];
  const legal = new Set(play ? play.choices.cards.map((c) => String(c.value)) : []);
  const picked = new Set();
  const send = play && ctx.send ? h("button", { type: "button", class: "move", disabled: true, "data-action": "play-cards",
    text: "選んだ「流れ」を出す", onclick: () => {
      ctx.send({ type: "yodomi.play_cards", ...play.args, cards: [...picked] }).catch(() => {});
    } }) : null;
  const shown = list.map((c) => {
    const code = isObj(c) ? String(c.code || c.label || c.name || "") : String(c);
    const face = cardFace(code);
    if (!legal.has(code) || !ctx.send) return h("span", { class: `playing-card${face.red ? " red" : ""}`, role: "img", "aria-label": face.name }, face.nodes);
    const b = h("button", { type: "button", class: `playing-card legal${face.red ? " red" : ""}`, "aria-pressed": "false",
      "aria-label": `${face.name}（出せる）`, "data-card": code, onclick: () => {
        if (picked.has(code)) picked.delete(code); else picked.add(code);
        b.setAttribute("aria-pressed", String(picked.has(code)));
        send.disabled = !picked.size;
      } }, face.nodes);
    return b;
  });
  return h("div", { class: "hand-of", "data-character": cid },
    h("span", { text: `${ctx.name(cid)}: ` }), h("span", { class: "cards-row" }, shown),
    // the check's id on the node: a panel equal to the one shown is kept (main.js), and its
    // buttons must then be for the same check
    play && ctx.send ? h("div", { class: "hand-play", "data-check": play.args.check_id }, h("small", { text: play.label }), send,
      h("button", { type: "button", "data-action": "pass", text: "パス（出さない）",
        title: "この判定に「流れ」を出さず、出目のままの結果で確定します",
        onclick: () => { ctx.send({ type: "yodomi.pass_cards", check_id: play.args.check_id }).catch(() => {}); } })) : null);
}

const SUIT_NAME = { "♠": "スペード", "♥": "ハート", "♦": "ダイヤ", "♣": "クラブ" };

// "♦10" -> the suit and rank drawn apart, and its name for a screen reader (ダイヤの10)
function cardFace(code) {
  const m = /^([♠♥♦♣])(.+)$/.exec(code);
  if (!m) {
    const joker = /^JK(\d*)$/.exec(code);
    return { red: false, name: joker ? `ジョーカー${joker[1]}` : code, nodes: [h("span", { class: "rank", text: joker ? "JK" : code })] };
  }
  return { red: m[1] === "♥" || m[1] === "♦", name: `${SUIT_NAME[m[1]]}の${m[2]}`,
    nodes: [h("span", { class: "suit", text: m[1] }), h("span", { class: "rank", text: m[2] })] };
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
