"""A stand-in for Telegram's ``Telegram.WebApp`` (the object Telegram's script gives a Mini
App), put in each page before its scripts run (``page.add_init_script``): it records
every call the page makes to it (``window.__tg.calls``), supplies signed ``initData`` and
a theme, fires Telegram's events (``__tg.fire``) and presses its buttons (``__tg.press``),
as the Telegram app would. Nothing is fetched from Telegram."""

from __future__ import annotations

import json

DARK = {
    "bg_color": "#17212b",
    "text_color": "#f5f5f5",
    "hint_color": "#708499",
    "link_color": "#6ab3f3",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#232e3c",
    "section_bg_color": "#17212b",
    "section_separator_color": "#111921",
    "destructive_text_color": "#ec3942",
}
LIGHT = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#707579",
    "link_color": "#3390ec",
    "button_color": "#3390ec",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#f4f4f5",
}

STAND_IN = """
(() => {
  const given = %(given)s;
  const calls = [];
  const handlers = {};
  function button(name) {
    const clicks = [];
    const b = {
      text: "", isVisible: false, isActive: true,
      setText(t) { calls.push([name + ".setText", t]); this.text = t; return this; },
      setParams(p) { calls.push([name + ".setParams", p]); Object.assign(this, p); return this; },
      show() { calls.push([name + ".show"]); this.isVisible = true; return this; },
      hide() { calls.push([name + ".hide"]); this.isVisible = false; return this; },
      enable() { calls.push([name + ".enable"]); this.isActive = true; return this; },
      disable() { calls.push([name + ".disable"]); this.isActive = false; return this; },
      onClick(f) { clicks.push(f); return this; },
      offClick(f) { const i = clicks.indexOf(f); if (i >= 0) clicks.splice(i, 1); return this; },
    };
    b.press = () => clicks.slice().forEach((f) => f());
    return b;
  }
  const app = {
    initData: given.initData, initDataUnsafe: {}, version: "8.0", platform: "tdesktop",
    colorScheme: given.colorScheme, themeParams: given.themeParams,
    safeAreaInset: { top: 0, bottom: 0, left: 0, right: 0 },
    contentSafeAreaInset: { top: 0, bottom: 0, left: 0, right: 0 },
    ready() { calls.push(["ready"]); },
    expand() { calls.push(["expand"]); },
    close() { calls.push(["close"]); },
    onEvent(name, f) { (handlers[name] = handlers[name] || []).push(f); },
    offEvent(name, f) { handlers[name] = (handlers[name] || []).filter((g) => g !== f); },
    BackButton: button("BackButton"),
    MainButton: button("MainButton"),
    HapticFeedback: {
      impactOccurred(s) { calls.push(["impactOccurred", s]); return this; },
      notificationOccurred(t) { calls.push(["notificationOccurred", t]); return this; },
      selectionChanged() { calls.push(["selectionChanged"]); return this; },
    },
  };
  window.Telegram = { WebApp: app };
  window.__tg = {
    calls: calls,
    app: app,
    called: (name) => calls.filter((c) => c[0] === name).map((c) => c.slice(1)),
    fire(name, changes) {
      Object.assign(app, changes || {});
      (handlers[name] || []).forEach((f) => f.call(app));
    },
    press: (which) => app[which].press(),
  };
})();
"""


def stand_in(init_data: str, theme: dict | None = None, scheme: str = "dark") -> str:
    """The script that puts the stand-in in a page: signed ``init_data``, Telegram's
    ``theme`` (its dark one unless told)."""
    given = {
        "initData": init_data,
        "themeParams": DARK if theme is None else theme,
        "colorScheme": scheme,
    }
    return STAND_IN % {"given": json.dumps(given)}


def rgb(hex_colour: str) -> str:
    """A #rrggbb colour as the browser computes it."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def calls(page, name: str) -> list:
    """The arguments of each call of ``name`` the page made (e.g. "notificationOccurred")."""
    return page.evaluate("n => window.__tg.called(n)", name)


def main_button(page) -> dict:
    return page.evaluate(
        "() => { const b = window.__tg.app.MainButton;"
        " return {text: b.text, visible: b.isVisible, active: b.isActive}; }"
    )


def back_button_shown(page) -> bool:
    return page.evaluate("() => window.__tg.app.BackButton.isVisible")
