/* Map editor, areas chart: click an area, then another, to link them. The choice
   fills the two selects of the link form (the form without script) and submits it. Keyboard:
   the areas are focusable buttons; feldzug.js turns Enter and Space into clicks. */
(function () {
  "use strict";

  var first = null;

  function status(text) {
    var el = document.getElementById("link-status");
    if (el) { el.textContent = text; }
  }

  function press(node, on) { node.setAttribute("aria-pressed", on ? "true" : "false"); }

  document.addEventListener("click", function (event) {
    var node = event.target.closest && event.target.closest("[data-link-area]");
    var form = document.getElementById("link-form");
    if (!node || !form) { return; }
    var info = document.getElementById("link-status");
    if (first === null) {
      first = node;
      press(node, true);
      status(info.dataset.first.replace("%(name)s", node.dataset.name));
      return;
    }
    if (first === node) {
      press(node, false);
      first = null;
      status(info.dataset.same);
      return;
    }
    press(node, true);
    form.querySelector("[name='link-a']").value = first.dataset.linkArea;
    form.querySelector("[name='link-b']").value = node.dataset.linkArea;
    form.requestSubmit(document.getElementById("link-add"));
  });
}());
