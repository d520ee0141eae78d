/* Live explorers: labelled sliders, an SVG chart and a sentence read out to screen readers,
   from the data reliability/live.py wrote into the page. Nothing is computed here beyond
   drawing: every number is looked up, so the page shows the package's numbers.

   An explorer is built as it nears the reader's view (start(), below).

   The control positions live in the page's URL (?ch1-decay.p=0.95&ch1-decay.n=10), so a
   link opens the chart at the setting it was copied from. window.liveExplorers[name]
   lets tests and the benchmark set positions and read what the page shows. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var registry = {};
  window.liveExplorers = registry;

  function make(tag, attrs, parent, ns) {
    var node = ns ? document.createElementNS(SVG, tag) : document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }
  function shape(tag, attrs, parent) { return make(tag, attrs, parent, true); }

  /* Round tick values: 1, 2 or 5 times a power of ten, about `count` of them. */
  function ticks(lo, hi, count) {
    var raw = (hi - lo) / count, power = Math.pow(10, Math.floor(Math.log10(raw)));
    var step = [1, 2, 5, 10].map(function (m) { return m * power; })
      .filter(function (s) { return s >= raw; })[0];
    var out = [];
    for (var v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
      out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    }
    return {values: out, step: step};
  }
  function label(value, step, percent, decimal) {
    var scaled = percent ? value * 100 : value, unit = percent ? step * 100 : step;
    var decimals = Math.max(0, -Math.floor(Math.log10(unit) + 1e-9));
    // the page language's decimal sign, as the package wrote it into the data
    return scaled.toFixed(decimals).replace(".", decimal || ".") + (percent ? "%" : "");
  }

  function Explorer(root) {
    // a deck keeps an explorer's data in a script file of its own (bookbuild/slides.py)
    var holder = root.querySelector("script.live-data");
    var data = holder.hasAttribute("data-key")
      ? window.liveData[holder.getAttribute("data-key")] : JSON.parse(holder.textContent);
    var name = data.name, controls = data.controls;
    var position = {};
    var query = new URLSearchParams(window.location.search);
    controls.forEach(function (c) {
      position[c.name] = c["default"];
      var asked = query.get(name + "." + c.name);
      if (asked !== null && isFinite(Number(asked))) {
        var wanted = Number(asked), best = 0;
        c.values.forEach(function (v, i) {
          if (Math.abs(v - wanted) < Math.abs(c.values[best] - wanted)) best = i;
        });
        position[c.name] = best;
      }
    });

    var form = make("div", {"class": "live-controls"});
    var inputs = {};
    controls.forEach(function (c) {
      var id = "live-" + name + "-" + c.name;
      var row = make("div", {"class": "live-control"}, form);
      var caption = make("label", {"for": id}, row);
      caption.textContent = c.label + ": ";
      var shown = make("output", {"for": id}, caption);
      var input = make("input", {type: "range", id: id, min: 0, max: c.values.length - 1,
                                 step: 1}, row);
      input.value = position[c.name];
      inputs[c.name] = {input: input, shown: shown};
      input.addEventListener("input", function () {
        position[c.name] = Number(input.value);
        update(true);
      });
    });
    var figure = make("div", {"class": "live-chart"});
    var legend = make("ul", {"class": "live-legend"});
    data.series.forEach(function (s) {
      var item = make("li", {}, legend);
      make("span", {"class": "live-swatch " + s.kind + (s.dashed ? " dashed" : ""),
                    style: "--swatch: " + s.colour}, item);
      item.appendChild(document.createTextNode(s.label));
    });
    var text = root.querySelector(".live-text");
    root.insertBefore(form, text);
    root.insertBefore(figure, text);
    root.insertBefore(legend, text);
    root.classList.add("live-ready");

    function frame(part) {
      return part.frames[part.depends.map(function (d) { return position[d]; }).join("_")];
    }
    /* A series frame as named columns: [x, y] or [x, y, low, high]. */
    function columns(part) {
      var f = frame(part);
      return f && {x: f[0], y: f[1], low: f[2], high: f[3]};
    }

    /* Fixed axes: the extent over every stored frame, so the chart does not jump. */
    function extent(axis, given) {
      if (given) return given;
      var lo = Infinity, hi = -Infinity;
      data.series.forEach(function (s) {
        Object.keys(s.frames).forEach(function (k) {
          var cols = axis === "x" ? [0] : [1, 2, 3];
          cols.forEach(function (col) {
            (s.frames[k][col] || []).forEach(function (v) {
              if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
            });
          });
        });
      });
      var pad = (hi - lo) * 0.03 || 1;
      return [lo - pad, hi + pad];
    }
    var xr = extent("x", data.x_range), yr = extent("y", data.y_range);

    /* How wide a text is drawn in the chart's font, so a long title (Russian words are
       longer) wraps onto a second line instead of running off a phone's narrow chart. */
    var measure = document.createElement("canvas").getContext("2d");
    var fontFamily = "sans-serif";  // the chart's, read once with its width (measured)
    // the chart's text and the room around it, times --live-chart-scale (a deck's
    // slide sets it, for a room; a page leaves it at 1)
    var k = 1;
    function textWidth(text, weight, size) {
      measure.font = weight + " " + size + "px " + fontFamily;
      return measure.measureText(text).width;
    }
    function wrapped(text, room) {
      var lines = [], line = "";
      text.split(" ").forEach(function (word) {
        var longer = line ? line + " " + word : word;
        if (line && textWidth(longer, 600, 14 * k) > room) { lines.push(line); line = word; }
        else { line = longer; }
      });
      return line ? lines.concat([line]) : lines;
    }

    /* width: the chart's column as measured by start(), which reads every width of the
       page at once; without it, read here (a move of a control: one layout). */
    function draw(measured) {
      var width = Math.max(280, (measured === undefined ? figure.clientWidth : measured) || 640);
      var height = Math.round(Math.min(420, Math.max(260, width * 0.62)));
      var left = 58 * k, right = 12, bottom = 46 * k;
      var titleLines = data.title ? wrapped(data.title, width - left - right) : [];
      var top = titleLines.length ? 12 + 18 * k * titleLines.length : 12;
      var sx = function (v) { return left + (v - xr[0]) / (xr[1] - xr[0]) * (width - left - right); };
      var sy = function (v) { return height - bottom - (v - yr[0]) / (yr[1] - yr[0]) * (height - top - bottom); };
      var chart = shape("svg", {width: width, height: height, role: "img",
                                "aria-label": data.alt, "class": "live-svg"});
      if (titleLines.length) {
        var t = shape("text", {x: left, y: 18 * k, "class": "live-title"}, chart);
        titleLines.forEach(function (line, i) {
          shape("tspan", {x: left, dy: i ? 18 * k : 0}, t).textContent = line;
        });
      }
      var xt = ticks(xr[0], xr[1], width < 500 ? 4 : 7), yt = ticks(yr[0], yr[1], 5);
      yt.values.forEach(function (v) {
        shape("line", {x1: left, x2: width - right, y1: sy(v), y2: sy(v), "class": "live-grid"}, chart);
        var l = shape("text", {x: left - 6, y: sy(v) + 4 * k, "text-anchor": "end"}, chart);
        l.textContent = label(v, yt.step, data.y_percent, data.decimal);
      });
      xt.values.forEach(function (v) {
        var l = shape("text", {x: sx(v), y: height - bottom + 17 * k, "text-anchor": "middle"}, chart);
        l.textContent = label(v, xt.step, data.x_percent, data.decimal);
      });
      shape("line", {x1: left, x2: width - right, y1: height - bottom, y2: height - bottom,
                     "class": "live-axis"}, chart);
      // under the plot, unless the label is wider than the plot: then under the chart
      var xlFits = textWidth(data.x_label, 400, 13 * k) <= width - left - right;
      var xl = shape("text", {x: xlFits ? (left + width - right) / 2 : width / 2, y: height - 8 * k,
                              "text-anchor": "middle", "class": "live-axis-label"}, chart);
      xl.textContent = data.x_label;
      var yl = shape("text", {x: -(top + height - bottom) / 2, y: 14 * k, "text-anchor": "middle",
                              transform: "rotate(-90)", "class": "live-axis-label"}, chart);
      yl.textContent = data.y_label;
      data.series.forEach(function (s) {
        var f = columns(s);
        if (!f) return;
        if (s.kind === "line") {
          var d = f.x.map(function (x, i) {
            return f.y[i] === null ? "" : (i ? "L" : "M") + sx(x).toFixed(1) + "," + sy(f.y[i]).toFixed(1);
          }).join("");
          shape("path", {d: d, stroke: s.colour, "class": "live-line" + (s.dashed ? " dashed" : "")}, chart);
        } else if (s.kind === "marker") {
          f.x.forEach(function (x, i) {
            shape("circle", {cx: sx(x), cy: sy(f.y[i]), r: 8, stroke: s.colour,
                             "class": "live-marker"}, chart);
          });
        } else {
          f.x.forEach(function (x, i) {
            if (f.low && f.low[i] !== null) {
              shape("line", {x1: sx(x), x2: sx(x), y1: sy(f.low[i]), y2: sy(f.high[i]),
                             stroke: s.colour, "class": "live-bar"}, chart);
            }
            shape("circle", {cx: sx(x), cy: sy(f.y[i]), r: 4, fill: s.colour}, chart);
          });
        }
      });
      figure.replaceChildren(chart);
    }

    function sentence() {
      var slots = {};
      controls.forEach(function (c) { slots[c.name] = c.shown[position[c.name]]; });
      var filled = frame(data.words);
      data.words.slots.forEach(function (k, i) { slots[k] = filled[i]; });
      return data.words.template.replace(/{([a-z][a-z0-9_]*)}/g, function (m, k) {
        return k in slots ? slots[k] : m;
      });
    }

    function update(fromControl, measured) {
      controls.forEach(function (c) {
        var i = position[c.name];
        inputs[c.name].input.value = i;
        inputs[c.name].shown.textContent = c.shown[i];
        inputs[c.name].input.setAttribute("aria-valuetext", c.shown[i]);
      });
      draw(measured);
      text.textContent = sentence();
      if (fromControl) {
        var params = new URLSearchParams(window.location.search);
        controls.forEach(function (c) {
          params.set(name + "." + c.name, String(c.values[position[c.name]]));
        });
        window.history.replaceState(null, "", "?" + params.toString() + window.location.hash);
      }
    }

    var lastWidth = null;

    registry[name] = {
      controls: controls.map(function (c) { return {name: c.name, values: c.values}; }),
      /* Move controls to these values (nearest position); returns milliseconds taken. */
      set: function (values) {
        var start = performance.now();
        controls.forEach(function (c) {
          if (values[c.name] === undefined) return;
          var best = 0;
          c.values.forEach(function (v, i) {
            if (Math.abs(v - values[c.name]) < Math.abs(c.values[best] - values[c.name])) best = i;
          });
          position[c.name] = best;
        });
        update(true);
        return performance.now() - start;
      },
      text: function () { return text.textContent; }
    };
    /* Reading and drawing are apart, so that start() and a resize read every chart's
       width in one layout, then draw them all (one layout per chart was a second of a
       phone's time on a long page: issue 29). */
    return {
      measure: function () {
        var style = getComputedStyle(figure);
        fontFamily = style.fontFamily || "sans-serif";
        k = parseFloat(style.getPropertyValue("--live-chart-scale")) || 1;
        return figure.clientWidth;
      },
      show: function (width) {
        if (lastWidth === null) { lastWidth = width; update(false, width); }
        else if (width !== lastWidth) { lastWidth = width; draw(width); }
      }
    };
  }

  /* The link to the other edition keeps the reader's place: the section (#...) and the
     explorers' positions (?...), as they are when it is followed. Section ids are the
     same in both editions. */
  function keepPlace(link) {
    var base = link.getAttribute("href").split(/[?#]/)[0];
    function follow() { link.setAttribute("href", base + location.search + location.hash); }
    ["click", "focus", "mouseover", "auxclick"].forEach(function (kind) {
      link.addEventListener(kind, follow);
    });
    follow();
  }

  /* A table wider than its column scrolls in a box of its own (its first column stays in
     view: figures.css), and a line under it says so, in the page's language. Boxing
     every table comes first and measuring them after, all in one layout (a write
     between two reads makes the browser lay the page out again: issue 29). */
  var SCROLLS = {en: "Scroll the table sideways for more columns.",
                 ru: "Прокрутите таблицу вбок: справа есть ещё столбцы."};
  function boxTables() {
    var words = SCROLLS[(document.documentElement.lang || "en").slice(0, 2)] || SCROLLS.en;
    return Array.prototype.map.call(document.querySelectorAll(".cell_output table"),
                                    function (table) {
      var box = table.parentElement;
      if (!box.classList.contains("table-scroll")) {
        box = make("div", {"class": "table-scroll", tabindex: "0", role: "region",
                           "aria-label": table.caption ? table.caption.textContent : words});
        table.parentElement.insertBefore(box, table);
        box.appendChild(table);
      }
      var note = box.nextElementSibling;
      if (!note || !note.classList.contains("table-scrolls-note")) {
        note = make("p", {"class": "table-scrolls-note"});
        note.textContent = words;
        box.parentElement.insertBefore(note, box.nextSibling);
      }
      return {box: box, note: note};
    });
  }
  function wide(tables) {
    return tables.map(function (t) { return t.box.scrollWidth > t.box.clientWidth + 1; });
  }
  /* Besides the line under it, a table that scrolls fades at the edge where more columns
     are (figures.css, .table-scroll.scrolls), until it is scrolled to its end. */
  function atEnd(box) {
    box.classList.toggle("at-end", box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
  }
  function sayWhichScroll(tables, scrolls) {
    tables.forEach(function (t, i) {
      t.note.style.display = scrolls[i] ? "block" : "none";
      t.box.classList.toggle("scrolls", scrolls[i]);
      if (scrolls[i] && !t.box.hasAttribute("data-edge-watched")) {
        t.box.setAttribute("data-edge-watched", "");
        t.box.addEventListener("scroll", function () { atEnd(t.box); }, {passive: true});
      }
    });
  }

  /* On a phone a code block is laid out only when it nears the screen (figures.css's
     content-visibility). Until then the theme, which makes a block that scrolls sideways
     reachable by Tab, cannot measure it and takes it out of the Tab order. So a block
     not laid out yet stays reachable (most code scrolls sideways on a phone), and a
     block is measured again when it is laid out, all such blocks at once. */
  function codeTabStops() {
    var CODE = "div.highlight > pre", pending = [];
    function laidOut(pre) {
      var first = pre.firstElementChild;
      return !(first && first.checkVisibility &&
               !first.checkVisibility({contentVisibilityAuto: true}));
    }
    function settle() {
      var blocks = pending, scrolls;
      pending = [];
      // A block skipped again before this ran (an explorer built above it pushed it off
      // screen) measures as if it did not scroll: it stays reachable until laid out.
      scrolls = blocks.map(function (pre) {
        return !laidOut(pre) ||
          pre.scrollWidth > pre.clientWidth || pre.scrollHeight > pre.clientHeight;
      });
      blocks.forEach(function (pre, i) { pre.tabIndex = scrolls[i] ? 0 : -1; });
    }
    document.addEventListener("contentvisibilityautostatechange", function (event) {
      if (event.skipped || !event.target.matches(CODE)) return;
      if (!pending.length) setTimeout(settle, 0);
      pending.push(event.target);
    }, true);
    function reachable() {
      document.querySelectorAll(CODE).forEach(function (pre) {
        if (!laidOut(pre)) pre.tabIndex = 0;
      });
    }
    // The theme measures a block again whenever it resizes, and a block skipped again
    // (scrolled far off, or pushed off by an explorer built above it) measures as if it
    // did not scroll: the theme then takes it out of the Tab order. It goes back in.
    var keeper = new MutationObserver(function (records) {
      records.forEach(function (record) {
        var pre = record.target;
        if (pre.tabIndex !== 0 && !laidOut(pre)) pre.tabIndex = 0;
      });
    });
    // after the theme, which measures the blocks when the page has loaded
    window.addEventListener("load", function () {
      setTimeout(function () {
        reachable();
        document.querySelectorAll(CODE).forEach(function (pre) {
          keeper.observe(pre, {attributes: true, attributeFilter: ["tabindex"]});
        });
      }, 0);
    });
  }

  /* Each explorer is built when it comes within a screen and a half of the reader's
     view, not all at once as the page opens: building ch04's took a phone's main thread
     300 ms before the reader could scroll (issue 29). In a deck, reveal.js shows the
     slides a few ahead of the current one (laid out, not yet visible), so an explorer is
     built before its slide comes up; on a phone a deck is a scrolling page like any
     other. Paper gets every explorer at once: print shows them all. */
  var NEAR = "150% 0px";

  // A deck keeps each explorer's data in a script file of its own, named by the
  // holder's data-src (bookbuild/slides.py): fetched when the explorer nears, once
  // however many explorers share it.
  var fetching = {};
  function dataHere(root) {
    var holder = root.querySelector("script.live-data");
    var key = holder && holder.getAttribute("data-key");
    return !key || !!(window.liveData && window.liveData[key]);
  }
  function fetchData(root, then) {
    var src = root.querySelector("script.live-data").getAttribute("data-src");
    if (fetching[src]) { fetching[src].push(then); return; }
    fetching[src] = [then];
    var script = document.createElement("script");
    script.src = src;
    script.onload = function () {
      fetching[src].forEach(function (callback) { callback(); });
    };
    script.onerror = function () { console.error("live explorer: no data at " + src); };
    document.head.appendChild(script);
  }

  function start() {
    document.querySelectorAll(".edition-switch a").forEach(keepPlace);
    // every change to the page first, then every measure, then what the measures decide
    var tables = boxTables(), explorers = [];
    var roots = Array.prototype.slice.call(document.querySelectorAll(".live-explorer"));
    function showAll(list) {
      var widths = list.map(function (e) {
        try { return e.measure(); } catch (error) { return 0; }
      });
      list.forEach(function (e, i) {
        try { e.show(widths[i]); } catch (error) { console.error("live explorer", error); }
      });
    }
    function build(list) {
      var made = [];
      list.forEach(function (root) {
        if (root.hasAttribute("data-live-built")) return;
        if (!dataHere(root)) { fetchData(root, function () { build([root]); }); return; }
        root.setAttribute("data-live-built", "");
        try { made.push(Explorer(root)); } catch (error) { console.error("live explorer", error); }
      });
      showAll(made);
      explorers = explorers.concat(made);
    }
    function layOut() {
      var scrolls = wide(tables);
      sayWhichScroll(tables, scrolls);
      showAll(explorers);
    }
    layOut();
    window.addEventListener("resize", layOut);
    window.addEventListener("live:measure", layOut);  // a deck's slide shown: slides.py
    if (!("IntersectionObserver" in window)) {
      build(roots);
    } else {
      var watcher = new IntersectionObserver(function (entries) {
        var near = entries.filter(function (e) { return e.isIntersecting; })
          .map(function (e) { return e.target; });
        near.forEach(function (root) { watcher.unobserve(root); });
        if (near.length) build(near);
      }, {rootMargin: NEAR});
      roots.forEach(function (root) { watcher.observe(root); });
      window.addEventListener("beforeprint", function () { build(roots); });
    }
    // Paper lays the page out at the sheet's column, with no resize event: when print
    // media applies (Chromium's print and PDF included), every explorer is built and
    // every chart drawn again at the column's width, not at the screen's it was drawn
    // at (a phone's chart printed a third of the column); back on screen, at the
    // screen's again.
    window.matchMedia("print").addEventListener("change", function (event) {
      if (event.matches) build(roots);
      layOut();
    });
    codeTabStops();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
