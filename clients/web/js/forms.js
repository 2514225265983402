// Forms built from JSON Schema (the server's, generated from the msgspec Structs):
// command forms from a ruleset's command_schema, the character sheet form from its
// sheet_schema, table options from its options_schema. Labels are the schema's
// Japanese `title`s, a closed set's values are named by its `x-labels`, bounds come
// from minimum / maximum / maxLength; a third party's ruleset with Japanese titles
// gets the same forms with no change here. No field is ever a JSON textarea: lists
// and maps are rows to add and remove, unions a select of their kinds.

import { h, errorNodes } from "./render.js";

// A schema with its $ref followed (root: the document holding $defs).
export function resolve(schema, root) {
  let s = schema || {};
  for (let i = 0; s && s.$ref && i < 8; i++) s = ((root && root.$defs) || {})[s.$ref.split("/").pop()] || {};
  return s || {};
}

// [{tag, title, description, schema}] of every command in a union schema.
export function commandDefs(root) {
  if (!root || !root.$defs) return [];
  const out = [];
  for (const [name, def] of Object.entries(root.$defs)) {
    const tagEnum = def.properties && def.properties.type && def.properties.type.enum;
    if (!tagEnum) continue;
    out.push({ tag: tagEnum[0], title: def.title || name, description: def.description || "", schema: def });
  }
  return out;
}

// The Japanese label of a closed set's value: the property's x-labels (or its
// resolved node's), else the value itself ("" is なし).
export function valueLabel(prop, node, v) {
  const labels = (prop && prop["x-labels"]) || (node && node["x-labels"]) || {};
  const k = String(v);
  if (labels[k] !== undefined) return labels[k];
  return v === "" ? "なし" : k;
}

const CHAR_FIELD = /(^|_)(character|target|attacker|defender|actor|char|counter_target)(_id)?$/;
const CHAR_LIST_FIELD = /(^|_)(characters|targets)(_ids)?$/;
const MEMBER_FIELD = /(^|_)member(_id)?$|^player(_id)?$|^owner$/;

let seq = 0;
const uid = (base) => `${base}-${++seq}`.replace(/[^a-zA-Z0-9_-]/g, "_");

export const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// A labelled field for one property. Returns {el, read(errors) -> value | undefined, set(v)}.
// opts: {name, title, required, ctx, choices, prop (the unresolved property schema)}
export function fieldFor(schema, root, opts = {}) {
  const prop = opts.prop || schema;
  let s = resolve(schema, root);
  let nullable = false;
  if (s.anyOf) {
    const rest = s.anyOf.filter((a) => resolve(a, root).type !== "null");
    nullable = rest.length !== s.anyOf.length;
    if (rest.length === 1) s = { ...resolve(rest[0], root), title: s.title, description: s.description };
    else return unionField(rest, root, { ...opts, nullable });
  }
  const title = opts.title || prop.title || s.title || opts.name || "";
  const id = uid(`f-${opts.name || "v"}`);
  const optional = nullable || !opts.required;
  // the <label> holds the title alone (its accessible name); bounds are a description
  const label = (input, extra) => {
    if (extra) { extra.id = `${id}-d`; input.setAttribute("aria-describedby", extra.id); }
    return h("div", { class: "field" },
      h("label", { for: id, class: "fname", text: title + (opts.required && !nullable ? " *" : "") }), input, extra);
  };
  const name = opts.name || "";
  const ctx = opts.ctx || {};

  // the state's closed set for this argument (an affordance's choices)
  if (Array.isArray(opts.choices) && opts.choices.length) {
    if (s.type === "array") return checkGroup(title, opts.choices.map((c) => ({ value: c.value, label: c.label })), opts);
    // the ruleset's choices are the allowed values (one of them may be "none"): no blank
    const sel = h("select", { id, name }, opts.choices.map((c, i) => h("option", { value: String(i), text: c.label })));
    return {
      el: label(sel),
      read: () => (sel.value === "" ? undefined : opts.choices[Number(sel.value)].value),
      set: (v) => { const i = opts.choices.findIndex((c) => c.value === v); sel.value = i < 0 ? "" : String(i); },
    };
  }
  if (s.enum) {
    const values = s.enum;
    const sel = h("select", { id, name }, optional ? h("option", { value: "", text: "—" }) : null,
      values.map((v, i) => h("option", { value: String(i), text: valueLabel(prop, s, v) })));
    const f = {
      el: label(sel),
      read: () => (sel.value === "" ? (nullable ? null : undefined) : values[Number(sel.value)]),
      set: (v) => { const i = values.findIndex((x) => x === v); sel.value = i < 0 ? (optional ? "" : "0") : String(i); },
    };
    f.set(prop.default !== undefined ? prop.default : s.default);
    return f;
  }
  if (s.type === "boolean") {
    if (nullable) {
      const sel = h("select", { id, name }, h("option", { value: "", text: "—（自動）" }),
        h("option", { value: "1", text: "はい" }), h("option", { value: "0", text: "いいえ" }));
      const f = { el: label(sel), read: () => (sel.value === "" ? null : sel.value === "1"),
        set: (v) => { sel.value = v === true ? "1" : v === false ? "0" : ""; } };
      f.set(prop.default);
      return f;
    }
    const box = h("input", { id, name, type: "checkbox" });
    box.checked = prop.default === true || s.default === true;
    // the description (a caveat, what the switch does) is the label's tooltip
    const about = prop.description || s.description;
    return { el: h("label", { for: id, class: "field check", ...(about ? { title: about } : {}) }, box, h("span", { class: "fname", text: title })),
      read: () => box.checked, set: (v) => { box.checked = v === true; } };
  }
  if (s.type === "integer" || s.type === "number") {
    const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : undefined);
    const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : undefined);
    const def = prop.default !== undefined ? prop.default : s.default;
    const inp = h("input", { id, name, type: "number", step: s.type === "integer" ? "1" : "any", min, max,
      inputmode: "numeric", value: def !== undefined && def !== null ? def : "" });
    const bounds = min !== undefined && max !== undefined ? `${min}〜${max}` : min !== undefined ? `${min}以上` : max !== undefined ? `${max}以下` : "";
    return {
      el: label(inp, bounds ? h("small", { class: "bounds", text: bounds }) : null),
      read: (errors) => {
        const raw = inp.value.trim();
        if (raw === "") {
          if (opts.required && !nullable) errors.push(`「${title}」を入力してください`);
          return nullable ? null : undefined;
        }
        const n = Number(raw);
        if (!Number.isFinite(n) || (s.type === "integer" && !Number.isInteger(n))) {
          errors.push(`「${title}」は${s.type === "integer" ? "整数" : "数"}で入力してください`);
          return undefined;
        }
        if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
          errors.push(`「${title}」は${bounds}の値です`);
          return undefined;
        }
        return n;
      },
      set: (v) => { inp.value = v === null || v === undefined ? "" : String(v); },
    };
  }
  if (s.type === "string") {
    const pick = (list) => {
      const sel = h("select", { id, name }, h("option", { value: "", text: "—" }),
        list.map((x) => h("option", { value: x.id, text: x.name })));
      return { el: label(sel), read: (errors) => {
        if (sel.value === "") {
          if (opts.required && !nullable) errors.push(`「${title}」を選んでください`);
          return nullable ? null : undefined;
        }
        return sel.value;
      }, set: (v) => { sel.value = v || ""; } };
    };
    if (ctx.characters && CHAR_FIELD.test(name)) return pick(ctx.characters());
    if (ctx.members && MEMBER_FIELD.test(name)) return pick(ctx.members());
    const def = prop.default !== undefined ? prop.default : s.default;
    const inp = h("input", { id, name, type: "text", maxlength: s.maxLength, value: typeof def === "string" ? def : "" });
    return {
      el: label(inp),
      read: (errors) => {
        const v = inp.value;
        if (v.trim() === "") {
          if (opts.required && !nullable) { errors.push(`「${title}」を入力してください`); return undefined; }
          if (nullable) return null;
          return def !== undefined ? "" : undefined;
        }
        if (s.minLength && v.length < s.minLength) errors.push(`「${title}」は${s.minLength}文字以上です`);
        return v;
      },
      set: (v) => { inp.value = v === null || v === undefined ? "" : String(v); },
    };
  }
  if (s.type === "array") {
    const items = resolve(s.items, root);
    if (items.enum) return checkGroup(title, items.enum.map((v) => ({ value: v, label: valueLabel(s.items, items, v) })), opts);
    if (ctx.characters && CHAR_LIST_FIELD.test(name) && (items.type === "string")) {
      return checkGroup(title, ctx.characters().map((c) => ({ value: c.id, label: c.name })), opts);
    }
    return listField(title, s, root, opts, nullable);
  }
  if (s.type === "object" && s.properties) return structField(s, root, { ...opts, title, nullable });
  if (s.type === "object" || s.additionalProperties !== undefined) return mapField(title, s, root, opts, nullable);
  // anything else (a free value): text, read as a number when it is one
  const inp = h("input", { id, name, type: "text" });
  return { el: label(inp), read: () => {
    const v = inp.value.trim();
    if (v === "") return nullable ? null : undefined;
    return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  }, set: (v) => { inp.value = v === null || v === undefined ? "" : String(v); } };
}

// A closed set of values, several at once (cards, targets): checkboxes, or a list to
// pick from when the set is long (a deck's 54 cards).
function checkGroup(title, options, opts) {
  if (options.length > 12) {
    const id = uid(`m-${opts.name || "v"}`);
    const sel = h("select", { id, multiple: true, size: 5 }, options.map((o, i) => h("option", { value: String(i), text: o.label })));
    return {
      el: h("label", { for: id, class: "field" }, h("span", { class: "fname", text: title + (opts.required ? " *" : "") }), sel,
        h("small", { class: "bounds", text: "Ctrl / ⌘ を押しながら複数選べます" })),
      read: (errors) => {
        const v = [...sel.selectedOptions].map((o) => options[Number(o.value)].value);
        if (opts.required && !v.length) errors.push(`「${title}」を一つ以上選んでください`);
        return v;
      },
      set: (v) => { const on = new Set((v || []).map(String)); [...sel.options].forEach((o, i) => { o.selected = on.has(String(options[i].value)); }); },
    };
  }
  const boxes = options.map((o) => {
    const id = uid(`c-${opts.name || "v"}`);
    const box = h("input", { id, type: "checkbox", value: String(o.value) });
    return { o, box, el: h("label", { for: id, class: "opt" }, box, ` ${o.label}`) };
  });
  const fs = h("fieldset", { class: "field group" }, h("legend", { class: "fname", text: title + (opts.required ? " *" : "") }),
    boxes.length ? boxes.map((b) => b.el) : h("span", { class: "muted", text: "選べるものがありません" }));
  return {
    el: fs,
    read: (errors) => {
      const v = boxes.filter((b) => b.box.checked).map((b) => b.o.value);
      if (opts.required && !v.length && opts.minItems !== 0) errors.push(`「${title}」を一つ以上選んでください`);
      return v;
    },
    set: (v) => { const on = new Set((v || []).map(String)); boxes.forEach((b) => { b.box.checked = on.has(String(b.o.value)); }); },
  };
}

// A Struct: its properties as fields, in a fieldset.
function structField(s, root, opts) {
  const f = structFields(s, root, opts.ctx || {});
  const fs = h("fieldset", { class: "struct" }, h("legend", { text: opts.title || s.title || "" }), f.el);
  return { el: fs, read: (errors) => f.read(errors), set: (v) => f.set(v) };
}

// The fields of an object schema (no wrapper): {el: [nodes], read(errors), set(obj)}.
export function structFields(s, root, ctx = {}, { skip = ["type"], choices = {} } = {}) {
  s = resolve(s, root);
  const req = new Set(s.required || []);
  const fields = [];
  for (const [name, p] of Object.entries(s.properties || {})) {
    if (skip.includes(name)) continue;
    fields.push([name, fieldFor(p, root, { name, required: req.has(name), ctx, choices: choices[name], prop: p })]);
  }
  return {
    el: fields.map(([, f]) => f.el),
    fields: Object.fromEntries(fields),
    read: (errors) => {
      const out = {};
      for (const [name, f] of fields) {
        const v = f.read(errors);
        if (v !== undefined) out[name] = v;
      }
      return out;
    },
    set: (obj) => { for (const [name, f] of fields) if (obj && obj[name] !== undefined) f.set(obj[name]); },
  };
}

// A list of items (weapons, equipment …): rows to add and remove.
function listField(title, s, root, opts, nullable) {
  const rows = h("ol", { class: "rows" });
  const items = [];
  const add = (v) => {
    const f = fieldFor(s.items || {}, root, { name: `${opts.name || "item"}`, title: `${title} ${items.length + 1}`, required: true, ctx: opts.ctx });
    if (v !== undefined) f.set(v);
    const entry = { f };
    const li = h("li", { class: "row" }, f.el, h("button", { type: "button", class: "remove", text: "削除",
      "aria-label": `${title}を削除`, onclick: () => { items.splice(items.indexOf(entry), 1); li.remove(); } }));
    entry.li = li;
    items.push(entry);
    rows.append(li);
  };
  const fs = h("fieldset", { class: "field list" }, h("legend", { class: "fname", text: title }), rows,
    h("button", { type: "button", class: "add", text: `＋ ${title}を追加`, onclick: () => add() }));
  return {
    el: fs,
    read: (errors) => {
      const v = items.map((e) => e.f.read(errors)).filter((x) => x !== undefined);
      if (s.minItems && v.length < s.minItems) errors.push(`「${title}」は${s.minItems}つ以上です`);
      return v.length || !nullable ? v : null;
    },
    set: (v) => { items.splice(0).forEach((e) => e.li.remove()); (Array.isArray(v) ? v : []).forEach((x) => add(x)); },
  };
}

// A map name -> value (能力値, 技能 …): rows of a name and a value.
function mapField(title, s, root, opts, nullable) {
  const valueSchema = isObj(s.additionalProperties) ? s.additionalProperties : {};
  const rows = h("ol", { class: "rows" });
  const items = [];
  const add = (k = "", v) => {
    const kid = uid("k");
    const key = h("input", { id: kid, type: "text", value: k, class: "map-key" });
    const f = fieldFor(valueSchema, root, { name: "value", title: "値", required: true, ctx: opts.ctx });
    if (v !== undefined) f.set(v);
    const entry = { key, f };
    const li = h("li", { class: "row map-row" },
      h("label", { for: kid, class: "field" }, h("span", { class: "fname", text: "名前" }), key), f.el,
      h("button", { type: "button", class: "remove", text: "削除", "aria-label": `${title}の行を削除`,
        onclick: () => { items.splice(items.indexOf(entry), 1); li.remove(); } }));
    entry.li = li;
    items.push(entry);
    rows.append(li);
  };
  const fs = h("fieldset", { class: "field map" }, h("legend", { class: "fname", text: title }), rows,
    h("button", { type: "button", class: "add", text: `＋ ${title}を追加`, onclick: () => add() }));
  return {
    el: fs,
    read: (errors) => {
      const out = {};
      for (const e of items) {
        const k = e.key.value.trim();
        const v = e.f.read(errors);
        if (!k) { if (v !== undefined && v !== "") errors.push(`「${title}」の名前を入力してください`); continue; }
        if (k in out) errors.push(`「${title}」の「${k}」が二つあります`);
        if (v !== undefined) out[k] = v;
      }
      return Object.keys(out).length || !nullable ? out : null;
    },
    set: (v) => { items.splice(0).forEach((e) => e.li.remove()); if (isObj(v)) Object.entries(v).forEach(([k, x]) => add(k, x)); },
  };
}

const KIND_NAME = { string: "文字", integer: "整数", number: "数", boolean: "はい/いいえ", array: "一覧", object: "データ" };

// A value of one of several kinds (a weapon's ID or its data): a select of the kind, then its field.
function unionField(branches, root, opts) {
  const title = (opts.prop && opts.prop.title) || opts.title || opts.name || "";
  const id = uid(`u-${opts.name || "v"}`);
  const fields = branches.map((b) => {
    const r = resolve(b, root);
    return { r, f: fieldFor(b, root, { ...opts, title: r.title || title, prop: b, required: true, choices: undefined }) };
  });
  const sel = h("select", { id, class: "union-kind" }, opts.nullable || !opts.required ? h("option", { value: "", text: "—" }) : null,
    fields.map(({ r }, i) => h("option", { value: String(i), text: r.title || KIND_NAME[r.type] || `${i + 1}` })));
  const box = h("div", { class: "union" });
  const pick = () => box.replaceChildren(...(sel.value === "" ? [] : [fields[Number(sel.value)].f.el]));
  sel.addEventListener("change", pick);
  const kindOf = (v) => fields.findIndex(({ r }) => (r.type === "object" ? isObj(v) : r.type === "array" ? Array.isArray(v)
    : r.type === "integer" ? Number.isInteger(v) : typeof v === r.type));
  pick();
  return {
    el: h("div", { class: "field union-field" }, h("label", { for: id, class: "fname", text: title }), sel, box),
    read: (errors) => (sel.value === "" ? (opts.nullable ? null : undefined) : fields[Number(sel.value)].f.read(errors)),
    set: (v) => {
      const i = v === null || v === undefined ? -1 : kindOf(v);
      sel.value = i < 0 ? (sel.options[0].value === "" ? "" : "0") : String(i);
      if (i >= 0) fields[i].f.set(v);
      pick();
    },
  };
}

// A <form> for one command. `ctx` has characters(), members(), submit(cmd), and
// optionally `choices` ({arg: [Choice]}) and `args` (decided arguments) from an affordance.
export function commandForm(def, root, ctx, { submitLabel = "実行", args = {}, choices = {} } = {}) {
  const skip = ["type", ...Object.keys(args)];
  const f = structFields(def.schema, root, ctx, { skip, choices });
  const err = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "cmd-form", "data-command": def.tag }, f.el,
    h("button", { type: "submit", text: submitLabel }), err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const errors = [];
    const cmd = { type: def.tag, ...args, ...f.read(errors) };
    if (errors.length) { err.textContent = errors.join(" / "); return; }
    try {
      await ctx.submit(cmd);
    } catch (x) {
      err.replaceChildren(...errorNodes(x));
    }
  });
  return form;
}
