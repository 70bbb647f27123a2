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

// The colours' toggle (auto, light, dark): the choice goes in a cookie that the server
// renders the next pages with (their first paint is right, with no script before it),
// and in this page at once.
// Offered only where a script can keep it; inside Telegram the user's theme decides.
(function () {
  "use strict";
  const pick = document.querySelector(".theme-pick");
  if (!pick || (window.catclubTelegram && window.catclubTelegram.active)) return;
  const select = pick.querySelector("select");
  pick.hidden = false;
  select.addEventListener("change", function () {
    const theme = select.value;
    const root = document.documentElement;
    const secure = location.protocol === "https:" ? "; Secure" : "";
    if (theme === "light" || theme === "dark") {
      root.dataset.theme = theme;
      document.cookie = "theme=" + theme + "; path=/; max-age=31536000; SameSite=Lax" + secure;
    } else {
      delete root.dataset.theme;
      document.cookie = "theme=; path=/; max-age=0; SameSite=Lax" + secure;
    }
  });
})();
