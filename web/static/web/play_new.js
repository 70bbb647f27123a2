// The new table page: a level to pick for each computer that will sit down, no more (the
// server reads as many levels as computers, in order; without this script all are shown).
// A game whose computers come in one level shows none.
(function () {
  "use strict";
  const count = document.getElementById("computers");
  const box = document.querySelector(".levels");
  if (!count || !box) return;
  function show() {
    const game = document.querySelector("input[name=game]:checked");
    const seats = game ? Number(game.dataset.max) - 1 : 0;
    const n = Math.min(Number(count.value), seats);
    box.querySelectorAll(".level").forEach(function (row) {
      row.hidden = Number(row.dataset.computer) > n;
    });
    box.hidden = n === 0 || !(game && game.dataset.levels);
    // Each level's name with its rating in the chosen game (issue 47): "hard · 1650".
    const ladder = game && game.dataset.ladder ? JSON.parse(game.dataset.ladder) : {};
    box.querySelectorAll("option").forEach(function (option) {
      if (!option.dataset.name) option.dataset.name = option.textContent;
      option.textContent = ladder[option.value] || option.dataset.name;
    });
  }
  count.addEventListener("change", show);
  document.querySelectorAll("input[name=game]").forEach(function (radio) {
    radio.addEventListener("change", show);
  });
  show();
})();
