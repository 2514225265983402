// Forms for commands, built from a ruleset's command_schema (JSON Schema from
// the msgspec Structs). Works for any ruleset: a new one gets forms for free.

import { h, errorNodes } from "./render.js";

function resolve(schema, root) {
  if (schema && schema.$ref) {
    const name = schema.$ref.split("/").pop();
    return (root.$defs || {})[name] || {};
  }
  return schema || {};
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

// Field kind for one property schema: {kind, nullable, options}.
function fieldKind(prop, root) {
  let s = resolve(prop, root);
  let nullable = false;
  if (s.anyOf) {
    const rest = s.anyOf.filter((a) => a.type !== "null");
    nullable = rest.length !== s.anyOf.length;
    if (rest.length === 1) s = resolve(rest[0], root);
    else return { kind: "json", nullable };
  }
  if (s.enum) return { kind: "enum", nullable, options: s.enum };
  if (s.type === "boolean") return { kind: "bool", nullable };
  if (s.type === "integer" || s.type === "number") return { kind: "number", nullable, integer: s.type === "integer", min: s.minimum, max: s.maximum };
  if (s.type === "string") return { kind: "string", nullable };
  return { kind: "json", nullable };
}

const CHAR_FIELD = /(^|_)(character|target|attacker|defender|actor|char)(_id)?$/;
const CHAR_LIST_FIELD = /(^|_)(characters|targets)(_ids)?$/;
const MEMBER_FIELD = /(^|_)member(_id)?$|^player(_id)?$|^owner$/;

// A <form> for one command. `ctx` has characters(), members(), and submit(cmd).
export function commandForm(def, root, ctx) {
  const props = def.schema.properties || {};
  const required = new Set(def.schema.required || []);
  const inputs = [];
  const fields = [];
  for (const [name, prop] of Object.entries(props)) {
    if (name === "type") continue;
    const k = fieldKind(prop, root);
    const id = `f-${def.tag}-${name}`.replace(/[^a-zA-Z0-9_-]/g, "_");
    let input;
    if (k.kind === "string" && CHAR_FIELD.test(name)) {
      input = h("select", { id, name }, h("option", { value: "", text: "—" }),
        ctx.characters().map((c) => h("option", { value: c.id, text: c.name })));
    } else if (k.kind === "string" && MEMBER_FIELD.test(name)) {
      input = h("select", { id, name }, h("option", { value: "", text: "—" }),
        ctx.members().map((m) => h("option", { value: m.id, text: m.name })));
    } else if (k.kind === "enum") {
      input = h("select", { id, name }, k.nullable || !required.has(name) ? h("option", { value: "", text: "—" }) : null,
        k.options.map((o) => h("option", { value: JSON.stringify(o), text: String(o) })));
    } else if (k.kind === "bool") {
      input = h("input", { id, name, type: "checkbox" });
      if (prop.default === true) input.checked = true;
    } else if (k.kind === "number") {
      input = h("input", { id, name, type: "number", step: k.integer ? "1" : "any", min: k.min, max: k.max,
        value: prop.default !== undefined && prop.default !== null ? prop.default : "" });
    } else if (k.kind === "string") {
      input = h("input", { id, name, type: "text", value: typeof prop.default === "string" ? prop.default : "" });
    } else if (CHAR_LIST_FIELD.test(name)) {
      input = h("select", { id, name, multiple: true, size: 3 },
        ctx.characters().map((c) => h("option", { value: c.id, text: c.name })));
      k.kind = "multi";
    } else {
      input = h("textarea", { id, name, rows: 2, placeholder: "JSON",
        text: prop.default !== undefined ? JSON.stringify(prop.default) : "" });
    }
    inputs.push({ name, kind: k.kind, input, required: required.has(name) });
    fields.push(h("label", { for: id, class: "field" },
      h("span", { class: "fname", text: name + (required.has(name) ? " *" : "") }), input));
  }
  const err = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "cmd-form", "data-command": def.tag }, fields,
    h("button", { type: "submit", text: "実行" }), err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const cmd = { type: def.tag };
    try {
      for (const f of inputs) {
        const el = f.input;
        let v;
        if (f.kind === "bool") v = el.checked;
        else if (f.kind === "multi") v = [...el.selectedOptions].map((o) => o.value);
        else if (el.value === "") continue;
        else if (f.kind === "number") v = Number(el.value);
        else if (f.kind === "enum") v = JSON.parse(el.value);
        else if (f.kind === "json") v = JSON.parse(el.value);
        else v = el.value;
        cmd[f.name] = v;
      }
    } catch (x) {
      err.textContent = `入力が JSON として読めません: ${x.message}`;
      return;
    }
    try {
      await ctx.submit(cmd);
    } catch (x) {
      err.replaceChildren(...errorNodes(x));
    }
  });
  return form;
}
