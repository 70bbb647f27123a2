/* Replay of one game, step by step: buttons, a slider, autoplay at a chosen speed, the
   keys (← → Home End, space) and links to a step (#step-12). A running game's replay
   opens at its last step and grows as the game goes on.
   The page embeds the steps as JSON (views as deltas, each step's sentences), the card
   art as a <template>; names, sentences and labels come from the server, already
   translated. Everything else is built with DOM calls and textContent, so a player's name
   can never inject markup. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var dataNode = document.getElementById("replay-data");
  var metaNode = document.getElementById("replay-meta");
  if (!root || !dataNode || !metaNode) return;
  var data = JSON.parse(dataNode.textContent);
  var meta = JSON.parse(metaNode.textContent);
  var L = meta.labels;
  var names = {};
  meta.seats.forEach(function (s) { names[s.number] = s.name; });
  var cardArt = document.getElementById("replay-cards");
  var steps = [], views = [], privates = [];
  if (!(data.steps || []).length) return;

  // --- Rebuild every step's full views from the deltas --------------------------------
  function applyDelta(prev, delta) {
    var next = Object.assign({}, prev, delta);
    (delta.__removed__ || []).forEach(function (k) { delete next[k]; });
    delete next.__removed__;
    return next;
  }
  // Steps arrive all at once, or (a running game) more of them as the game goes on.
  function load(fresh) {
    data = fresh;
    steps = data.steps || [];
    views = []; privates = [];
    var pub = {}, priv = null;
    steps.forEach(function (step) {
      pub = applyDelta(pub, step.view || {});
      views.push(pub);
      if (step.private) {
        priv = step.private.map(function (d, i) { return applyDelta((priv && priv[i]) || {}, d); });
        privates.push(priv);
      }
    });
  }
  load(data);

  // --- Small DOM helpers ----------------------------------------------------------------
  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "cls") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child == null || child === false) continue;
      if (Array.isArray(child)) child.forEach(function (c) { if (c) node.appendChild(c); });
      else node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }
  function name(n) {
    if (n === null || n === undefined) return "";
    return names[n] !== undefined ? names[n] : L.seat + " " + (Number(n) + 1);
  }
  function panel(title) {
    var box = el("div", { cls: "panel" });
    if (title) box.appendChild(el("h3", { text: title }));
    return box;
  }
  function facts(items) {
    return el("p", { cls: "facts" }, items.filter(Boolean).map(function (t) { return el("span", { text: t }); }));
  }

  // --- Cards: the project's card art, drawn on the server and named in the page's language
  function artOf(code) {
    if (!cardArt) return null;
    return cardArt.content.querySelector('[data-code="' + CSS.escape(String(code)) + '"]');
  }
  function card(c) {
    if (c === null || c === undefined) {
      var back = cardArt && cardArt.content.querySelector("[data-back]");
      return back ? back.cloneNode(true) : el("span", { cls: "card back", title: L.hidden, text: "?" });
    }
    var art = artOf(c);
    if (art) return art.cloneNode(true);
    return el("span", { cls: "card", text: String(c) });
  }
  function cards(list) {
    return el("span", { cls: "cardrow" }, (list || []).map(card));
  }

  // --- Boards -------------------------------------------------------------------------------
  function seatTable(view, head, row) {
    var acting = view.to_act || [];
    var table = el("table", {}, el("thead", {}, el("tr", {}, head.map(function (h) {
      return el("th", { scope: "col", text: h });
    }))));
    var body = el("tbody");
    meta.seats.forEach(function (s) {
      var tr = el("tr", { cls: acting.indexOf(s.number) >= 0 ? "acting" : "" });
      row(s.number).forEach(function (cell) {
        tr.appendChild(cell instanceof Node ? el("td", {}, cell) : el("td", { text: cell == null ? "" : String(cell) }));
      });
      body.appendChild(tr);
    });
    table.appendChild(body);
    // A wide table scrolls in its box on a phone: the box takes the focus, so the keys
    // scroll it too.
    return el("div", { cls: "wrap", tabindex: "0", role: "region", "aria-label": L.player }, table);
  }
  function seatLabel(view, n, extra) {
    var acting = (view.to_act || []).indexOf(n) >= 0;
    return el("span", {}, el("strong", { text: name(n) }), extra ? " " + extra : "",
      acting ? el("span", { cls: "turn", title: L.to_act, text: " ●" }) : null);
  }
  // After the game: what each seat held, one line per seat (cards wrap on a phone).
  function handsPanel(privs, parts) {
    if (!privs) return null;
    var box = panel(L.hands);
    meta.seats.forEach(function (s) {
      var p = privs[s.number] || {};
      var line = el("p", { cls: "hand-line" }, el("strong", { text: name(s.number) + ": " }));
      parts.forEach(function (part) {
        var value = p[part[0]];
        if (value === undefined || value === null) return;
        if (part[1] && Array.isArray(value) && !value.length) return;
        if (part[1]) line.appendChild(el("span", { cls: "muted", text: " " + part[1] + " " }));
        line.appendChild(Array.isArray(value) ? cards(value) : el("span", { text: String(value) }));
      });
      box.appendChild(line);
    });
    return box;
  }
  function phase(v) { return L["phase_" + v] || v; }

  // Each game draws its board in a script of its own (static web/replay/<slug>.js, in the
  // game's package), loaded before this one; it gets these helpers.
  var BOARDS = window.catclubReplayBoards || {};
  var helpers = {
    L: L, meta: meta, el: el, name: name, panel: panel, facts: facts, card: card, cards: cards,
    seatTable: seatTable, seatLabel: seatLabel, handsPanel: handsPanel, phase: phase,
  };

  // --- Stepping -----------------------------------------------------------------------------
  var counter = root.querySelector(".counter");
  var scrub = root.querySelector(".scrub");
  var sentence = root.querySelector(".sentence");
  var board = root.querySelector(".board");
  var raw = root.querySelector(".raw pre");
  var steplink = root.querySelector(".steplink");
  var speed = root.querySelector("select[name=speed]");
  var buttons = {};
  root.querySelectorAll("[data-go]").forEach(function (b) { buttons[b.dataset.go] = b; });
  var index = 0;
  var last = function () { return steps.length - 1; };

  function show(i) {
    index = Math.max(0, Math.min(last(), i));
    var step = steps[index], view = views[index];
    var privs = data.reveal ? privates[index] : null;
    counter.textContent = L.step + " " + index + " " + L.of + " " + last();
    scrub.max = String(last());
    scrub.value = String(index);
    buttons.first.disabled = buttons.prev.disabled = index === 0;
    buttons.next.disabled = buttons.last.disabled = index === last();

    // The step's sentences (the server's, in the page's language) head the step; the
    // region is live, so a screen reader says what happened as the replay moves.
    sentence.textContent = "";
    sentence.classList.remove("marked");
    (step.text || []).forEach(function (line) { sentence.appendChild(el("p", { text: line })); });
    // The post-game review of the decision this step played (issue 27), when there is one.
    var judged = (meta.review || {})[String(index)];
    if (judged) {
      sentence.appendChild(el("p", { cls: "review-step" + (judged.grade ? " grade-" + judged.grade : "") },
        judged.label ? el("strong", { text: judged.label + ": " }) : null, judged.line));
    }

    board.textContent = "";
    var render = BOARDS[data.game];
    var parts = [];
    try { parts = render ? render(view, privs, helpers) : []; } catch (e) { parts = []; }
    if (view.over) parts.unshift(el("p", { cls: "notice", text: L.over }));
    parts.forEach(function (p) { if (p) board.appendChild(p); });
    raw.textContent = JSON.stringify(privs ? { view: view, seats: privs } : view, null, 1);
    var hash = "#step-" + index;
    steplink.setAttribute("href", hash);
    if (window.location.hash !== hash && history.replaceState) history.replaceState(null, "", hash);
    if (index === last() && playing && !meta.live) pause();
  }

  // --- Autoplay ------------------------------------------------------------------------------
  var STEP_MS = 1500;
  var playing = null;
  function setPlaying(on) {
    buttons.play.classList.toggle("on", on);
    buttons.play.setAttribute("aria-label", on ? L.pause : L.play);
  }
  function tick() {
    if (index < last()) show(index + 1);
    else if (!meta.live) pause();
  }
  function play() {
    if (index === last() && !meta.live) show(0);
    clearInterval(playing);
    playing = setInterval(tick, STEP_MS / Number(speed.value || 1));
    setPlaying(true);
  }
  function pause() {
    clearInterval(playing);
    playing = null;
    setPlaying(false);
  }
  speed.addEventListener("change", function () { if (playing) play(); });

  var go = {
    first: function () { show(0); },
    prev: function () { show(index - 1); },
    next: function () { show(index + 1); },
    last: function () { show(last()); },
    play: function () { if (playing) pause(); else play(); },
  };
  Object.keys(go).forEach(function (k) { buttons[k].addEventListener("click", go[k]); });
  scrub.addEventListener("input", function () { show(Number(scrub.value)); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    // Space on a focused button or link already clicks it.
    if (e.key === " " && (tag === "BUTTON" || tag === "A" || tag === "SUMMARY")) return;
    var action = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", " ": "play" }[e.key];
    if (!action) return;
    e.preventDefault();
    go[action]();
  });

  // --- Links to a step: #step-12 opens there, and the address follows the replay ----------
  function stepInHash() {
    var m = /^#step-(\d+)$/.exec(window.location.hash);
    return m ? Number(m[1]) : null;
  }
  // A link to a step elsewhere on the page (the review's list of graded decisions) brings
  // the board into view at that step, its move marked: the hash alone changed the board
  // far below the link, and the page seemed to do nothing (issue 45).
  function bring(i) {
    show(i);
    sentence.classList.add("marked");
    root.scrollIntoView({ block: "start" });
  }
  window.addEventListener("hashchange", function () {
    var wanted = stepInHash();
    if (wanted !== null) bring(wanted);
  });
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest('a[href^="#step-"]');
    if (!link || root.contains(link) || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
    var m = /^#step-(\d+)$/.exec(link.getAttribute("href"));
    if (!m) return;
    e.preventDefault();
    bring(Number(m[1]));
  });

  // --- A running game: new steps arrive whenever the live table changes -------------------
  // The live table (table.js) long-polls the game and says so after each change; the replay
  // then fetches its steps, and moves along with them if the viewer was at the last one.
  var follow = root.dataset.follow;
  var fetching = false, again = false;
  async function refresh() {
    if (!root.dataset.follow) return;
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      var r = await fetch(follow + "&since=" + steps.length, {
        credentials: "same-origin", headers: { Accept: "application/json" },
      });
      if (r.ok) {
        var fresh = await r.json();
        addArt(fresh.cards || {});
        if ((fresh.steps || []).length) {
          var atEnd = index === last();
          load({
            game: data.game, reveal: fresh.reveal, broken: fresh.broken,
            steps: steps.slice(0, fresh.from).concat(fresh.steps),
          });
          // Over: everyone's cards are shown from the first step; nothing more will come.
          if (fresh.reveal) over();
          show(atEnd ? last() : index);
        }
      }
    } catch (e) { /* the table's next change tries again */ }
    fetching = false;
    if (again) { again = false; refresh(); }
  }
  // The page was written while the game ran: what said so gives way to what says it is over.
  function over() {
    meta.live = false;
    delete root.dataset.follow;
    document.querySelectorAll("[data-while-running]").forEach(function (n) { n.hidden = true; });
    document.querySelectorAll("[data-once-over]").forEach(function (n) { n.hidden = false; });
  }
  // Art for cards the page has not shown yet (the server draws and names them).
  function addArt(cards) {
    Object.keys(cards).forEach(function (code) {
      if (artOf(code)) return;
      var holder = document.createElement("template");
      holder.innerHTML = cards[code];
      var span = el("span", { cls: "card art", "data-code": code });
      span.appendChild(holder.content);
      cardArt.content.appendChild(span);
    });
  }
  if (follow) document.addEventListener("catclub:table", refresh);

  // --- A review on its way: shown the moment it is stored (issue 45) -----------------------
  // The game's change token moves when its review is stored; the table's stream (the same
  // server-sent events a live table follows) says so, and the page takes the review from
  // a fresh copy of itself. Where the stream is refused or not served (WSGI), the page
  // looks every WAIT_POLL_MS instead.
  var WAIT_POLL_MS = 10000;
  function awaitReview(node) {
    var done = false, looking = false, source = null, timer = null;
    async function look() {
      if (done || looking) return;
      looking = true;
      try {
        var r = await fetch(location.pathname, { credentials: "same-origin" });
        if (r.ok) {
          var doc = new DOMParser().parseFromString(await r.text(), "text/html");
          var fresh = doc.getElementById("review");
          if (fresh && !fresh.querySelector("[data-review-wait]")) {
            done = true;
            if (source) source.close();
            clearInterval(timer);
            var freshMeta = doc.getElementById("replay-meta");
            if (freshMeta) meta.review = JSON.parse(freshMeta.textContent).review || {};
            var shown = document.importNode(fresh, true);
            document.getElementById("review").replaceWith(shown);
            show(index);
          }
        }
      } catch (e) { /* the next change or look tries again */ }
      looking = false;
    }
    function poll() { if (!timer) timer = setInterval(look, WAIT_POLL_MS); }
    if (window.EventSource && node.dataset.events) {
      source = new EventSource(node.dataset.events + "?token=" + encodeURIComponent(node.dataset.token || ""));
      source.onmessage = look;
      source.onerror = function () {
        if (source.readyState === EventSource.CLOSED) { poll(); look(); }
      };
    } else {
      poll();
    }
  }
  var reviewWait = document.querySelector("[data-review-wait]");
  if (reviewWait) awaitReview(reviewWait);

  var wanted = stepInHash();
  // A running game opens where it is now; a finished one at its start.
  show(wanted !== null ? wanted : meta.live ? last() : 0);
  setPlaying(false);
  // Opened at a step's link: the board is what it points at.
  if (wanted !== null) { sentence.classList.add("marked"); root.scrollIntoView({ block: "start" }); }
})();
