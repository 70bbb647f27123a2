/* Replay of one game, step by step: buttons, a slider and the arrow keys.
   The page embeds the steps as JSON (views as deltas); names and labels come from the
   server, already translated. Everything is built with DOM calls and textContent, so a
   player's name can never inject markup. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var dataNode = document.getElementById("replay-data");
  var metaNode = document.getElementById("replay-meta");
  if (!root || !dataNode || !metaNode) return;
  var data = JSON.parse(dataNode.textContent);
  var meta = JSON.parse(metaNode.textContent);
  var L = meta.labels, E = meta.events;
  var names = {};
  meta.seats.forEach(function (s) { names[s.number] = s.name; });
  var steps = data.steps || [];
  if (!steps.length) return;

  // --- Rebuild every step's full views from the deltas --------------------------------
  function applyDelta(prev, delta) {
    var next = Object.assign({}, prev, delta);
    (delta.__removed__ || []).forEach(function (k) { delete next[k]; });
    delete next.__removed__;
    return next;
  }
  var views = [], privates = [];
  var pub = {}, priv = null;
  steps.forEach(function (step) {
    pub = applyDelta(pub, step.view || {});
    views.push(pub);
    if (step.private) {
      priv = step.private.map(function (d, i) { return applyDelta((priv && priv[i]) || {}, d); });
      privates.push(priv);
    }
  });

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

  // --- Cards of each game -----------------------------------------------------------------
  var SUITS = { L: "♠", H: "♥", B: "♦", A: "♣" };
  var RANKS = { X: "10" };
  function cardText(card) {
    if (card === null || card === undefined) return null;
    card = String(card);
    if (data.game === "smoking_cat" && card.length === 2 && SUITS[card[0]])
      return SUITS[card[0]] + (RANKS[card[1]] || card[1]);
    if (data.game === "felix") return L["felix_" + card] || card;
    if (data.game === "bon_appetit") return L["bon_" + card] || card;
    if (data.game === "cats_and_dogs" && /^[bf]\d+$/.test(card))
      return (card[0] === "b" ? L.bone : L.fish) + " " + card.slice(1);
    return card;
  }
  function card(c) {
    var text = cardText(c);
    if (text === null) return el("span", { cls: "card back", title: L.hidden, text: "?" });
    var red = data.game === "smoking_cat" && /^[HB]/.test(String(c));
    return el("span", { cls: "card" + (red ? " red" : ""), text: text });
  }
  function cards(list) {
    return el("span", { cls: "cardrow" }, (list || []).map(card));
  }
  function wordLetters(word, got) {
    word = word || ""; got = got || "";
    return el("span", { cls: "word-letters" }, word.split("").map(function (ch, i) {
      return el("span", { cls: i < got.length ? "got" : "todo", text: ch });
    }));
  }

  // --- Events -------------------------------------------------------------------------------
  // The board shows these better than a line of text could.
  var SKIP_KEYS = ["type", "to", "seat", "letters"];
  var SEAT_KEYS = ["seat", "winner", "leader", "chaser", "dealer", "first", "owner", "mouse_owner"];
  function value(key, v) {
    if (SEAT_KEYS.indexOf(key) >= 0 && typeof v === "number") return name(v);
    if (key === "losers" && Array.isArray(v)) return v.map(name).join(", ");
    if (key === "delta" && typeof v === "number") return v > 0 ? "+" + v : String(v);
    if ((key === "card" || key === "cat" || key === "dog") && typeof v === "string") return cardText(v);
    if ((key === "cards" || key === "dogs") && Array.isArray(v)) return v.map(cardText).join(" ");
    if (Array.isArray(v)) return v.map(function (x) { return typeof x === "object" ? JSON.stringify(x) : String(x); }).join(" · ");
    if (v !== null && typeof v === "object") return JSON.stringify(v);
    return String(v);
  }
  function describe(ev) {
    var parts = [];
    var who = typeof ev.seat === "number" ? name(ev.seat) + ": " : "";
    Object.keys(ev).forEach(function (k) {
      if (SKIP_KEYS.indexOf(k) >= 0 || ev[k] === null || ev[k] === undefined) return;
      parts.push((L["k_" + k] || k) + " " + value(k, ev[k]));
    });
    return who + (E[ev.type] || ev.type) + (parts.length ? " — " + parts.join(", ") : "");
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
    return el("div", { cls: "wrap" }, table);
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

  var BOARDS = {
    smoking_cat: function (v, privs) {
      var out = [facts([L.deal + " " + v.deal, L.phase + ": " + phase(v.phase), v.word])];
      out.push(seatTable(v, [L.player, L.letters, L.points, L.cards], function (n) {
        return [
          seatLabel(v, n, v.dealer === n ? "(" + L.dealer + ")" : ""),
          wordLetters(v.word, (v.letters || [])[n]),
          (v.points || [])[n],
          (v.hand_sizes || [])[n],
        ];
      }));
      out.push(handsPanel(privs, [["hand", ""], ["passed_cards", L.passed_cards]]));
      var trick = panel(L.trick);
      trick.appendChild(el("p", {}, (v.trick || []).map(function (pc) {
        return el("span", {}, name(pc[0]) + " ", card(pc[1]), " ");
      })));
      if ((v.last_trick || []).length) {
        trick.appendChild(el("p", { cls: "muted" }, L.last_trick + ": ", (v.last_trick || []).map(function (pc) {
          return el("span", {}, name(pc[0]) + " ", card(pc[1]), " ");
        })));
      }
      out.push(trick);
      return out;
    },
    felix: function (v, privs) {
      var out = [facts([L.round + " " + v.round + "/" + v.rounds, L.phase + ": " + phase(v.phase),
        L.bank + ": " + v.bank])];
      var row = panel(L.row);
      row.appendChild(cards(v.row));
      out.push(row);
      var head = [L.player, L.stake, L.cards, L.sacks];
      if (privs) head.push(L.mice);
      out.push(seatTable(v, head, function (n) {
        var cells = [
          seatLabel(v, n, (v.passed || [])[n] ? "(" + L.passed + ")" : ""),
          (v.stakes || [])[n],
          (v.hand_counts || [])[n],
          (v.sacks || [])[n],
        ];
        if (privs) cells.push(privs[n].mice);
        return cells;
      }));
      out.push(handsPanel(privs, [["hand", ""], ["score_pile", L.pile]]));
      return out;
    },
    bon_appetit: function (v) {
      var out = [facts([L.tokens + ": " + v.tokens_left, v.deck])];
      var common = panel(L.common);
      common.appendChild(cards((v.common || []).slice(-8)));
      if (v.chase) common.appendChild(el("p", { text: L.chase + ": " + name(v.chase.chaser) + ", " + v.chase.flips_left + " " + L.flips_left }));
      out.push(common);
      out.push(seatTable(v, [L.player, L.pile, L.tokens], function (n) {
        return [seatLabel(v, n), (v.piles || [])[n], (v.tokens || [])[n]];
      }));
      return out;
    },
    cats_and_dogs: function (v, privs) {
      var out = [facts([L.food_left + ": " + v.food_left, L.phase + ": " + phase(v.phase),
        v.drawn ? cardText(v.drawn) : null])];
      var grid = el("div", { cls: "animals" });
      (v.animals || []).forEach(function (a) {
        grid.appendChild(el("div", { cls: "animal" + (a.sated ? " sated" : "") },
          el("strong", { text: a.name }),
          el("span", { cls: "muted", text: " · " + (L["kind_" + a.kind] || a.kind) }),
          el("div", { text: L.score + ": " + a.score + (a.sated ? " · " + L.sated : "") }),
          el("div", {}, cards(a.food)),
          el("div", { cls: "muted", text: (a.markers || []).map(name).join(", ") })));
      });
      var animals = panel(L.animals);
      animals.appendChild(grid);
      out.push(animals);
      out.push(seatTable(v, [L.player, L.score, L.markers_left, L.action_cards], function (n) {
        return [seatLabel(v, n), (v.scores || [])[n], (v.markers_left || [])[n], (v.action_cards || [])[n]];
      }));
      if (privs) {
        var box = panel(L.hands);
        meta.seats.forEach(function (s) {
          var hand = (privs[s.number] || {}).hand || [];
          box.appendChild(el("p", { cls: "hand-line" }, el("strong", { text: name(s.number) + ": " }),
            hand.map(function (c) { return L["action_" + c] || c; }).join(", ")));
        });
        out.push(box);
      }
      return out;
    },
  };

  // --- Stepping ----------------------------------------------------------------------------
  var counter = root.querySelector(".counter");
  var scrub = root.querySelector(".scrub");
  var eventsBox = root.querySelector(".events");
  var board = root.querySelector(".board");
  var raw = root.querySelector(".raw pre");
  var buttons = {};
  root.querySelectorAll("[data-go]").forEach(function (b) { buttons[b.dataset.go] = b; });
  scrub.max = String(steps.length - 1);
  var index = 0;

  function show(i) {
    index = Math.max(0, Math.min(steps.length - 1, i));
    var step = steps[index], view = views[index];
    var privs = data.reveal ? privates[index] : null;
    counter.textContent = L.step + " " + index + " " + L.of + " " + (steps.length - 1);
    scrub.value = String(index);
    buttons.first.disabled = buttons.prev.disabled = index === 0;
    buttons.next.disabled = buttons.last.disabled = index === steps.length - 1;

    eventsBox.textContent = "";
    if (index === 0) eventsBox.appendChild(el("p", { text: L.start }));
    else {
      if (step.moderator) eventsBox.appendChild(el("p", { cls: "muted", text: L.moderator }));
      else if (data.reveal && step.action) eventsBox.appendChild(el("p", { cls: "muted", text: name(step.seat) + ": " + step.action }));
      (step.events || []).forEach(function (ev) { eventsBox.appendChild(el("p", { text: describe(ev) })); });
      (step.private_events || []).forEach(function (ev) {
        eventsBox.appendChild(el("p", { cls: "private", text: "(" + L.private + ") " + describe(ev) }));
      });
      if (!(step.events || []).length && !(step.private_events || []).length && !step.action)
        eventsBox.appendChild(el("p", { cls: "muted", text: L.nothing }));
    }
    board.textContent = "";
    var render = BOARDS[data.game];
    var parts = [];
    try { parts = render ? render(view, privs) : []; } catch (e) { parts = []; }
    if (view.over) parts.unshift(el("p", { cls: "notice", text: L.over }));
    parts.forEach(function (p) { if (p) board.appendChild(p); });
    raw.textContent = JSON.stringify(privs ? { view: view, seats: privs } : view, null, 1);
    if (window.history && history.replaceState) history.replaceState(null, "", "#step-" + index);
  }

  var go = {
    first: function () { show(0); },
    prev: function () { show(index - 1); },
    next: function () { show(index + 1); },
    last: function () { show(steps.length - 1); },
  };
  Object.keys(go).forEach(function (k) { buttons[k].addEventListener("click", go[k]); });
  scrub.addEventListener("input", function () { show(Number(scrub.value)); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    var action = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
    if (!action) return;
    e.preventDefault();
    go[action]();
  });
  var m = /^#step-(\d+)$/.exec(window.location.hash);
  show(m ? Number(m[1]) : 0);
})();
