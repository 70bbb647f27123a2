// The Mini App's entry: sign in with Telegram's initData (the server checks it), then open
// the table named by the start parameter.
(function () {
  "use strict";
  const p = document.getElementById("signin");
  const tg = window.catclubTelegram;
  if (!p || !tg) return;
  if (!tg.initData) {
    p.textContent = p.dataset.none || "Open this page from Telegram.";
    return;
  }
  // initData in its header: inside Telegram's web clients (a cross-site iframe) the page
  // has no cookie of ours, so no CSRF token; the header needs none (see play.py).
  fetch(p.dataset.url, {
    method: "POST", credentials: "same-origin",
    headers: { "X-Telegram-Init-Data": tg.initData },
  }).then(async (r) => {
    if (!r.ok) { p.textContent = await r.text(); return; }
    // Where the frame may keep nothing, initData goes on in the address's fragment
    // (never sent to the server), as Telegram brought it here.
    location.replace((await r.json()).url + (tg.keeps ? "" : location.hash));
  });
})();
