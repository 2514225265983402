// Undo and redo (取り消し / やり直し), undone lines struck through, and 「ここから分岐」 in the replay.
//
// The server decides everything: the buttons send `undo` / `redo` (no target: the table's
// last command, the last undone one; a log line's 「取り消す」, for the GM, names its
// command) and a refusal comes back as an error with its
// Japanese message; on undo/depends the GM is asked for a reason to force it. Which commands are undone now is the state's `undone` (command ids);
// every log line carries its command id (`data-command`), so the lines of an undone
// command are struck through, live and in the replay, and come back on a redo.

import { h } from "./render.js";

const $ = (sel) => document.querySelector(sel);

// Lines of commands the server never undoes (taku.core.undo.NOT_UNDOABLE, joins, the
// table's creation, timers): no 「取り消す」 on them.
const NOT_UNDOABLE = new Set([
  "undone", "redone", "table_created", "table_forked", "member_joined", "member_left",
  "role_changed", "seed_revealed", "timer_set", "timer_cancelled", "timer_expired",
]);

export function undoUi({ conn, app, toast, errorNodes, store }) {
  let undone = new Set();
  let gm = false;
  const actors = new Map(); // command id → the member who sent it (from the log lines)
  const withButton = new Set(); // commands whose first line seen has its 「取り消す」
  let busy = false; // a request in flight: a double click sends it once (one undo, one fork)

  // One log line: remember its command (and who sent it), strike it through when that
  // command is undone; a member's command gets one 「取り消す」 (shown to the GM) that
  // undoes that very command.
  function decorate(li, msg) {
    const cid = msg.command_id;
    if (cid) {
      li.dataset.command = cid;
      if (msg.actor) actors.set(cid, msg.actor);
      const type = (msg.event || {}).type;
      if (msg.actor && !NOT_UNDOABLE.has(type) && !withButton.has(cid)) {
        withButton.add(cid);
        const b = h("button", { type: "button", class: "undo-line", text: "取り消す", title: "この操作を取り消す" });
        b.addEventListener("click", () => send("undo", { command_id: cid }));
        li.append(b);
      }
    }
    mark(li);
    return li;
  }

  function mark(li) {
    const is = undone.has(li.dataset.command);
    li.classList.toggle("undone", is);
    const badge = li.querySelector(".undone-badge");
    if (is && !badge) li.append(h("span", { class: "badge undone-badge", text: "取り消し" }));
    if (!is && badge) badge.remove();
    const b = li.querySelector(".undo-line");
    if (b) b.hidden = !gm || is;
  }

  function markAll() {
    for (const li of document.querySelectorAll("#log li[data-command], #replay-log li[data-command]")) mark(li);
  }

  // The buttons for this state: the GM's, or a player's when the table lets players undo.
  function render(s) {
    undone = new Set(s.undone || []);
    gm = s.you.role === "gm";
    markAll();
    const may = gm || (s.you.role === "player" && s.player_undo === true);
    $("#undo-bar").hidden = !may;
    // redo takes back the last undone command: a player's only when it is their own
    const last = (s.undone || []).at(-1);
    $("#redo-button").disabled = !last || (!gm && actors.get(last) !== s.you.member_id);
    const fork = $("#replay-fork");
    if (fork) fork.hidden = !(s.you.role === "gm" || (s.fork_by_members === true && s.you.role !== "spectator"));
  }

  // A refusal for a later command depending on it (undo/depends): the GM may force it,
  // with a reason asked for here (an empty answer or キャンセル sends nothing).
  async function send(type, extra = {}) {
    if (busy && !extra.force) return;
    busy = true;
    try {
      await conn.command(app.tableId, { type, ...extra });
      toast(type === "undo" ? "取り消しました" : "やり直しました", "ok");
    } catch (x) {
      if (x && x.code === "undo/depends" && !extra.force && app.state && app.state.you.role === "gm") {
        const reason = window.prompt(`${x.serverMessage}\n強制する場合は理由を書いてください（空欄なら中止します）`, "");
        if (reason && reason.trim()) return send(type, { ...extra, force: true, reason: reason.trim() });
      }
      toast(errorNodes(x));
    } finally {
      busy = false;
    }
  }

  // A new table from the replay's seq: its links are kept like a created table's, then it opens.
  async function fork(seq) {
    if (busy) return;
    busy = true;
    const names = Object.fromEntries(Object.values(app.state.members).map((m) => [m.id, m.name]));
    try {
      const f = await conn.request({ type: "fork_table", table_id: app.tableId, at_seq: seq }, { retry: false });
      conn.tokens.set(f.table_id, f.gm_token);
      store(f.table_id, {
        token: f.gm_token, player_token: f.player_token, spectator_token: f.spectator_token,
        member_tokens: Object.entries(f.member_tokens || {}).map(([id, token]) => ({ id, token, name: names[id] || id })),
        forked_from: { table_id: f.source_table, seq: f.source_seq }, fresh: true,
      });
      toast(`#${seq} から分岐した卓を作りました`, "ok");
      $("#replay-close").click(); // back to the live view, of the new table
      location.hash = `table=${f.table_id}`;
    } catch (x) {
      toast(errorNodes(x));
    } finally {
      busy = false;
    }
  }

  $("#undo-button").addEventListener("click", () => send("undo"));
  $("#redo-button").addEventListener("click", () => send("redo"));
  $("#replay-fork").addEventListener("click", () => app.replay && fork(app.replay.seq));

  return { decorate, render };
}
