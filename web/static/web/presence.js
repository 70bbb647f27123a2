// A casual table's page (issue 45): while it is open and in sight it tells the server so,
// and the clock of a person alone with computers stands still (games/play/presence.py);
// and its "Play again" form goes with the page's CSRF token (the table's part of the page
// is rendered once for every page of its seat, so it cannot carry the token itself).
(function () {
  "use strict";
  const table = document.getElementById("table");
  if (!table || !table.dataset.present) return;
  const PING_MS = 20000; // games.play.presence.PING_SECONDS
  function initData() {
    try { return sessionStorage.getItem("tgInitData") || ""; } catch (e) { return ""; }
  }
  function csrf() {
    const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function headers() {
    const signed = initData();
    return signed ? { "X-Telegram-Init-Data": signed } : { "X-CSRFToken": csrf() };
  }
  function over() {
    return !!table.querySelector(".final, [data-again]");
  }
  let timer = null;
  function report() {
    if (document.visibilityState !== "visible" || over()) return;
    fetch(table.dataset.present, { method: "POST", credentials: "same-origin", headers: headers() })
      .catch(function () { /* the next report tries again */ });
  }
  function follow() {
    clearInterval(timer);
    timer = null;
    if (document.visibilityState === "visible" && !over()) {
      report();
      timer = setInterval(report, PING_MS);
    }
  }
  document.addEventListener("visibilitychange", follow);
  follow();

  document.addEventListener("submit", function (e) {
    const form = e.target;
    if (!form.matches || !form.matches("form[data-again]")) return;
    if (initData()) {
      // The Mini App signs its requests: the answer names the new table.
      e.preventDefault();
      fetch(form.action, { method: "POST", credentials: "same-origin", headers: headers() })
        .then(function (r) { return r.json(); })
        .then(function (d) { if (d.url) location.assign(d.url); })
        .catch(function () { /* the button stays; another tap tries again */ });
      return;
    }
    let token = form.querySelector("input[name=csrfmiddlewaretoken]");
    if (!token) {
      token = document.createElement("input");
      token.type = "hidden";
      token.name = "csrfmiddlewaretoken";
      form.appendChild(token);
    }
    token.value = csrf();
  }, true);
})();
