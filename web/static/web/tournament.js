// The tournament page follows its tournament (issue 26): every few seconds it asks the
// server for the tournament's version (answered from the cache, no query), and only when
// it moved is the page's changing part (status, sign-up, standings, rounds, entrants)
// fetched and put in place. A page in a background tab does not ask; it asks at once when
// shown again. A failed ask is retried at the next beat: the page stays as it was. Once
// the tournament is over (the part marked data-over) nothing changes any more: no asks.
(function () {
  "use strict";
  const region = document.getElementById("tournament-live");
  if (!region || !window.fetch) return;
  const url = region.dataset.liveUrl;
  const every = Math.max(1000, parseInt(region.dataset.pollMs, 10) || 3000);
  let version = region.dataset.version;
  let busy = false;
  let timer = null;

  function over() {
    return region.querySelector("[data-over]") !== null;
  }

  function apply(html) {
    // Focus inside the region would be lost with the nodes it is on: it goes to the
    // same control in the new part (a form's button by its action), else to the region.
    const focused = region.contains(document.activeElement) ? document.activeElement : null;
    const key = focused && focused.form ? focused.form.querySelector("[name=action]") : null;
    region.innerHTML = html;
    if (!focused) return;
    const again = key
      ? region.querySelector('[name=action][value="' + key.value + '"]')
      : null;
    const button = again && again.form ? again.form.querySelector("button") : null;
    (button || region).focus();
  }

  function ask() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(url + "?v=" + encodeURIComponent(version), {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (data) {
        if (!data) return;
        if (typeof data.html === "string") apply(data.html);
        version = String(data.version);
        region.dataset.version = version;
        if (over()) stop();
      })
      .catch(function () {})
      .then(function () {
        busy = false;
      });
  }

  function stop() {
    clearInterval(timer);
    document.removeEventListener("visibilitychange", ask);
  }

  if (over()) return;
  timer = setInterval(ask, every);
  document.addEventListener("visibilitychange", ask);
})();
