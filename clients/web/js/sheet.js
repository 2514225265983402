// The character sheet form: built from the ruleset's sheet_schema (list_rulesets), with
// the ruleset's templates to start from (sheet_templates), validation in Japanese
// before sending, and import / export in ココフォリア's clipboard character format
// ({"kind": "character", "data": {name, memo, status, params, commands …}}).

import { h } from "./render.js";
import { structFields, fieldFor, resolve, isObj } from "./forms.js";

// The sheet's top-level object schema (a free map when the ruleset checks none).
function sheetRoot(info) {
  const root = (info && info.sheet_schema) || {};
  const s = resolve(root, root);
  return { root, s: s.properties ? s : null };
}

// A label compared loosely: 【カラテ】, ｶﾗﾃ, "カラテ " are one name.
const norm = (t) => String(t || "").normalize("NFKC").replace(/[【】〈〉《》「」\s●]/g, "").toLowerCase();

const nonNull = (p, root) => {
  const s = resolve(p, root);
  if (!s.anyOf) return s;
  const rest = s.anyOf.filter((a) => resolve(a, root).type !== "null");
  return rest.length === 1 ? resolve(rest[0], root) : s;
};

// ココフォリアの駒 from a character: every number and text of the sheet becomes a
// parameter ({カラテ} in a palette), maps (能力値, 技能) one parameter per entry; the
// live values the ruleset keeps for it (体力, 精神力 … numbers of the game view) become
// status bars with the sheet's value as their maximum.
export function toCcfolia(character, info, live = {}, palette = "") {
  const { root, s } = sheetRoot(info);
  const sheet = character.sheet || {};
  const params = [];
  const status = [];
  const props = s ? s.properties : {};
  for (const [k, v] of Object.entries(sheet)) {
    const p = props[k] ? nonNull(props[k], root) : {};
    const title = (props[k] && props[k].title) || p.title || k;
    const label = String(title).replace(/[【】]/g, "");
    if (typeof v === "number" || typeof v === "string") {
      if (v === "" || k === "notes") continue;
      params.push({ label, value: String(v) });
    } else if (isObj(v) && Object.values(v).every((x) => typeof x === "number" || typeof x === "string")) {
      for (const [name, x] of Object.entries(v)) params.push({ label: name, value: String(x) });
    }
  }
  for (const [k, v] of Object.entries(live)) {
    if (typeof v !== "number") continue;
    const p = props[k] ? nonNull(props[k], root) : {};
    const title = String((props[k] && props[k].title) || p.title || k).replace(/[【】]/g, "");
    const max = typeof sheet[k] === "number" ? sheet[k] : v;
    status.push({ label: title, value: v, max });
  }
  return {
    kind: "character",
    data: {
      name: character.name,
      memo: typeof sheet.notes === "string" ? sheet.notes : "",
      initiative: 0,
      externalUrl: "",
      status,
      params,
      commands: palette,
    },
  };
}

// A character (name, sheet) from ココフォリアの駒 text: a parameter or status whose label
// names a sheet field (its title or key) sets it; one that names none goes into the
// sheet's map of numbers titled 能力値, when it has one (else it is named as unused). Returns {name, sheet, unused}.
export function fromCcfolia(text, info) {
  let doc;
  try { doc = JSON.parse(text); } catch { throw new Error("ココフォリアの駒データとして読めません（コピーした内容をそのまま貼り付けてください）"); }
  if (!isObj(doc) || doc.kind !== "character" || !isObj(doc.data)) throw new Error("ココフォリアのキャラクターデータではありません（kind が character のもの）");
  const d = doc.data;
  const { root, s } = sheetRoot(info);
  const props = s ? s.properties : {};
  const byLabel = new Map();
  let mapKey = null;
  for (const [k, p] of Object.entries(props)) {
    const r = nonNull(p, root);
    byLabel.set(norm(k), k);
    if (p.title) byLabel.set(norm(p.title), k);
    // only a map of 能力値 takes the unnamed ones: another map of numbers means something
    // else (nstrpg's 回避難易度修正 is keyed by damage kind)
    if (!mapKey && r.type === "object" && !r.properties && isObj(r.additionalProperties)
      && norm(p.title || r.title || k).includes("能力値")
      && ["integer", "number"].includes(resolve(r.additionalProperties, root).type)) mapKey = k;
  }
  const sheet = {};
  const unused = [];
  const entries = [...(Array.isArray(d.params) ? d.params : []), ...(Array.isArray(d.status) ? d.status : [])];
  for (const e of entries) {
    if (!isObj(e) || typeof e.label !== "string") continue;
    const raw = e.max !== undefined && e.max !== null && e.max !== "" ? e.max : e.value;
    const k = byLabel.get(norm(e.label));
    const num = Number(raw);
    if (k) {
      const r = nonNull(props[k], root);
      if (r.type === "integer" || r.type === "number") { if (Number.isFinite(num)) sheet[k] = num; else unused.push(e.label); }
      else if (r.type === "string" || r.enum) sheet[k] = String(raw);
      else unused.push(e.label);
    } else if (mapKey && Number.isFinite(num) && String(raw).trim() !== "") {
      (sheet[mapKey] ||= {})[e.label.replace(/[【】]/g, "")] = num;
    } else if (!s) {
      sheet[e.label] = Number.isFinite(num) && String(raw).trim() !== "" ? num : raw;
    } else unused.push(e.label);
  }
  if (typeof d.memo === "string" && d.memo && props.notes) sheet.notes = d.memo;
  const palette = typeof d.commands === "string" ? d.commands.trim() : "";
  return { name: typeof d.name === "string" ? d.name : "", sheet, unused, palette };
}

// The form to make (no `character`) or edit a character. ctx: {info, me, members(),
// submit(cmd), toast(text, kind)}. Returns the <form>.
export function sheetForm(ctx, character = null) {
  const { info } = ctx;
  const { root, s } = sheetRoot(info);
  const editing = !!character;
  const pre = editing ? "ce" : "cc";
  const err = h("p", { class: "form-error", role: "alert" });
  const note = h("p", { class: "note", role: "status" });
  const name = h("input", { id: `${pre}-name`, type: "text", required: true, maxlength: 64, value: editing ? character.name : "" });
  const isGm = ctx.me.role === "gm";
  const owner = isGm ? h("select", { id: `${pre}-owner` }, h("option", { value: "", text: "NPC（持ち主なし）" }),
    ctx.members().filter((m) => m.role !== "spectator").map((m) => h("option", { value: m.id, text: m.name }))) : null;
  if (owner) owner.value = editing ? character.owner || "" : "";
  const fields = s ? structFields(s, root, {})
    : fieldFor({ type: "object", title: "シート", additionalProperties: {} }, root, { name: "sheet", title: "シート" });
  if (editing) fields.set(character.sheet || {});
  const fill = (nm, sheet) => {
    if (nm) name.value = nm;
    // start from the schema's defaults, then the given values
    if (s) {
      const fresh = structFields(s, root, {});
      fresh.set(sheet);
      box.replaceChildren(...fresh.el);
      current = fresh;
    } else current.set(sheet);
  };
  let current = fields;
  const box = h("div", { class: "sheet-fields" }, fields.el);

  const templates = (info && info.sheet_templates) || [];
  const tpl = !editing && templates.length
    ? h("label", { class: "field", for: "cc-template" }, h("span", { class: "fname", text: "ひな形" }),
      h("select", { id: "cc-template", onchange: (e) => {
        const t = templates[Number(e.target.value)];
        if (t) { fill(t.name, t.sheet); note.textContent = `「${t.title}」を読み込みました`; }
      } }, h("option", { value: "", text: "—（白紙から）" }), templates.map((t, i) => h("option", { value: String(i), text: t.title }))))
    : null;

  let palette = ""; // the imported piece's チャットパレット, set once the character is made
  const paste = h("textarea", { id: `${pre}-ccfolia`, rows: 2, placeholder: "ココフォリアで「駒をコピー」した内容" });
  const importer = h("details", { class: "ccfolia-import" }, h("summary", { text: "ココフォリアから読み込む" }),
    h("label", { class: "field", for: `${pre}-ccfolia` }, h("span", { class: "fname", text: "駒データ（クリップボードの内容）" }), paste),
    h("button", { type: "button", id: `${pre}-ccfolia-load`, text: "読み込む", onclick: () => {
      err.textContent = "";
      try {
        const got = fromCcfolia(paste.value, info);
        fill(got.name, { ...(editing ? current.read([]) : {}), ...got.sheet });
        palette = got.palette;
        const kept = palette ? "（チャットパレットも読み込みました）" : "";
        note.textContent = `「${got.name}」を読み込みました${kept}${got.unused.length ? `（使わなかった項目: ${got.unused.join("、")}）` : ""}。確かめて「${editing ? "保存" : "作る"}」を押してください`;
        paste.value = "";
      } catch (x) { err.textContent = x.message; }
    } }));

  const form = h("form", { class: "cmd-form sheet-form", id: editing ? `edit-${character.id}` : "create-character", novalidate: true,
    "aria-label": editing ? `${character.name}のシートを編集` : "キャラクターを作る",
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      const errors = [];
      const nm = name.value.trim();
      if (!nm) errors.push("「名前」を入力してください");
      const sheet = s ? current.read(errors) : current.read(errors) || {};
      if (errors.length) { err.textContent = errors.join(" / "); return; }
      // an edit sends the keys that changed (the log line names just those)
      const changed = editing
        ? Object.fromEntries(Object.entries(sheet).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify((character.sheet || {})[k])))
        : sheet;
      const cmd = editing
        ? { type: "update_character", character_id: character.id, sheet: changed, ...(nm !== character.name ? { name: nm } : {}) }
        : { type: "create_character", name: nm, sheet };
      if (owner && owner.value && (!editing || owner.value !== (character.owner || ""))) cmd.owner = owner.value;
      try {
        const ack = await ctx.submit(cmd);
        if (palette && ctx.setPalette) {
          await ctx.setPalette(ack, editing ? character.id : null, palette);
          palette = "";
        }
        if (!editing) { name.value = ""; fill("", {}); }
        if (ctx.done) ctx.done();
        ctx.toast(editing ? "保存しました" : `「${nm}」を作りました`, "ok");
      } catch (x) { err.replaceChildren(...ctx.errorNodes(x)); }
    } },
  tpl, importer,
  h("label", { class: "field", for: `${pre}-name` }, h("span", { class: "fname", text: "名前 *" }), name),
  owner ? h("label", { class: "field", for: `${pre}-owner` }, h("span", { class: "fname", text: "持ち主" }), owner) : null,
  box, note,
  h("button", { type: "submit", text: editing ? "保存" : "作る" }),
  editing && ctx.done ? h("button", { type: "button", text: "閉じる", onclick: () => ctx.done() }) : null,
  err);
  return form;
}
