// Telegram, when a page of the site is open as the Mini App: the user's theme (live, as
// they switch it), Telegram's back button and main button, haptics when it becomes their
// turn or a move is refused, the full height, and the safe areas around Telegram's own
// controls. Loaded in the head without defer, so that Telegram's colours are on the page
// before its first paint.
//
// Telegram's own script (telegram-web-app.js) is served from telegram.org only, and the
// site asks nothing of another site: where a Telegram.WebApp object is there anyway (a
// client or a test that provides one) it is used; otherwise the few messages of Telegram's
// protocol that this needs are written out below, behind the same names.
(function () {
  "use strict";
  const root = document.documentElement;
  const hash = new URLSearchParams(location.hash.slice(1));
  // Telegram gives initData and the theme in the first page's address: kept for the next
  // pages in the tab's storage, where the browser lets the frame have one (one that blocks
  // a cross-site iframe's storage throws: the address then carries them on).
  let keeps = true;
  function kept(key, fresh) {
    try {
      if (fresh) sessionStorage.setItem(key, fresh);
      return fresh || sessionStorage.getItem(key) || "";
    } catch (e) {
      keeps = false;
      return fresh || "";
    }
  }
  const given = window.Telegram && window.Telegram.WebApp;
  const native = given && typeof given.onEvent === "function" ? given : null;
  const initData = kept("tgInitData", (native && native.initData) || hash.get("tgWebAppData"));
  const active = Boolean(initData);
  const app = active ? native || protocol() : null;

  // -- Telegram's protocol, where no Telegram.WebApp is given ----------------------------
  function protocol() {
    const handlers = {};
    window.Telegram = window.Telegram || {};
    function dispatch(type, data) { (handlers[type] || []).forEach((f) => f(data || {})); }
    window.Telegram.WebView = window.Telegram.WebView || { receiveEvent: dispatch };
    function post(type, data) {
      const body = JSON.stringify(data || {});
      try {
        if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(type, body);
        else if (window.external && "notify" in window.external)
          window.external.notify(JSON.stringify({ eventType: type, eventData: data || {} }));
        else if (window.parent !== window)
          window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data || {} }), "*");
      } catch (e) { /* not inside Telegram */ }
    }
    function listen(type, f) { (handlers[type] = handlers[type] || []).push(f); }
    // Telegram's web clients frame the app and send its events by postMessage (only that
    // frame's parent may: frame-ancestors names Telegram's origins alone).
    window.addEventListener("message", (ev) => {
      if (ev.source !== window.parent || window.parent === window) return;
      let m = null;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m && typeof m.eventType === "string") dispatch(m.eventType, m.eventData);
    });
    function parsed(text) {
      try { return JSON.parse(text) || {}; } catch (e) { return {}; }
    }
    // As Telegram's script decides it: a dark background makes a dark scheme.
    function scheme(params) {
      const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(params.bg_color || "");
      if (!m) return "light";
      const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16));
      return Math.sqrt(0.299 * r * r + 0.587 * g * g + 0.114 * b * b) < 120 ? "dark" : "light";
    }
    const events = {
      themeChanged: "theme_changed",
      safeAreaChanged: "safe_area_changed",
      contentSafeAreaChanged: "content_safe_area_changed",
      backButtonClicked: "back_button_pressed",
      mainButtonClicked: "main_button_pressed",
    };
    const a = {
      initData: initData,
      themeParams: parsed(kept("tgTheme", hash.get("tgWebAppThemeParams"))),
      colorScheme: "light",
      safeAreaInset: {},
      contentSafeAreaInset: {},
      ready: () => post("web_app_ready"),
      expand: () => post("web_app_expand"),
      onEvent: (name, f) => listen(events[name] || name, () => f.call(a)),
      BackButton: {
        isVisible: false,
        show: function () { this.isVisible = true; post("web_app_setup_back_button", { is_visible: true }); },
        hide: function () { this.isVisible = false; post("web_app_setup_back_button", { is_visible: false }); },
        onClick: (f) => a.onEvent("backButtonClicked", f),
      },
      MainButton: {
        text: "", isVisible: false, isActive: true,
        setParams: function (p) {
          Object.assign(this, p);
          const theme = a.themeParams;
          post("web_app_setup_main_button", {
            is_visible: this.isVisible && Boolean(this.text), is_active: this.isActive,
            text: this.text, color: theme.button_color, text_color: theme.button_text_color,
          });
        },
        setText: function (text) { this.setParams({ text: text }); },
        show: function () { this.setParams({ isVisible: true }); },
        hide: function () { this.setParams({ isVisible: false }); },
        enable: function () { this.setParams({ isActive: true }); },
        disable: function () { this.setParams({ isActive: false }); },
        onClick: (f) => a.onEvent("mainButtonClicked", f),
      },
      HapticFeedback: {
        impactOccurred: (style) =>
          post("web_app_trigger_haptic_feedback", { type: "impact", impact_style: style }),
        notificationOccurred: (kind) =>
          post("web_app_trigger_haptic_feedback", { type: "notification", notification_type: kind }),
        selectionChanged: () => post("web_app_trigger_haptic_feedback", { type: "selection_change" }),
      },
    };
    a.colorScheme = scheme(a.themeParams);
    // Telegram's events carry the new values: kept before the page's handlers hear them.
    listen("theme_changed", (d) => {
      a.themeParams = d.theme_params || {};
      a.colorScheme = scheme(a.themeParams);
      kept("tgTheme", JSON.stringify(a.themeParams));
    });
    listen("safe_area_changed", (d) => { a.safeAreaInset = d; });
    listen("content_safe_area_changed", (d) => { a.contentSafeAreaInset = d; });
    a.post = post;
    return a;
  }

  // -- colours ---------------------------------------------------------------------------
  // The site's custom properties (site.css) from Telegram's themeParams, the first key
  // given of each list; Telegram's colour scheme picks the palette for the rest.
  const COLOURS = {
    "--bg": ["bg_color"],
    "--fg": ["text_color"],
    "--muted": ["hint_color"],
    "--link": ["link_color"],
    "--chip-fg": ["link_color"],
    "--accent": ["button_color"],
    "--accent-fg": ["button_text_color"],
    "--card": ["section_bg_color", "bg_color"],
    "--panel": ["secondary_bg_color", "section_bg_color"],
    "--chip": ["secondary_bg_color", "section_bg_color"],
    "--field": ["secondary_bg_color", "section_bg_color"],
    "--notice": ["secondary_bg_color"],
    "--line": ["section_separator_color", "hint_color"],
    "--bad": ["destructive_text_color"],
  };
  function colours() {
    const params = app.themeParams || {};
    root.dataset.theme = app.colorScheme === "dark" ? "dark" : "light";
    Object.keys(COLOURS).forEach((property) => {
      const key = COLOURS[property].find((k) => /^#[0-9a-f]{3,8}$/i.test(params[k] || ""));
      if (key) root.style.setProperty(property, params[key]);
      else root.style.removeProperty(property);
    });
  }
  const SIDES = ["top", "bottom", "left", "right"];
  function insets() {
    [["--tg-safe-", app.safeAreaInset], ["--tg-content-", app.contentSafeAreaInset]].forEach(
      ([prefix, inset]) => SIDES.forEach((side) => {
        const px = Number((inset || {})[side]);
        if (px > 0) root.style.setProperty(prefix + side, px + "px");
        else root.style.removeProperty(prefix + side);
      })
    );
  }

  function csrf() {
    const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function haptic(kind) {
    const h = app && app.HapticFeedback;
    if (!h) return;
    if (kind.type === "impact") h.impactOccurred(kind.impact_style || "light");
    else if (kind.type === "notification") h.notificationOccurred(kind.notification_type);
    else h.selectionChanged();
  }
  window.catclubTelegram = { initData: initData, active: active, keeps: keeps, app: app, haptic: haptic };
  if (!active) return;

  colours();
  insets();
  app.onEvent("themeChanged", colours);
  app.onEvent("safeAreaChanged", insets);
  app.onEvent("contentSafeAreaChanged", insets);
  if (app.post) {
    if (window.parent !== window) app.post("iframe_ready", { reload_supported: false });
    app.post("web_app_request_theme");
    app.post("web_app_request_safe_area");
    app.post("web_app_request_content_safe_area");
  }

  // -- the back button ---------------------------------------------------------------------
  // The Mini App's first page (the one its entry opened) has none: Telegram's close is
  // the way out there. Any later page goes back; a step of a choice under way (a
  // [data-back-button] shown) is undone first.
  const ENTRY = "/play/tg/";
  const here = location.pathname + location.search;
  let first = "";
  try {
    first = sessionStorage.getItem("tgFirst") || "";
    if (!first && location.pathname !== ENTRY) sessionStorage.setItem("tgFirst", (first = here));
  } catch (e) { /* a frame that keeps nothing: the tab's history says */ }
  const onFirst = location.pathname === ENTRY || (first ? first === here : history.length <= 1);
  function shown(el) { return el && el.isConnected && el.getClientRects().length > 0; }
  function pageBack() { return Array.from(document.querySelectorAll("[data-back-button]")).find(shown); }
  app.BackButton.onClick(() => {
    const step = pageBack();
    if (step) step.click();
    else if (history.length > 1) history.back();
    else location.assign(first || "/");
  });

  // -- the main button ---------------------------------------------------------------------
  // It mirrors the page's primary button (the one marked data-main-button that shows):
  // its words, whether it may be pressed, and a press is a click on it, so the page's own
  // form or script does the rest, as it does outside Telegram.
  let primary = null;
  app.MainButton.onClick(() => {
    if (shown(primary) && !primary.disabled) primary.click();
  });
  function sync() {
    sync.timer = 0;
    const step = pageBack();
    const back = Boolean(step) || !onFirst;
    if (back !== Boolean(app.BackButton.isVisible)) {
      if (back) app.BackButton.show(); else app.BackButton.hide();
    }

    primary = Array.from(document.querySelectorAll("[data-main-button]")).find(shown) || null;
    const main = app.MainButton;
    if (primary) {
      const text = (primary.dataset.mainButton || primary.textContent).trim().slice(0, 64);
      if (main.text !== text) main.setText(text);
      if (primary.disabled && main.isActive) main.disable();
      else if (!primary.disabled && !main.isActive) main.enable();
      if (!main.isVisible) main.show();
    } else if (main.isVisible) {
      main.hide();
    }

    turn();
  }
  // A turn of this seat's begins (the table redrawn at a new version on its turn, when
  // the last was someone else's or the seat had made its move): a tap in the hand. Not a
  // refused move's (the same version), nor another's move in a turn that all take at once.
  let seen = null;
  let spent = false;
  function turn() {
    const box = document.querySelector(".tablebox");
    const version = box ? box.dataset.version : "";
    const offered = Array.from(document.querySelectorAll(".choices button"));
    if (offered.length && offered.every((b) => b.disabled)) spent = true;
    else if (offered.length && seen && version === seen.version) spent = false;  // refused
    const mine = Boolean(document.querySelector(".turn.mine"));
    if (seen && version !== seen.version) {
      if (mine && (spent || !seen.mine)) haptic({ type: "notification", notification_type: "success" });
      spent = false;
    }
    seen = { version: version, mine: mine };
  }
  function later() { if (!sync.timer) sync.timer = setTimeout(sync, 0); }

  function start() {
    // The language chosen is kept in a cookie (Django's set_language, CSRF-checked):
    // where the frame keeps none, the choice would fail; the page follows the browser's.
    const language = document.querySelector("form.lang");
    if (language && !csrf()) language.remove();
    // The page as it came counts as no turn begun: the tap is for a turn that comes.
    sync();
    new MutationObserver(later).observe(document.body, {
      subtree: true, childList: true, attributes: true,
      attributeFilter: ["hidden", "disabled", "class", "style"],
    });
    app.ready();
    app.expand();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
