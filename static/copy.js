/* Copy buttons (the new invitation link on the members page): <button data-copy="input id"
   data-copied="text" hidden> next to a readonly input, and a [data-copy-status] live region
   in the same parent box. The button shows only where the clipboard can be written (a secure
   page with script); otherwise the readonly input is there to select and copy by hand. */
(function () {
  "use strict";
  if (!navigator.clipboard || !navigator.clipboard.writeText) { return; }

  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var input = document.getElementById(button.dataset.copy);
    if (!input) { return; }
    var box = button.parentElement.parentElement;
    var status = box && box.querySelector("[data-copy-status]");
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(input.value).then(function () {
        if (status) { status.textContent = button.dataset.copied; }
      }, function () {  /* refused (permissions): leave it selected for a manual copy */
        input.focus();
        input.select();
      });
    });
  });
})();
