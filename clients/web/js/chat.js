// Chat beyond one line: channel tabs, the whisper picker, the チャットパレット and the
// server's log download. Everything comes from the server: the channels and palettes
// are the state's `chat` ({channels, palettes}), a line's channel, recipients,
// speaker and colour are in its event message (docs/protocol.md, docs/clients.md).

import { h, clear, download, dropDoubled } from "./render.js";

const ALL = "*"; // the "すべて" tab
const MAIN = "メイン";

// `ctx`: {conn, app, toast, errorNodes}. Returns the hooks main.js calls.
export function chatUi(ctx) {
  const { conn, app, toast, errorNodes } = ctx;
  const $ = (sel) => document.querySelector(sel);
  let tab = ALL;
  const whisperTo = new Set();

  // the channel a line belongs to: its event's `channel` (a chat line, a dice roll, a
  // ruleset's roll typed in a channel); "" for メイン and for everything else
  function channelOf(msg) {
    const d = msg.event || {};
    return typeof d.channel === "string" ? d.channel : "";
  }

  function shown(li) {
    if (tab === ALL || li.classList.contains("older-row")) return true; // 「これより前のログを読む」 on every tab
    const ch = li.dataset.channel || "";
    return tab === MAIN ? ch === "" : ch === tab;
  }

  // a log line as this module shows it: its channel, its speaker's colour, a whisper's recipients
  function decorate(li, msg) {
    const d = msg.event || {};
    const ch = channelOf(msg);
    li.dataset.channel = ch;
    const sp = msg.speaker;
    if (sp && sp.color) {
      li.style.setProperty("--speaker", sp.color);
      li.classList.add("has-color");
    }
    if (sp && sp.name) li.dataset.speaker = sp.name;
    if (Array.isArray(d.to) && d.to.length) {
      li.classList.add("whisper");
      const names = d.to.map((m) => memberName(m)).join("、");
      li.querySelector(".text")?.before(h("span", { class: "badge whisper-badge", text: `内緒話→${names}` }));
    } else if (msg.redacted && d.note === "内緒話") {
      li.classList.add("whisper");
    } else if (Array.isArray(msg.audience) && d.secret !== true) {
      // a hidden event shown in full (a ruleset's roll in a whisper, cards given): who sees it
      const others = msg.audience.filter((m) => m !== "@gm" && m !== msg.actor);
      if (others.length) {
        li.classList.add("whisper");
        // a GM among the recipients is named once, as "GM" (the audience holds "@gm" too)
        const toGm = msg.audience.includes("@gm");
        const isGm = (id) => ((app.state && app.state.members[id]) || {}).role === "gm";
        const names = [msg.actor, ...others.filter((m) => !(toGm && isGm(m)))].filter(Boolean).map(memberName);
        if (toGm) names.push("GM");
        li.querySelector(".text")?.before(h("span", { class: "badge whisper-badge", text: `非公開: ${names.join("、")}` }));
      } else if (!li.querySelector(".secret-badge")) {
        // only its roller and the GM see it: a ruleset's own secret roll (SCH<=50, SHD5 …),
        // marked as the core's secret dice are, so the GM does not read it out by mistake
        li.classList.add("secret");
        li.querySelector(".text")?.before(h("span", { class: "badge secret-badge", text: "シークレット" }));
      }
    }
    if (ch) li.querySelector(".text")?.before(h("span", { class: "badge channel-badge", text: ch }));
    dropDoubled(li);
    li.hidden = !shown(li);
    return li;
  }

  function memberName(id) {
    const m = app.state && app.state.members[id];
    return m ? m.name : id;
  }

  function applyTab() {
    for (const li of $("#log").children) li.hidden = !shown(li);
    for (const b of $("#chat-tabs").querySelectorAll("button")) {
      b.setAttribute("aria-pressed", String(b.dataset.tab === tab));
    }
    const log = $("#log");
    log.scrollTop = log.scrollHeight;
  }

  function renderTabs(s) {
    const channels = (s.chat && s.chat.channels) || [MAIN];
    if (tab !== ALL && !channels.includes(tab)) tab = ALL;
    const want = [ALL, ...channels];
    const box = $("#chat-tabs");
    const have = [...box.querySelectorAll("button")].map((b) => b.dataset.tab);
    if (have.join("\n") !== want.join("\n")) {
      clear(box, want.map((c) => h("button", {
        type: "button", class: "chat-tab", "data-tab": c, "aria-pressed": String(c === tab),
        text: c === ALL ? "すべて" : c,
      })));
    }
  }

  function renderWhisper(s) {
    const box = $("#whisper-list");
    const others = Object.values(s.members).filter((m) => m.id !== s.you.member_id && m.present);
    for (const id of [...whisperTo]) if (!s.members[id]) whisperTo.delete(id);
    const key = others.map((m) => `${m.id}:${m.name}:${m.role}`).join("|");
    if (box.dataset.key !== key) {
      box.dataset.key = key;
      clear(box, others.map((m) => h("label", { class: "check" },
        h("input", { type: "checkbox", value: m.id, checked: whisperTo.has(m.id), "data-member": m.id,
          onchange: (e) => { if (e.target.checked) whisperTo.add(m.id); else whisperTo.delete(m.id); whisperStatus(); } }),
        ` ${m.name}${m.role === "gm" ? "（GM）" : m.role === "spectator" ? "（観戦）" : ""}`)));
    }
    $("#whisper").hidden = s.you.role === "spectator";
    whisperStatus();
  }

  function whisperStatus() {
    const names = [...whisperTo].map(memberName);
    $("#whisper-status").textContent = names.length ? `内緒話: ${names.join("、")} とGMだけに見えます` : "";
    $("#whisper").classList.toggle("on", names.length > 0);
  }

  // the palette of the character chosen in "発言者" (none: a note)
  function renderPalette(s) {
    const box = $("#palette");
    const cid = $("#chat-as").value || "";
    const canAct = s.you.role !== "spectator";
    box.hidden = !canAct;
    if (!canAct) return;
    const ch = cid ? s.characters[cid] : null;
    const entry = (s.chat && s.chat.palettes && s.chat.palettes[cid]) || { palette: "", color: "" };
    // a character with no palette of its own starts from the ruleset's (`default`,
    // lines from its sheet, as ココフォリア's ruleset palettes); saving makes it its own
    const text = entry.palette || entry.default || "";
    const seeded = !entry.palette && Boolean(entry.default);
    const key = `${cid}\n${text}\n${entry.color}\n${seeded}`;
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const body = $("#palette-body");
    if (!ch) {
      clear(body, h("p", { class: "desc", text: "発言者にキャラクターを選ぶと、そのキャラクターのチャットパレットが使えます。" }));
      return;
    }
    const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
    clear(body,
      h("p", { class: "desc", text: `${ch.name} のチャットパレット（クリックかEnterで送信。{能力値} はシートの値になります）` }),
      seeded ? h("p", { class: "desc palette-seeded", text: "ルールの既定のパレットです（シートから）。「編集」で書き換えて保存できます。" }) : null,
      lines.length
        ? h("ul", { class: "palette-lines" }, lines.map((line) => h("li", {},
          h("button", { type: "button", class: "palette-line", text: line, onclick: () => sendLine(line, cid) }))))
        : h("p", { class: "desc", text: "まだ何もありません。下の「編集」で一行に一つずつ書いてください。" }),
      h("details", { class: "palette-edit" }, h("summary", { text: "編集" }),
        h("form", { class: "cmd-form", onsubmit: (e) => savePalette(e, cid) },
          h("label", { class: "field", for: "palette-text" }, h("span", { class: "fname", text: "チャットパレット（一行に一つ）" }),
            h("textarea", { id: "palette-text", rows: 5 }, text)),
          h("label", { class: "field", for: "palette-color" }, h("span", { class: "fname", text: "発言の色" }),
            h("input", { id: "palette-color", type: "color", value: entry.color || "#1c1917" })),
          h("button", { type: "submit", id: "palette-save", text: "保存" }))));
  }

  async function savePalette(e, cid) {
    e.preventDefault();
    try {
      await conn.command(app.tableId, {
        type: "set_chat_palette", character_id: cid,
        palette: $("#palette-text").value, color: $("#palette-color").value,
      });
      toast("チャットパレットを保存しました", "ok");
    } catch (x) { toast(errorNodes(x)); }
  }

  async function sendLine(text, cid) {
    try { await send(text, cid); } catch (x) { toast(errorNodes(x)); }
  }

  // one chat line in the tab's channel (すべて: メイン), whispered to the chosen members
  function send(text, characterId) {
    return conn.chat(app.tableId, text, characterId, {
      channel: tab !== ALL && tab !== MAIN ? tab : "",
      to: [...whisperTo],
    });
  }

  async function addChannel(e) {
    e.preventDefault();
    const name = $("#channel-name").value.trim();
    if (!name) return;
    try {
      await conn.command(app.tableId, { type: "add_channel", name });
      $("#channel-name").value = "";
    } catch (x) { toast(errorNodes(x)); }
  }
  $("#channel-add").addEventListener("submit", addChannel);
  $("#chat-tabs").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-tab]");
    if (b) { tab = b.dataset.tab; applyTab(); }
  });
  $("#chat-as").addEventListener("change", () => app.state && renderPalette(app.state));

  // the server's own export (one implementation for the CLI and this page): this member's view
  async function exportLog(format) {
    const got = await conn.request({ type: "export_log", table_id: app.tableId, format });
    download(got.filename, got.content, got.media_type);
  }

  return {
    decorate,
    send,
    exportLog,
    render(s) { renderTabs(s); renderWhisper(s); renderPalette(s); },
  };
}
