// The web table: follows the game (pushed to it by server-sent events, or by long polling
// where those fail, and always in the Mini App), makes the board's cards the seat's
// choices, and sends moves. Inside Telegram (a Mini App) it also signs every request with
// Telegram's initData (telegram.js, loaded before it, does the rest of Telegram).
(function () {
  "use strict";

  // -- Telegram, when the page is a Mini App (telegram.js: its theme, buttons, haptics) ----
  const tg = window.catclubTelegram || { initData: "", active: false, keeps: true, haptic: () => {} };

  const box = document.getElementById("table");
  if (!box) return;
  const toastBox = document.getElementById("toast");
  // Inside Telegram's web clients (a cross-site iframe, no cookie of ours) the first page
  // came without the session's player: ask at once for the table as the signed-in seat
  // sees it (a lobby: see lobby() below). A page that came for a seat is that seat's
  // already: redrawing it on arrival would undo a first tap (a step under way, with
  // Telegram's back button shown for it, whose press would then leave the page).
  let token = tg.active && !box.dataset.lobby && !box.dataset.seat ? "" : box.dataset.token;

  function csrf() {
    const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function headers() {
    const h = { "X-CSRFToken": csrf() };
    if (tg.initData) h["X-Telegram-Init-Data"] = tg.initData;
    return h;
  }
  function toast(text) {
    if (!toastBox) return;
    toastBox.textContent = text;
    toastBox.classList.toggle("shown", Boolean(text));
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => toastBox.classList.remove("shown"), 2500);
  }

  // -- following the game -----------------------------------------------------------------
  // The board stays where it was on the screen: what changed above or below it (a line
  // of the header, the buttons under it) moves the rest, never the board under the finger.
  // A table that comes back shorter (a new deal's empty trick list) would pull a page
  // scrolled to its end up under the reader: the box keeps its length until she scrolls.
  function show(html) {
    const before = box.querySelector(".board");
    const top = before ? before.getBoundingClientRect().top : null;
    box.style.minHeight = box.offsetHeight + "px";
    box.innerHTML = html;
    const after = box.querySelector(".board");
    if (top !== null && after) window.scrollBy(0, after.getBoundingClientRect().top - top);
    bind();
    document.dispatchEvent(new CustomEvent("catclub:table", { detail: { token: token } }));
  }
  function release() {
    box.style.minHeight = "";
  }
  ["wheel", "touchmove", "keydown"].forEach(function (kind) {
    window.addEventListener(kind, release, { passive: true });
  });
  // Too many pages open from this connection (429), or a server that is not answering:
  // wait longer after each refusal (2 s doubling to a minute, a little random so that the
  // pages of one connection do not all come back at once), then follow again.
  let backoff = 0;
  function pause() {
    backoff = Math.min(backoff ? backoff * 2 : 2000, 60000);
    return new Promise((ok) => setTimeout(ok, backoff * (0.75 + Math.random() / 2)));
  }
  function soon(ms) {
    return new Promise((ok) => setTimeout(ok, Math.min(ms, 5000) * (0.5 + Math.random())));
  }
  // Long polls until ``until`` (a Date.now() time; for ever without one). True when the
  // page stops following (it reloads, or the server refused the viewer).
  async function follow(until) {
    while (until === undefined || Date.now() < until) {
      try {
        const r = await fetch(box.dataset.state + "?token=" + encodeURIComponent(token), {
          headers: headers(), credentials: "same-origin",
        });
        if (r.status === 403) { toast(await r.text()); return true; }
        if (r.status === 429) {
          const refused = await r.json().catch(() => ({}));
          // The server has no place for this poll to wait just now: ask again in a
          // moment (a change shows then), quietly, as if it had waited.
          if (refused.retry_ms) { await soon(refused.retry_ms); continue; }
          toast(refused.message || r.statusText);
          await pause();
          continue;
        }
        if (!r.ok) { await pause(); continue; }
        backoff = 0;
        if (apply(await r.json())) return true;
      } catch (e) {
        await pause();
      }
    }
    return false;
  }
  // A form of this page was sent (a seat taken, the table started, a level chosen): the
  // page is on its way to the answer, which may carry the session's new key (a seat
  // binds the session to its player under a new key). A reload now would cancel that
  // navigation and its cookie with it: the person, seated, would be shown the table as a
  // stranger. The answer shows the table as it is then anyway.
  let leaving = false;
  document.addEventListener("submit", (ev) => { if (!ev.defaultPrevented) leaving = true; });
  window.addEventListener("pageshow", () => { leaving = false; });
  // The table as the server sent it (a push or a poll): true when the page reloads.
  // The Mini App asks for its lobby again instead (a reload would show it to nobody).
  function apply(data) {
    if (data.token === token) return false;
    token = data.token;
    if (box.dataset.lobby) {
      if (!tg.active) { if (!leaving) location.reload(); return true; }
      lobby();
      return false;
    }
    show(data.html);
    return false;
  }

  // -- the lobby, in the Mini App ---------------------------------------------------------
  // Telegram's web clients open the Mini App in a cross-site iframe, where the browser
  // keeps no cookie of ours: the page as loaded shows the lobby to nobody in particular,
  // and its forms, posted as they are, would act for nobody. Inside Telegram the page asks
  // for the lobby again and sends its forms with initData in their header; anywhere else
  // (or without this script) they stay plain forms.
  const lobbyBox = document.getElementById("lobby");
  async function lobby() {
    if (!lobbyBox) return;
    try {
      const r = await fetch(location.href, { headers: headers(), credentials: "same-origin" });
      if (!r.ok) { toast(await reason(r)); return; }
      const page = new DOMParser().parseFromString(await r.text(), "text/html");
      const fresh = page.getElementById("lobby");
      const table = page.getElementById("table");
      if (!fresh || !table) return;
      lobbyBox.innerHTML = fresh.innerHTML;
      // Followed from this page's token on (the same for every viewer).
      token = table.dataset.token;
      if (table.dataset.lobby) return;
      // The game began: the table as this seat sees it.
      delete box.dataset.lobby;
      show(table.innerHTML);
    } catch (e) {
      toast(e.message);
    }
  }
  async function reason(r) {
    const text = await r.text();
    try { return JSON.parse(text).message || r.statusText; } catch (e) { return text || r.statusText; }
  }
  async function act(form) {
    const body = new FormData(form);
    const controls = lobbyBox.querySelectorAll("button, select, input");
    controls.forEach((c) => (c.disabled = true));
    tg.haptic({ type: "impact", impact_style: "light" });
    try {
      const r = await fetch(form.action, {
        method: "POST", body: body, headers: headers(), credentials: "same-origin",
      });
      if (!r.ok) {
        toast(await reason(r));
        tg.haptic({ type: "notification", notification_type: "error" });
      }
    } catch (e) {
      toast(e.message);
    }
    controls.forEach((c) => (c.disabled = false));
    await lobby();
  }
  if (tg.active && lobbyBox) {
    lobbyBox.addEventListener("submit", (ev) => {
      if (!ev.target.matches("form[method=post]")) return;
      ev.preventDefault();
      act(ev.target);
    });
    // A level chosen is sent at once (site.js posts such a form as it is: not here).
    lobbyBox.addEventListener("change", (ev) => {
      const select = ev.target;
      if (!select.matches("select[data-submit]") || !select.form) return;
      ev.stopPropagation();
      act(select.form);
    });
  }
  // The push: one EventSource, which reconnects by itself with the last table's token
  // (its event id). The Mini App cannot sign one (no headers: see web/live/stream.py)
  // and polls; so does a browser without EventSource. A stream that the browser closes
  // (an error status: too many pages open, a proxy's 502 while the server restarts, or a
  // server that cannot stream, which answers 204) leaves the page polling for a while,
  // then trying its stream again, less often after each failure (10 s doubling to 10 min).
  let streamRetry = 10000;
  function stream() {
    if (tg.active || !window.EventSource || !box.dataset.events) return follow();
    const source = new EventSource(box.dataset.events + "?token=" + encodeURIComponent(token));
    source.onopen = () => { streamRetry = 10000; };
    source.onmessage = (ev) => {
      backoff = 0;
      if (apply(JSON.parse(ev.data))) source.close();
    };
    source.onerror = async () => {
      if (source.readyState !== EventSource.CLOSED) return;
      const until = Date.now() + streamRetry * (0.75 + Math.random() / 2);
      streamRetry = Math.min(streamRetry * 2, 600000);
      if (!(await follow(until))) stream();
    };
  }

  // -- choosing and moving ------------------------------------------------------------------
  // The seat's choices are the board itself (issue 45): its cards, animals and piles are
  // buttons (data-pick), with a few more under it (Stop, Pass, a bid). The page's "picks"
  // (web.tables.pick_tree) say which keys are offered now and what each tap leads to: an
  // action sent at once, or, after several taps or for a costly one, a Confirm. A step
  // with one way on is taken by itself, and a lone action the rules force (drawing with
  // nothing else to do) goes without a tap.
  let picks = null;
  let node = null;
  let path = [];
  let ready = null;
  function bind() {
    const data = box.querySelector("#picks");
    picks = data ? JSON.parse(data.textContent) : null;
    reset();
    if (picks && picks.auto) {
      const tablebox = box.querySelector(".tablebox");
      // One key per table version: a second page of the same seat sends the same move.
      send(picks.auto, "auto-" + (tablebox ? tablebox.dataset.version : ""));
    }
  }
  function reset() {
    node = picks ? picks.tree : null;
    path = [];
    ready = null;
    offer();
  }
  function choose(key) {
    const entry = node[key];
    path.push(key);
    if (entry.a) {
      if (entry.c) { ready = entry.a; node = {}; offer(); return; }
      send(entry.a);
      return;
    }
    node = entry.n;
    // A step with a single way on (the one marker on an animal) needs no tap.
    const keys = Object.keys(node);
    if (keys.length === 1) return choose(keys[0]);
    offer();
  }
  function offer() {
    const choices = box.querySelector(".choices");
    box.querySelectorAll("[data-pick]").forEach((b) => {
      const key = b.dataset.pick;
      const now = Boolean(node && Object.prototype.hasOwnProperty.call(node, key));
      b.disabled = !now;
      b.classList.toggle("live", now);
      const chosen = path.indexOf(key) >= 0;
      b.classList.toggle("chosen", chosen);
      if (chosen) b.setAttribute("aria-pressed", "true");
      else b.removeAttribute("aria-pressed");
      if (b.classList.contains("bar")) b.hidden = !now;
    });
    if (!choices) return;
    const labels = (picks && picks.labels) || {};
    choices.querySelector(".summary").textContent = path.map((k) => labels[k] || k).join(" → ");
    const confirm = choices.querySelector(".do");
    confirm.hidden = !ready;
    choices.querySelector(".undo").hidden = path.length === 0;
    if (ready) confirm.focus({ preventScroll: true });
  }
  box.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button");
    if (!btn || btn.disabled || !box.contains(btn)) return;
    if (btn.matches(".choices .undo")) return reset();
    if (btn.matches(".choices .do")) { if (ready) send(ready); return; }
    const key = btn.dataset.pick;
    if (key === undefined || !node || !Object.prototype.hasOwnProperty.call(node, key)) return;
    choose(key);
  });
  function lock(locked) {
    box.querySelectorAll(".tablebox button").forEach((b) => (b.disabled = locked));
    if (!locked) offer();
  }
  async function send(action, key) {
    const tablebox = box.querySelector(".tablebox");
    const form = new FormData();
    form.append("action", action);
    form.append("version", tablebox ? tablebox.dataset.version : "");
    form.append("key", key || (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2)));
    lock(true);
    tg.haptic({ type: "impact", impact_style: "light" });
    try {
      const r = await fetch(box.dataset.move, {
        method: "POST", body: form, headers: headers(), credentials: "same-origin",
      });
      const data = await r.json().catch(() => ({ ok: false, message: "" }));
      if (!data.ok) {
        toast(data.message || r.statusText);
        tg.haptic({ type: "notification", notification_type: "error" });
        if (box.contains(tablebox)) { lock(false); reset(); }
      }
    } catch (e) {
      toast(e.message);
      if (box.contains(tablebox)) { lock(false); reset(); }
    }
  }

  // -- the turn clock -----------------------------------------------------------------------
  setInterval(() => {
    box.querySelectorAll(".clock").forEach((c) => {
      const left = Math.max(0, Number(c.dataset.left) - 1);
      c.dataset.left = left;
      c.textContent = left;
    });
  }, 1000);

  bind();
  if (tg.active && box.dataset.lobby) lobby();
  stream();
})();
