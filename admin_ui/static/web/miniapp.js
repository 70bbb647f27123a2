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
  const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  const form = new FormData();
  form.append("init_data", tg.initData);
  fetch(p.dataset.url, {
    method: "POST", body: form, credentials: "same-origin",
    headers: { "X-CSRFToken": m ? decodeURIComponent(m[1]) : "" },
  }).then(async (r) => {
    if (!r.ok) { p.textContent = await r.text(); return; }
    location.replace((await r.json()).url);
  });
})();
