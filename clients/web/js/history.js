// The live log of a long table: the last few hundred events first, older ones on demand.
//
// Entering a table subscribes after `recentStart(head)` (the last RECENT events come as
// the catch-up); a button at the top of the log loads the page before the earliest
// event shown (`get_log`), keeping the reader's place. A dropped connection resumes
// after the last seq delivered (conn.js), so nothing is fetched twice.

import { h } from "./render.js";

export const RECENT = 300; // events shown on entering a table
export const PAGE = 300; // events loaded per click on "older"

export function recentStart(headSeq) {
  return Math.max(0, headSeq - RECENT);
}

// Put the "older events" button at the top of `log` when events before `firstShown` exist.
// `item(msg)` renders one event (the same as a live one).
export function olderHistory(conn, tableId, log, firstShown, item) {
  let earliest = firstShown; // seq of the earliest event shown, or the next one to come
  if (earliest <= 1) return;
  const button = h("button", { type: "button", class: "older" }, "これより前のログを読む");
  const row = h("li", { class: "older-row" }, button);
  log.prepend(row);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const from = Math.max(0, earliest - 1 - PAGE);
      const got = [];
      while ((got.length ? got[got.length - 1].seq : from) < earliest - 1) {
        const after = got.length ? got[got.length - 1].seq : from;
        const page = await conn.request({
          type: "get_log", table_id: tableId, after_seq: after, limit: earliest - 1 - after,
        });
        if (!page.events.length) break;
        got.push(...page.events);
      }
      const before = log.scrollHeight;
      const nodes = got.filter((m) => m.seq < earliest).map(item);
      row.after(...nodes);
      log.scrollTop += log.scrollHeight - before; // the reader stays where they were
      earliest = from + 1;
      if (from === 0) row.remove();
    } catch (e) {
      console.error(e);
    } finally {
      button.disabled = false;
    }
  });
}
