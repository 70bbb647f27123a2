/* Felix on the replay page: the board of one step, drawn with the page's
   helpers (``h``, web/replay.js), which loads after this file. */
(window.catclubReplayBoards = window.catclubReplayBoards || {}).felix = function (v, privs, h) {
  "use strict";
  var L = h.L, panel = h.panel, facts = h.facts, cards = h.cards, seatTable = h.seatTable, seatLabel = h.seatLabel, handsPanel = h.handsPanel, phase = h.phase;
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
};
