// The organiser's form (issue 45): only the fields of the chosen format are shown, the
// rounds for a Swiss tournament, the minutes for an arena; without the script both stay
// and the server takes the one the format needs.
(function () {
  "use strict";
  var format = document.getElementById("id_format");
  if (!format) return;
  var fields = { swiss: "id_round_count", arena: "id_duration_minutes" };
  function show() {
    Object.keys(fields).forEach(function (name) {
      var input = document.getElementById(fields[name]);
      if (input) input.closest(".field").hidden = format.value !== name;
    });
  }
  format.addEventListener("change", show);
  show();
})();
