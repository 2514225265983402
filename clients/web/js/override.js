// The GM's override box for a nested value (a map of 能力値, a list of weapons, a
// Struct in the game state): a form generated from the ruleset's schema for the value
// at the chosen path (state_schema for `game`, sheet_schema for a character's sheet),
// filled in with the current value. A value no schema describes (an `Any`) gets a form
// inferred from its current shape, with the schemas' Japanese titles for its keys. So
// no JSON is typed anywhere; a scalar keeps the plain one-line box (main.js).

import { fieldFor, resolve, isObj } from "./forms.js";

// `T | None` as `T` (the value is being set, not cleared)
function unwrap(s, root) {
  if (s && s.anyOf) {
    const rest = s.anyOf.filter((a) => resolve(a, root).type !== "null");
    if (rest.length === 1) return resolve(rest[0], root);
  }
  return s || {};
}

const described = (s) => Boolean(s && (s.type || s.properties || s.anyOf || s.enum || s.additionalProperties));

// {node, root}: the schema of the value at `path`, or null where no schema reaches it.
export function schemaAt(info, path) {
  let root;
  let rest;
  if (path[0] === "game") { root = info.state_schema; rest = path.slice(1); }
  else if (path[0] === "characters" && path[2] === "sheet") { root = info.sheet_schema; rest = path.slice(3); }
  else return null;
  if (!isObj(root) || !Object.keys(root).length) return null;
  let node = root;
  for (const seg of rest) {
    const s = unwrap(resolve(node, root), root);
    if (typeof seg === "number" && s.type === "array") node = s.items || {};
    else if (s.properties && s.properties[seg]) node = s.properties[seg];
    else if (isObj(s.additionalProperties)) node = s.additionalProperties;
    else return null;
  }
  return { node, root };
}

// A schema for a value of unknown schema, from its shape (keys titled by `titleOf`).
export function inferSchema(v, titleOf = (k) => k) {
  if (Array.isArray(v)) return { type: "array", items: v.length ? inferSchema(v[0], titleOf) : {} };
  if (isObj(v)) {
    const keys = Object.keys(v);
    if (!keys.length) return { type: "object", additionalProperties: {} };
    return {
      type: "object",
      properties: Object.fromEntries(keys.map((k) => [k, { ...inferSchema(v[k], titleOf), title: titleOf(k) }])),
      required: keys,
    };
  }
  if (typeof v === "boolean") return { type: "boolean" };
  if (typeof v === "number") return { type: Number.isInteger(v) ? "integer" : "number" };
  if (typeof v === "string") return { type: "string" };
  return {};
}

// The generated field ({el, read(errors), set(v)}) for a nested value at `path`, or null
// for a scalar (the plain box takes it). `ctx`: forms.js's (characters(), members()).
export function overrideField(info, path, current, { ctx = {}, titleOf } = {}) {
  const found = schemaAt(info || {}, path);
  let schema = found ? found.node : null;
  let root = found ? found.root : {};
  let r = found ? unwrap(resolve(schema, root), root) : null;
  if (!described(r)) {
    // no schema, or `Any`: the current value's shape
    if (current === null || typeof current !== "object") return null;
    schema = inferSchema(current, titleOf);
    root = {};
    r = schema;
  }
  const nested = r.type === "object" || r.type === "array" || Boolean(r.properties) || Boolean(r.additionalProperties)
    || (Array.isArray(r.anyOf) && current !== null && typeof current === "object");
  if (!nested) return null;
  const f = fieldFor(r, root, { name: "value", title: "新しい値", required: true, ctx, prop: { ...r, title: "新しい値" } });
  if (current !== undefined) f.set(current);
  return f;
}

// The kind of a scalar at `path` as its schema says ("number" for an integer or a number,
// "string", "boolean"), else as its current value is; "" when neither tells. The plain box
// follows it: "007" typed for a string field stays the text "007".
export function scalarKind(info, path, current) {
  const found = schemaAt(info || {}, path);
  if (found) {
    const r = unwrap(resolve(found.node, found.root), found.root);
    const types = Array.isArray(r.type) ? r.type.filter((t) => t !== "null") : [r.type];
    if (types.length === 1) {
      if (types[0] === "integer" || types[0] === "number") return "number";
      if (types[0] === "string" || types[0] === "boolean") return types[0];
    }
    if (Array.isArray(r.enum) && r.enum.length && r.enum.every((v) => typeof v === "string")) return "string";
  }
  if (typeof current === "number") return "number";
  if (typeof current === "string" || typeof current === "boolean") return typeof current;
  return "";
}
