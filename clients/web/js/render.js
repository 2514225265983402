// Rendering helpers: a tiny DOM builder, log lines with dice faces, value trees.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

// Every {sides, faces} object inside an event (a Roll of the core or of a ruleset).
export function findRolls(data, out = []) {
  if (Array.isArray(data)) data.forEach((d) => findRolls(d, out));
  else if (data && typeof data === "object") {
    if (Array.isArray(data.faces) && typeof data.sides === "number") out.push(data);
    else Object.values(data).forEach((d) => findRolls(d, out));
  }
  return out;
}

// a word followed by ":" is a count (BCDice's "サツバツ！:1[6]" counts sixes), not the event itself
const CRIT = /(クリティカル|決定的成功|タツジン|6ゾロ|ゴウランガ|サツバツ|ナムアミダブツ|スペシャル)(?![！!]*:)/;
const FUMBLE = /ファンブル|1ゾロ|ウカツ|大失敗|致命的失敗|自動失敗/;

// "crit" | "fumble" | "success" | "failure" | "" for an event message. Success and
// failure are the frame's `outcome`, which the server reads from the event's own fields
// (absent when the event has none: a table roll gets no badge, a Wasshoi! that reads
// 判定成功 is a success); critical and fumble are the event's own flags or its line's words.
export function outcome(msg) {
  const d = msg.event || {};
  const told = msg.outcome === "success" || msg.outcome === "failure" ? msg.outcome : "";
  let text = msg.text || "";
  // a comment is the player's words, not the result ("サツバツ狙い" is no サツバツ)
  if (typeof d.comment === "string" && d.comment) text = text.split(d.comment).join("");
  if (typeof d.label === "string" && d.label) text = text.split(d.label).join("");
  const flag = (v) => v === true || (typeof v === "string" && v !== "");
  if (told !== "failure" && (flag(d.critical) || flag(d.tatsujin) || flag(d.satsubatsu) || CRIT.test(text))) return "crit";
  if (told !== "success" && (d.fumble === true || d.ukatsu === true || FUMBLE.test(text))) return "fumble";
  return told;
}

const OUTCOME_LABEL = { crit: "クリティカル", fumble: "ファンブル", success: "成功", failure: "失敗" };

export function diceChips(rolls) {
  return rolls.map((r) =>
    h("span", { class: "roll", title: `${r.faces.length}D${r.sides}` },
      r.faces.map((f) =>
        h("span", {
          class: `die d${r.sides}${f === r.sides ? " max" : ""}${f === 1 ? " one" : ""}`,
          role: "img",
          "aria-label": `${r.sides}面ダイス ${f}`,
          text: String(f),
        }))));
}

// Times in the browser's own time zone (the page's header names it).
export const TIME_ZONE = (() => {
  try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch { return ""; }
})();

export function timeOf(iso) {
  const d = new Date(iso || "");
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleTimeString("ja-JP", { hour: "2-digit", minute: "2-digit" });
}

export function dateTimeOf(iso) {
  const d = new Date(iso || "");
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString("ja-JP", { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// One <li> of the log for an event message.
export function eventItem(msg, memberName = () => "") {
  const d = msg.event || {};
  const type = d.type || "?";
  const oc = outcome(msg);
  const rolls = findRolls(d);
  const kind = type === "chat_posted" ? "chat" : rolls.length ? "dice" : msg.redacted ? "hidden" : "system";
  const secret = d.secret === true;
  const li = h("li", {
    class: `ev ev-${kind}${oc ? " oc-" + oc : ""}${msg.redacted ? " redacted" : ""}${secret ? " secret" : ""}`,
    "data-seq": msg.seq,
    "data-type": type,
  },
  h("span", { class: "seq", text: `#${msg.seq}` }),
  h("time", { datetime: msg.time, text: timeOf(msg.time), title: `${dateTimeOf(msg.time)}（${TIME_ZONE}）` }),
  secret ? h("span", { class: "badge secret-badge", text: "シークレット" }) : null,
  msg.redacted ? h("span", { class: "badge hidden-badge", text: "非公開" }) : null,
  h("span", { class: "text", text: msg.text || type }),
  rolls.length ? h("span", { class: "dice" }, diceChips(rolls)) : null,
  oc ? h("span", { class: `badge oc oc-${oc}`, text: OUTCOME_LABEL[oc] }) : null);
  return dropDoubled(li);
}

// The server's text opens with "[情報] ", "[シークレット] ", "[内緒話→乙] " (for exports and
// the terminal); a badge on the line says the same, so the line shows it once: the badge.
export function dropDoubled(li) {
  const text = li.querySelector(".text");
  if (!text) return li;
  const badges = new Set([...li.querySelectorAll(".badge")].map((b) => b.textContent));
  let t = text.textContent;
  let m;
  while ((m = /^\[([^\]]+)\] ?/.exec(t)) && badges.has(m[1])) t = t.slice(m[0].length);
  // a redacted line's "（非公開: シークレットダイス）": its badge already says 非公開
  if (badges.has("非公開")) t = t.replace(/（非公開: ?([^）]*)）/g, "（$1）");
  text.textContent = t;
  return li;
}

// A value as a tree: objects as definition lists (collapsible), arrays as lists.
// Leaves get data-path (the path from `game`/`characters`) so GM tools can use them
// (main.js makes them buttons on the GM's live page).
export function valueTree(value, path = [], names = {}) {
  if (value === null || value === undefined) return h("span", { class: "v-null", text: "—" });
  if (typeof value !== "object") {
    return h("span", {
      class: `leaf v-${typeof value}`,
      "data-path": JSON.stringify(path),
      text: typeof value === "boolean" ? (value ? "✔" : "✘") : String(value),
    });
  }
  // a list of plain values or an empty one is a leaf too (its path: the GM's override
  // form for a nested value)
  const at = path.length ? { "data-path": JSON.stringify(path) } : {};
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "leaf v-empty", ...at, text: "なし" });
    if (value.every((v) => v === null || typeof v !== "object")) {
      return h("span", { class: "leaf v-inline", ...at, text: value.map((v) => String(v)).join(", ") });
    }
    return h("ol", { class: "tree-list" }, value.map((v, i) => h("li", {}, valueTree(v, [...path, i], names))));
  }
  const keys = Object.keys(value);
  if (!keys.length) return h("span", { class: "leaf v-empty", ...at, text: "なし" });
  return h("dl", { class: "tree" },
    keys.map((k) => [
      h("dt", { text: names[k] ? `${names[k]}` : k, title: k }),
      h("dd", {}, valueTree(value[k], [...path, k], names)),
    ]));
}

export function download(filename, text, type) {
  const blob = new Blob([text], { type });
  const a = h("a", { href: URL.createObjectURL(blob), download: filename, hidden: true }); // no stop for the keyboard
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// An error as the page shows it: the server's message first, its stable code after it
// in smaller text (and as the tooltip), e.g. "roll at least one die (dice/invalid)".
export function errorNodes(e) {
  if (e && e.code && e.serverMessage !== undefined) {
    return [h("span", { class: "err-msg", text: e.serverMessage || e.code, title: e.code }), " ",
      h("small", { class: "err-code", text: e.code })];
  }
  return [String((e && e.message) || e)];
}
