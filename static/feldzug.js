/* Feldzug pages: live deadline countdowns and keyboard use of the SVG map. No build step. */
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

  tick();
  setInterval(tick, 1000);
})();
