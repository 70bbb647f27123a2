/* Come Cani e Gatti on the replay page: the board of one step, drawn with the page's
   helpers (``h``, web/replay.js), which loads after this file. */
(window.catclubReplayBoards = window.catclubReplayBoards || {}).cats_and_dogs = function (v, privs, h) {
  "use strict";
  var L = h.L, meta = h.meta, el = h.el, name = h.name, panel = h.panel, facts = h.facts, card = h.card, cards = h.cards, seatTable = h.seatTable, seatLabel = h.seatLabel, phase = h.phase;
  var out = [facts([L.food_left + ": " + v.food_left, L.phase + ": " + phase(v.phase),
    null])];
  if (v.drawn) out[0].appendChild(el("span", {}, card(v.drawn)));
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
        cards(hand)));
    });
    out.push(box);
  }
  return out;
};
