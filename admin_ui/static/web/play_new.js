// The new table page: a level to pick for each computer that will sit down, no more (the
// server reads as many levels as computers, in order; without this script all are shown).
(function () {
  "use strict";
  const count = document.getElementById("computers");
  if (!count) return;
  function show() {
    const n = Number(count.value);
    document.querySelectorAll(".levels .level").forEach(function (row) {
      row.hidden = Number(row.dataset.computer) > n;
    });
    document.querySelector(".levels").hidden = n === 0;
  }
  count.addEventListener("change", show);
  show();
})();
