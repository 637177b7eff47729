/* Zoom and pan for the SVG maps: <div data-zoom> holding one <svg viewBox> and
   [data-zoom-controls] with buttons [data-zoom-in], [data-zoom-out], [data-zoom-reset].
   The view box changes, so the drawing stays sharp. Buttons; + - 0 and the arrow keys while
   the map has focus; Ctrl + wheel (a trackpad's pinch) or the wheel once zoomed; drag a zoomed
   map to move it; two fingers pinch. A drag never counts as a click on a tile. Clicked tiles
   load their panel, and so do Enter and Space on a focused tile (static/feldzug.js clicks it),
   after which the keyboard is taken to the panel. No inline
   script or style (CSP): only attributes and classes change. */
(function () {
  "use strict";

  var MAX = 8, STEP = 1.5, DRAG = 5;

  function zoomable(box) {
    var svg = box.querySelector("svg");
    var controls = box.querySelector("[data-zoom-controls]");
    if (!svg || !svg.viewBox || !svg.viewBox.baseVal) { return; }
    var base = svg.getAttribute("viewBox").split(/[\s,]+/).map(Number);
    if (base.length !== 4 || base.some(isNaN)) { return; }
    var scale = 1, cx = base[0] + base[2] / 2, cy = base[1] + base[3] / 2;
    var pointers = {}, start = null, dragged = false;

    function apply() {
      var w = base[2] / scale, h = base[3] / scale;
      /* keep the centre inside the drawing */
      cx = Math.min(Math.max(cx, base[0] + w / 2), base[0] + base[2] - w / 2);
      cy = Math.min(Math.max(cy, base[1] + h / 2), base[1] + base[3] - h / 2);
      svg.setAttribute("viewBox", [cx - w / 2, cy - h / 2, w, h].map(function (n) {
        return n.toFixed(1);
      }).join(" "));
      box.classList.toggle("zoomed", scale > 1);
      if (controls) {
        controls.querySelector("[data-zoom-out]").disabled = scale <= 1;
        controls.querySelector("[data-zoom-reset]").disabled = scale <= 1;
        controls.querySelector("[data-zoom-in]").disabled = scale >= MAX;
      }
    }

    /* the drawing's point under a screen point */
    function at(clientX, clientY) {
      var rect = svg.getBoundingClientRect();
      var w = base[2] / scale, h = base[3] / scale;
      return [cx - w / 2 + (clientX - rect.left) / rect.width * w,
        cy - h / 2 + (clientY - rect.top) / rect.height * h];
    }

    /* zoom by ``factor`` keeping ``point`` (drawing units) where it is */
    function zoom(factor, point) {
      var next = Math.min(Math.max(scale * factor, 1), MAX);
      if (point) {
        cx = point[0] + (cx - point[0]) * scale / next;
        cy = point[1] + (cy - point[1]) * scale / next;
      }
      scale = next;
      apply();
    }

    function pan(dx, dy) {
      cx += dx;
      cy += dy;
      apply();
    }

    if (controls) {
      controls.hidden = false;
      controls.addEventListener("click", function (event) {
        if (event.target.closest("[data-zoom-in]")) { zoom(STEP); }
        else if (event.target.closest("[data-zoom-out]")) { zoom(1 / STEP); }
        else if (event.target.closest("[data-zoom-reset]")) { scale = 1; apply(); }
      });
    }

    svg.addEventListener("wheel", function (event) {
      if (!event.ctrlKey && scale <= 1) { return; } /* let the page scroll */
      event.preventDefault();
      zoom(Math.exp(-event.deltaY * (event.ctrlKey ? 0.01 : 0.002)),
        at(event.clientX, event.clientY));
    }, { passive: false });

    box.addEventListener("keydown", function (event) {
      if (event.altKey || event.metaKey || event.ctrlKey) { return; }
      var step = base[2] / scale / 8, done = true;
      if (event.key === "+" || event.key === "=") { zoom(STEP); }
      else if (event.key === "-" || event.key === "_") { zoom(1 / STEP); }
      else if (event.key === "0") { scale = 1; apply(); }
      else if (scale > 1 && event.key === "ArrowLeft") { pan(-step, 0); }
      else if (scale > 1 && event.key === "ArrowRight") { pan(step, 0); }
      else if (scale > 1 && event.key === "ArrowUp") { pan(0, -step); }
      else if (scale > 1 && event.key === "ArrowDown") { pan(0, step); }
      else { done = false; }
      if (done) { event.preventDefault(); }
    });

    function distance() {
      var p = Object.keys(pointers).map(function (k) { return pointers[k]; });
      return p.length < 2 ? 0 : Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y);
    }

    svg.addEventListener("pointerdown", function (event) {
      pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
      dragged = false;
      start = { x: event.clientX, y: event.clientY, cx: cx, cy: cy, d: distance(), s: scale };
    });

    svg.addEventListener("pointermove", function (event) {
      if (!pointers[event.pointerId] || !start) { return; }
      pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
      var ids = Object.keys(pointers);
      if (ids.length === 2 && start.d) { /* pinch */
        dragged = true;
        var mid = at((pointers[ids[0]].x + pointers[ids[1]].x) / 2,
          (pointers[ids[0]].y + pointers[ids[1]].y) / 2);
        zoom(start.s * distance() / start.d / scale, mid);
        return;
      }
      if (scale <= 1) { return; }
      var moved = Math.hypot(event.clientX - start.x, event.clientY - start.y);
      if (!dragged && moved < DRAG) { return; }
      dragged = true;
      box.classList.add("panning");
      var rect = svg.getBoundingClientRect();
      cx = start.cx - (event.clientX - start.x) / rect.width * base[2] / scale;
      cy = start.cy - (event.clientY - start.y) / rect.height * base[3] / scale;
      apply();
    });

    function release(event) {
      delete pointers[event.pointerId];
      box.classList.remove("panning");
      start = Object.keys(pointers).length ? start : null;
    }
    svg.addEventListener("pointerup", release);
    svg.addEventListener("pointercancel", release);
    svg.addEventListener("pointerleave", release);

    /* after a drag, the click that ends it does not select a tile or follow a link */
    svg.addEventListener("click", function (event) {
      if (dragged) {
        event.preventDefault();
        event.stopPropagation();
        dragged = false;
      }
    }, true);

    apply();
  }

  /* A tile of <svg data-tile-url="..."> asks for its panel at <url><tile id>/ (an htmx
     partial, R-ATK-6 in declare); one listener instead of an hx-get on each of many tiles. */
  var opened = null; /* the tile whose panel the keyboard opened */
  var following = false; /* its panel is on its way: focus its heading once it is there */

  function tileOf(event) {
    return event.target.closest && event.target.closest("svg[data-tile-url] [data-tile-id]");
  }

  function open(tile, byKeyboard) {
    var svg = tile.closest("svg[data-tile-url]");
    var request = window.htmx.ajax("GET", svg.dataset.tileUrl + tile.dataset.tileId + "/",
      { target: "#tile-panel", swap: "innerHTML" });
    opened = byKeyboard ? tile : null;
    following = byKeyboard;
    return request;
  }

  /* the keyboard follows the panel it opened: its heading, then its actions (declare) */
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!following || !event.target || event.target.id !== "tile-panel") { return; }
    following = false;
    var heading = event.target.querySelector("h2");
    if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus(); }
  });

  /* Enter or Space on a tile (a role="button") clicks it (static/feldzug.js): a click with
     no pointer behind it (detail 0) came from the keyboard, which then follows the panel */
  document.addEventListener("click", function (event) {
    var tile = tileOf(event);
    if (!tile || !window.htmx) { return; }
    open(tile, event.detail === 0);
  });

  /* Escape in the panel the keyboard opened goes back to its tile */
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && opened && document.contains(opened) &&
        event.target.closest && event.target.closest("#tile-panel")) {
      opened.focus();
    }
  });

  document.querySelectorAll("[data-zoom]").forEach(zoomable);
  document.querySelectorAll("[data-zoom-hint]").forEach(function (hint) { hint.hidden = false; });
})();
