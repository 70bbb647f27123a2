/* Smoking Cat on the replay page: the board of one step, drawn with the page's
   helpers (``h``, web/replay.js), which loads after this file. */
(window.catclubReplayBoards = window.catclubReplayBoards || {}).smoking_cat = function (v, privs, h) {
  "use strict";
  var L = h.L, el = h.el, name = h.name, panel = h.panel, facts = h.facts, card = h.card, cards = h.cards, seatTable = h.seatTable, seatLabel = h.seatLabel, handsPanel = h.handsPanel, phase = h.phase;
  function wordLetters(word, got) {
    word = word || ""; got = got || "";
    return el("span", { cls: "word-marks" }, word.split("").map(function (ch, i) {
      return el("span", { cls: i < got.length ? "got" : "todo", text: ch });
    }));
  }
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
};
