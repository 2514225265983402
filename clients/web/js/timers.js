// The table's armed timers (state.timers, set by the GM's set_timer or a ruleset) with a
// countdown. The deadline is the server's (UTC, in the timer_set event); the countdown reads
// this browser's clock, and the expiry itself is the server's timer_expired event, after
// which the next state no longer lists the timer.

import { h, errorNodes } from "./render.js";
import { commandDefs, commandForm } from "./forms.js";

// the core command `tag`'s definition in the core commands' schema (list_rulesets'
// core_command_schema), or null
function coreDef(schema, tag) {
  return commandDefs(schema).find((d) => d.tag === tag) || null;
}

// The GM's set_timer form, built from the core schema (its Japanese titles), as one
// <details> for the actions list; [] when the server sent no schema.
export function timerActions(schema, fctx, opened = new Set()) {
  const def = coreDef(schema, "set_timer");
  if (!def) return [];
  return [h("details", { class: "cmd", "data-command": def.tag, open: opened.has(def.tag) },
    h("summary", { title: def.description }, def.title,
      h("span", { class: "gm-only", title: "GMだけが使えるコマンド", text: "GM" }),
      def.description ? h("small", { text: ` — ${def.description.split("\n")[0].slice(0, 48)}` }) : null),
    commandForm(def, schema, fctx))];
}

// whole seconds left until `deadline` (RFC 3339), never below 0
export function secondsLeft(deadline, now = Date.now()) {
  return Math.max(0, Math.ceil((Date.parse(deadline) - now) / 1000));
}

// 75 -> "1:15", 3725 -> "1:02:05"
export function clockText(seconds) {
  const s = seconds % 60, m = Math.floor(seconds / 60) % 60, hrs = Math.floor(seconds / 3600);
  const two = (n) => String(n).padStart(2, "0");
  return hrs ? `${hrs}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

function countdownText(deadline) {
  const left = secondsLeft(deadline);
  return left > 0 ? `残り ${clockText(left)}` : "時間切れ（サーバーの記録を待っています）";
}

function tick() {
  for (const el of document.querySelectorAll("[data-deadline]")) {
    const text = countdownText(el.dataset.deadline);
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("urgent", secondsLeft(el.dataset.deadline) <= 10);
  }
}

let ticking = null;

// The timers panel of state `s`, or null when no timer is armed. Live, each timer counts
// down (every 250 ms, one interval for the whole page); in a replay it shows the deadline.
export function timerPanel(s, { live, name, send }, schema) {
  // the GM stops a timer with cancel_timer (the button says the command's title)
  const cancel = live && send && s.you && s.you.role === "gm" ? coreDef(schema, "cancel_timer") : null;
  const timers = s.timers || [];
  if (!timers.length) return null;
  if (live && ticking === null) ticking = setInterval(tick, 250);
  return h("section", { class: "panel timers-panel", "aria-label": "タイマー" },
    h("h2", { text: "タイマー" }),
    h("ul", { class: "timers" }, timers.map((t) => {
      const left = secondsLeft(t.deadline);
      return h("li", { "data-timer": t.id },
        h("span", { class: "timer-label", text: t.label || "タイマー" }),
        t.character_id ? h("small", { text: `（${name(t.character_id)}の手番）` }) : null,
        " ",
        h("time", {
          class: live && left <= 10 ? "countdown urgent" : "countdown",
          datetime: t.deadline,
          role: "timer",
          "data-deadline": live ? t.deadline : null,
          title: `期限 ${new Date(t.deadline).toLocaleString("ja-JP")}（${t.duration_s}秒）`,
          text: live ? countdownText(t.deadline) : `期限 ${new Date(t.deadline).toLocaleTimeString("ja-JP")}`,
        }),
        cancel ? h("button", { type: "button", class: "small", "data-action": "cancel-timer", text: cancel.title,
          onclick: (e) => send({ type: cancel.tag, timer_id: t.id }).catch((x) => {
            e.target.replaceWith(h("span", { class: "form-error", role: "alert" }, errorNodes(x)));
          }) }) : null);
    })));
}
