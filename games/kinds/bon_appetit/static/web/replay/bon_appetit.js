/* Bon Appétit! on the replay page: the board of one step, drawn with the page's
   helpers (``h``, web/replay.js), which loads after this file. */
(window.catclubReplayBoards = window.catclubReplayBoards || {}).bon_appetit = function (v, privs, h) {
  "use strict";
  var L = h.L, el = h.el, name = h.name, panel = h.panel, facts = h.facts, cards = h.cards, seatTable = h.seatTable, seatLabel = h.seatLabel;
  var out = [facts([L.tokens + ": " + v.tokens_left])];
  var common = panel(L.common);
  common.appendChild(cards((v.common || []).slice(-8)));
  if (v.chase) common.appendChild(el("p", { text: L.chase + ": " + name(v.chase.chaser) + ", " + v.chase.flips_left + " " + L.flips_left }));
  out.push(common);
  out.push(seatTable(v, [L.player, L.pile, L.tokens], function (n) {
    return [seatLabel(v, n), (v.piles || [])[n], (v.tokens || [])[n]];
  }));
  return out;
};
