// The ruleset's moves now, from the state message's `affordances` (taku.core.play):
// a button per move when its open arguments make a few combinations, otherwise a
// short form whose open arguments are selects (or checkboxes, for a list such as
// several cards or targets) of their choices. Labels are the affordance's and the
// command schema's Japanese titles.

import { h, errorNodes } from "./render.js";
import { fieldFor, resolve, isObj } from "./forms.js";
const MAX_BUTTONS = 6;

function commandSchema(info, tag) {
  const root = info && info.command_schema;
  if (!root || !root.$defs) return { root: null, def: null };
  for (const def of Object.values(root.$defs)) {
    const t = def.properties && def.properties.type && def.properties.type.enum;
    if (t && t[0] === tag) return { root, def };
  }
  return { root, def: null };
}

function isList(prop, root) {
  if (!prop) return false;
  const r = resolve(prop, root);
  if (r.type === "array") return true;
  return Array.isArray(r.anyOf) && r.anyOf.some((a) => a.type === "array");
}

// [{label, command, primary, group, confirm}] for the moves shown as buttons, and [{affordance, …}] as forms.
export function planMoves(affordances, info) {
  const buttons = [];
  const forms = [];
  if (!Array.isArray(affordances)) return { buttons, forms };
  for (const a of affordances) {
    if (!isObj(a) || typeof a.command !== "string" || !a.command.includes(".")) continue;
    const { root, def } = commandSchema(info, a.command);
    const props = (def && def.properties) || {};
    const open = Object.entries(a.choices || {}).filter(([, c]) => Array.isArray(c) && c.length);
    const listArgs = open.filter(([k]) => isList(props[k], root));
    const combos = open.reduce((n, [, c]) => n * c.length, 1);
    // a list argument (several cards, targets), many combinations, or fields the person
    // types in (a distance, an amount): a short form
    if (listArgs.length || combos > MAX_BUTTONS || (Array.isArray(a.fields) && a.fields.length)) {
      forms.push({ a, root, def });
      continue;
    }
    let list = [{ label: "", args: {} }];
    for (const [key, choices] of open) {
      list = list.flatMap((c) => choices.map((ch) => ({
        label: c.label ? `${c.label}・${ch.label}` : String(ch.label),
        args: { ...c.args, [key]: ch.value },
      })));
    }
    for (const c of list) {
      const args = Object.fromEntries(Object.entries({ ...(a.args || {}), ...c.args }).filter(([, v]) => v !== null));
      // whose move it is, when the label does not say (two characters may both attack)
      const base = a.group && !String(a.label).includes(a.group) ? `${a.group}: ${a.label}` : a.label;
      buttons.push({ label: c.label ? `${base}（${c.label}）` : base, command: { type: a.command, ...args }, primary: !!a.primary, group: a.group || "",
        confirm: typeof a.confirm === "string" ? a.confirm : "" });
    }
  }
  return { buttons, forms };
}

// An affordance with a `confirm` question (attacking an ally) is sent only after a yes.
export function confirmed(mv) {
  return !(typeof mv.confirm === "string" && mv.confirm) || window.confirm(mv.confirm);
}

// A short form for one affordance: a field per open argument (its choices).
export function moveForm({ a, root, def }, send) {
  const props = (def && def.properties) || {};
  const req = new Set((def && def.required) || []);
  const fields = Object.entries(a.choices || {}).filter(([, c]) => Array.isArray(c) && c.length).map(([name, choices]) => {
    const prop = props[name] || { title: name };
    // a choice the command requires must be made; an optional one (cards with a roll) may stay empty
    return [name, fieldFor(prop, root || {}, { name, required: req.has(name) || !def, choices, prop })];
  });
  for (const name of Array.isArray(a.fields) ? a.fields : []) {
    if (!props[name]) continue;
    fields.push([name, fieldFor(props[name], root || {}, { name, required: req.has(name), prop: props[name] })]);
  }
  const err = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: `move-form${a.primary ? " primary" : ""}`, "data-command": a.command, "aria-label": a.label },
    h("strong", { class: "move-title", text: a.group && !String(a.label).includes(a.group) ? `${a.group}: ${a.label}` : a.label }),
    fields.map(([, f]) => f.el),
    h("button", { type: "submit", class: "move", text: a.label }), err);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const errors = [];
    const args = Object.fromEntries(Object.entries(a.args || {}).filter(([, v]) => v !== null));
    for (const [name, f] of fields) {
      const v = f.read(errors);
      if (v !== undefined) args[name] = v;
    }
    if (errors.length) { err.textContent = errors.join(" / "); return; }
    if (!confirmed(a)) return;
    try { await send({ type: a.command, ...args }); } catch (x) { err.replaceChildren(...errorNodes(x)); }
  });
  return form;
}
