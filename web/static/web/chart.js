/* A player's rating history as an SVG line chart, drawn here (no chart library):
   one line per game (the overall rating; a league's rating repeats the same games, so
   drawing it too doubled the lines), a legend of exactly those lines that toggles them,
   and the value of each point in its tooltip. */
(function () {
  "use strict";
  var box = document.getElementById("chart");
  var node = document.getElementById("rating-series");
  if (!box || !node) return;
  var series = JSON.parse(node.textContent).filter(function (s) { return s.points.length; });
  if (!series.length) return;
  var NS = "http://www.w3.org/2000/svg";
  var COLORS = ["#b5541a", "#1565c0", "#2e7d32", "#6a1b9a", "#c62828", "#00838f", "#5d4037", "#ef6c00"];
  var START = 1500;
  var W = 640, H = 260, PAD = { l: 40, r: 12, t: 12, b: 28 };
  var hidden = {};
  // Dates as the page's language writes them ("30 Nov 2026", "30/11/2026"...), not as
  // the browser's own locale does: the server writes every other date on the page.
  var LANG = document.documentElement.lang || "en";
  var LOCALE = { en: "en-GB", pt: "pt-PT", it: "it-IT" }[LANG] || LANG;
  var DAY = { day: "numeric", month: "short", year: "numeric" };
  var MOMENT = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" };

  function svg(tag, attrs, text) {
    var n = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { n.setAttribute(k, attrs[k]); });
    if (text !== undefined) n.textContent = text;
    return n;
  }

  function draw() {
    box.textContent = "";
    var shown = series.filter(function (s, i) { return !hidden[i]; });
    var times = [], values = [];
    (shown.length ? shown : series).forEach(function (s) {
      s.points.forEach(function (p) { times.push(Date.parse(p[0])); values.push(p[1]); });
    });
    var t0 = Math.min.apply(null, times), t1 = Math.max.apply(null, times);
    // Shown ratings (1500 at the start, games.ratings.display): the range of the values
    // with a margin, the starting line included so a rise or fall reads at a glance.
    var v0 = Math.floor(Math.min.apply(null, values.concat([START])) - 20);
    var v1 = Math.ceil(Math.max.apply(null, values.concat([START])) + 20);
    if (t1 === t0) { t0 -= 86400000; t1 += 86400000; }
    function x(t) { return PAD.l + (t - t0) / (t1 - t0) * (W - PAD.l - PAD.r); }
    function y(v) { return PAD.t + (v1 - v) / (v1 - v0) * (H - PAD.t - PAD.b); }

    var chart = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img",
      "aria-label": box.getAttribute("aria-label") || "" });
    // Horizontal grid with values in round tens, and the starting line a little darker.
    var stepV = Math.max(10, Math.ceil((v1 - v0) / 5 / 10) * 10);
    for (var v = Math.ceil(v0 / stepV) * stepV; v <= v1; v += stepV) {
      chart.appendChild(svg("line", { x1: PAD.l, x2: W - PAD.r, y1: y(v), y2: y(v),
        stroke: v === START ? "#bbb" : "#eee" }));
      chart.appendChild(svg("text", { x: PAD.l - 6, y: y(v) + 4, "text-anchor": "end",
        "font-size": 11, fill: "#777" }, String(v)));
    }
    [t0, (t0 + t1) / 2, t1].forEach(function (t, i) {
      chart.appendChild(svg("text", { x: x(t), y: H - 8, "font-size": 11, fill: "#777",
        "text-anchor": ["start", "middle", "end"][i] }, new Date(t).toLocaleDateString(LOCALE, DAY)));
    });
    series.forEach(function (s, i) {
      if (hidden[i]) return;
      var color = COLORS[i % COLORS.length];
      var pts = s.points.map(function (p) { return x(Date.parse(p[0])) + "," + y(p[1]); });
      chart.appendChild(svg("polyline", { points: pts.join(" "), fill: "none", stroke: color,
        "stroke-width": 2, "stroke-linejoin": "round" }));
      s.points.forEach(function (p) {
        var dot = svg("circle", { cx: x(Date.parse(p[0])), cy: y(p[1]), r: 3, fill: color });
        dot.appendChild(svg("title", {}, s.label + ": " + p[1] + " (" + new Date(p[0]).toLocaleString(LOCALE, MOMENT) + ")"));
        chart.appendChild(dot);
      });
    });
    box.appendChild(chart);

    var legend = document.createElement("div");
    legend.className = "legend";
    series.forEach(function (s, i) {
      var b = document.createElement("button");
      b.type = "button";
      b.setAttribute("aria-pressed", hidden[i] ? "false" : "true");
      var sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.background = COLORS[i % COLORS.length];
      b.appendChild(sw);
      b.appendChild(document.createTextNode(s.label));
      b.addEventListener("click", function () { hidden[i] = !hidden[i]; draw(); });
      legend.appendChild(b);
    });
    box.appendChild(legend);
  }
  draw();
})();
