// Every page: a choice that takes effect at once (the language, a league's season, a lobby
// computer's level) is a select marked data-submit, whose form is sent when it changes.
// A file of the site's rather than an onchange attribute: the Content-Security-Policy
// runs no inline code. Listened for on the document, so a select the table's script
// redraws keeps working.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    const select = event.target;
    if (!select.matches("select[data-submit]") || !select.form) return;
    // As a button would send it: a "submit" event that the table's script hears.
    if (select.form.requestSubmit) select.form.requestSubmit();
    else select.form.submit();
  });
})();
