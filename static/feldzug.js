/* Feldzug pages: live deadline countdowns, keyboard use of the SVG map, the language switcher,
   the fleet path builder and the naval battle step-through. No build step, no inline script:
   everything hangs on data attributes. */
(function () {
  "use strict";

  function pad(n) { return String(n).padStart(2, "0"); }

  /* <span data-countdown="ISO date" data-days="d" data-passed="..."> shows the time left. */
  function showLeft(el) {
    var left = Math.floor((Date.parse(el.dataset.countdown) - Date.now()) / 1000);
    if (isNaN(left)) { return; }
    if (left <= 0) { el.textContent = el.dataset.passed; return; }
    var days = Math.floor(left / 86400);
    var clock = pad(Math.floor(left % 86400 / 3600)) + ":" + pad(Math.floor(left % 3600 / 60)) +
      ":" + pad(left % 60);
    el.textContent = (days ? days + " " + el.dataset.days + " " : "") + clock;
  }

  function tick() { document.querySelectorAll("[data-countdown]").forEach(showLeft); }

  /* Tiles and areas drawn as SVG shapes act as buttons: Enter or Space clicks them. */
  document.addEventListener("keydown", function (event) {
    var shape = event.target.closest && event.target.closest("svg [role=button]");
    if (shape && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      shape.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
  });

  /* The clicked tile stays marked while its panel is shown. */
  document.addEventListener("click", function (event) {
    var tile = event.target.closest && event.target.closest("[data-tile-id]");
    if (!tile) { return; }
    document.querySelectorAll("[data-tile-id][aria-pressed=true]").forEach(function (other) {
      other.setAttribute("aria-pressed", "false");
    });
    tile.setAttribute("aria-pressed", "true");
  });

  /* On a phone the tile panel sits below the map: once a tile's panel arrives, bring it into
     view if it is not (the map and the panel side by side on a desktop need no scroll). */
  document.addEventListener("htmx:afterSwap", function (event) {
    var panel = event.detail && event.detail.target;
    if (!panel || panel.id !== "tile-panel") { return; }
    var box = panel.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight - 120) {
      var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      panel.scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" });
    }
  });

  /* <select data-autosubmit> sends its form when changed (the language switcher). */
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("select[data-autosubmit]")) {
      event.target.form.submit();
    }
  });

  /* <input data-select-on-focus> selects its text, ready to copy (the feed address). */
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("[data-select-on-focus]")) {
      event.target.select();
    }
  });

  /* Path builder: <form data-path-builder data-start="area id"> with a text input named
     "...path", buttons [data-path-add="id"][data-adjacent="ids"][data-name], a list
     [data-path-steps] and buttons [data-path-undo], [data-path-clear]. Clicking an area adds
     it to the path; only the neighbours of the path's end are offered. The server decides. */
  function pathBuilder(form) {
    var input = form.querySelector("input[name$='path']");
    var steps = form.querySelector("[data-path-steps]");
    var hint = form.querySelector("[data-path-hint]");
    var undo = form.querySelector("[data-path-undo]");
    var clear = form.querySelector("[data-path-clear]");
    var buttons = Array.prototype.slice.call(form.querySelectorAll("[data-path-add]"));
    var byId = {};
    buttons.forEach(function (b) { byId[b.dataset.pathAdd] = b; });
    if (!input || !steps) { return; }

    function ids() { return input.value.split(/[\s,]+/).filter(Boolean); }

    function neighbours(id) {
      var button = byId[id];
      return button ? button.dataset.adjacent.split(" ").filter(Boolean) : [];
    }

    function render() {
      var path = ids();
      var end = path.length ? path[path.length - 1] : form.dataset.start;
      var next = neighbours(end);
      buttons.forEach(function (b) {
        var id = b.dataset.pathAdd;
        b.hidden = next.indexOf(id) < 0 || path.indexOf(id) >= 0 || id === form.dataset.start;
      });
      steps.textContent = "";
      path.forEach(function (id) {
        var item = document.createElement("li");
        item.textContent = byId[id] ? byId[id].dataset.name : "#" + id;
        steps.appendChild(item);
      });
      if (hint) { hint.hidden = false; }
      if (undo) { undo.hidden = !path.length; }
      if (clear) { clear.hidden = !path.length; }
    }

    function keepFocus() {
      var first = buttons.filter(function (b) { return !b.hidden; })[0];
      (first || form.querySelector("[type=submit]")).focus();
    }

    form.addEventListener("click", function (event) {
      var add = event.target.closest("[data-path-add]");
      if (add) {
        input.value = ids().concat([add.dataset.pathAdd]).join(", ");
      } else if (event.target.closest("[data-path-undo]")) {
        input.value = ids().slice(0, -1).join(", ");
      } else if (event.target.closest("[data-path-clear]")) {
        input.value = "";
      } else {
        return;
      }
      render();
      keepFocus();
    });
    input.addEventListener("input", render);
    render();
  }

  /* Replay: <section data-replay> with [data-step] items in [data-replay-round] sections and
     controls [data-replay-first|prev|next|all], [data-replay-position data-template="..{n}.."].
     Without script every step shows; with it the steps appear one at a time. */
  function replay(section) {
    var steps = Array.prototype.slice.call(section.querySelectorAll("[data-step]"));
    var rounds = Array.prototype.slice.call(section.querySelectorAll("[data-replay-round]"));
    var controls = section.querySelector("[data-replay-controls]");
    var position = section.querySelector("[data-replay-position]");
    if (!steps.length || !controls) { return; }
    var current = 0;

    function control(name) { return controls.querySelector("[data-replay-" + name + "]"); }

    function show(n) {
      current = Math.max(0, Math.min(n, steps.length - 1));
      steps.forEach(function (step, i) {
        step.hidden = i > current;
        step.classList.toggle("current", i === current);
      });
      rounds.forEach(function (round) {
        round.hidden = !round.querySelector("[data-step]:not([hidden])");
      });
      position.textContent = position.dataset.template.replace("{n}", current + 1);
      control("first").disabled = control("prev").disabled = current === 0;
      control("next").disabled = current === steps.length - 1;
      steps[current].scrollIntoView({ block: "nearest" });
    }

    function showAll() {
      steps.forEach(function (step) { step.hidden = false; step.classList.remove("current"); });
      rounds.forEach(function (round) { round.hidden = false; });
      position.textContent = "";
      control("next").disabled = true;
      control("prev").disabled = control("first").disabled = false;
      current = steps.length - 1;
    }

    controls.hidden = false;
    control("first").addEventListener("click", function () { show(0); });
    control("prev").addEventListener("click", function () { show(current - 1); });
    control("next").addEventListener("click", function () { show(current + 1); });
    control("all").addEventListener("click", showAll);
    show(0);
  }

  /* <select data-browser-zone="default">: a time zone menu holding only a default (no one chose
     it) picks the browser's own zone, if the menu lists it. */
  document.querySelectorAll("select[data-browser-zone]").forEach(function (select) {
    var zone;
    if (select.value !== select.dataset.browserZone) { return; }
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return; }
    var option = zone && Array.prototype.find.call(select.options, function (o) {
      return o.value === zone;
    });
    if (option) { select.value = zone; }
  });

  /* The account menu (<details data-menu>) closes on a click elsewhere and on Escape. */
  document.addEventListener("click", function (event) {
    document.querySelectorAll("details[data-menu][open]").forEach(function (menu) {
      if (!menu.contains(event.target)) { menu.open = false; }
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") { return; }
    document.querySelectorAll("details[data-menu][open]").forEach(function (menu) {
      menu.open = false;
      menu.querySelector("summary").focus();
    });
  });

  /* On a phone the campaign tabs are one row that scrolls sideways: the current tab in view. */
  document.querySelectorAll("[data-tab-row]").forEach(function (row) {
    var current = row.querySelector("[aria-current]");
    if (current && row.scrollWidth > row.clientWidth) {
      row.scrollLeft = current.offsetLeft - row.offsetLeft - 16;
    }
  });

  /* A table wider than its box (.table-wrap scrolls sideways) gets a hint above it, the words
     from <body data-scroll-hint>; again when the window changes size. */
  function markOverflow() {
    var words = document.body.dataset.scrollHint;
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      var over = wrap.scrollWidth > wrap.clientWidth + 1;
      var hint = wrap.previousElementSibling;
      var has = hint && hint.classList.contains("scroll-hint");
      wrap.classList.toggle("overflows", over);
      if (over && !has && words) {
        hint = document.createElement("p");
        hint.className = "scroll-hint";
        hint.textContent = words;
        wrap.parentNode.insertBefore(hint, wrap);
      } else if (!over && has) {
        hint.remove();
      }
    });
  }
  markOverflow();
  var resizing;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(markOverflow, 150);
  });
  document.addEventListener("htmx:afterSettle", markOverflow);
  document.addEventListener("toggle", markOverflow, true);  /* a <details> opened */

  /* A section folded in <details> opens when the address names it or something in it
     (the manage page's sections; a form sent from a section comes back to its #anchor). */
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    var folded = false;
    if (!target) { return; }
    for (var el = target; el; el = el.parentElement) {
      if (el.tagName === "DETAILS" && !el.open) { el.open = folded = true; }
    }
    if (folded) { target.scrollIntoView({ block: "start" }); }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();

  /* A result that arrives with the page after a submit (<el data-reveal>, e.g. the naval odds
     below their form) is brought into view and focused, not left a screen below. */
  function reveal() {
    var el = document.querySelector("[data-reveal]");
    if (!el) { return; }
    var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    el.scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" });
    if (el.hasAttribute("tabindex")) { el.focus({ preventScroll: true }); }
  }
  window.addEventListener("load", function () { reveal(); });

  /* --- accessibility (WCAG 2.2 AA) ---------------------------------------------------------
     A box that scrolls sideways (a wide table's .table-wrap, a rules table or code block) is
     reachable by keyboard while it overflows: tabindex 0, role region, named by its table's
     caption or the heading above it (<body data-scroll-hint> when there is none). */
  var SCROLLERS = ".table-wrap, .rules-text table, .rules-text pre, [data-scroll-region]";

  function scrollName(box) {
    var caption = box.querySelector("caption");
    if (caption && caption.textContent.trim()) { return caption.textContent.trim(); }
    for (var el = box; el && el !== document.body; el = el.parentElement) {
      for (var prev = el.previousElementSibling; prev; prev = prev.previousElementSibling) {
        var heading = prev.matches("h1, h2, h3, h4") ? prev : prev.querySelector("h2, h3, h4");
        if (heading && heading.textContent.trim()) { return heading.textContent.trim(); }
      }
    }
    return document.body.dataset.scrollHint || "";
  }

  function scrollRegions() {
    document.querySelectorAll(SCROLLERS).forEach(function (box) {
      var over = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
      var marked = box.hasAttribute("data-scroll-marked");
      if (over && !marked) {
        box.setAttribute("data-scroll-marked", "");
        box.tabIndex = 0;
        if (!box.hasAttribute("role")) { box.setAttribute("role", "region"); }
        if (!box.hasAttribute("aria-label") && !box.hasAttribute("aria-labelledby")) {
          box.setAttribute("aria-label", scrollName(box));
        }
      } else if (!over && marked) {
        box.removeAttribute("data-scroll-marked");
        box.removeAttribute("tabindex");
        if (box.getAttribute("role") === "region") { box.removeAttribute("role"); }
      }
    });
  }
  scrollRegions();
  var reflowing;
  window.addEventListener("resize", function () {
    clearTimeout(reflowing);
    reflowing = setTimeout(scrollRegions, 150);
  });
  document.addEventListener("htmx:afterSettle", scrollRegions);
  document.addEventListener("toggle", scrollRegions, true);

  /* The phase in the campaign's tabs is a polite live region ([data-phase-status]): while the
     page is open, an hour and ten minutes before a deadline and when it passes, it says so
     (its data-soon-hour, data-soon-minutes and data-passed texts). */
  var phaseStatus = document.querySelector("[data-phase-status]");
  var announced = {};

  function announceDeadlines() {
    if (!phaseStatus) { return; }
    var said = phaseStatus.querySelector("[data-announce]");
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var left = (Date.parse(el.dataset.countdown) - Date.now()) / 1000;
      if (isNaN(left)) { return; }
      var key = el.dataset.countdown;
      var stage = left <= 0 ? "passed" : left <= 600 ? "soonMinutes" : left <= 3600 ? "soonHour" : "";
      if (!(key in announced)) { announced[key] = stage; return; }  /* as the page loaded */
      if (stage && announced[key] !== stage && said) {
        said.textContent = " " + (phaseStatus.dataset[stage] || "");
      }
      announced[key] = stage;
    });
  }

  document.querySelectorAll("[data-path-builder]").forEach(pathBuilder);
  document.querySelectorAll("[data-replay]").forEach(replay);
  tick();
  announceDeadlines();
  setInterval(function () { tick(); announceDeadlines(); }, 1000);
})();
