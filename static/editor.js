/* Map editor, planets and tiles: a click on an empty hex of the grid (or Enter on
   it: the hexes are links, so the keyboard reaches them with Tab) adds a tile there by posting
   the "add a tile" form with the hex's coordinates. Without script the hex's link opens the
   page with that form filled in. */
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var slot = event.target.closest && event.target.closest("svg a.slot[data-q]");
    var form = document.getElementById("add-tile");
    if (!slot || !form) { return; }
    event.preventDefault();
    form.querySelector("[name$='q']").value = slot.dataset.q;
    form.querySelector("[name$='r']").value = slot.dataset.r;
    slot.classList.add("selected");
    form.requestSubmit();
  });
}());
