/* Costly one-click actions ask first (web/views/confirm.py). A <form data-confirm> posted
   without its confirm field does nothing on the server but answer with the question; without
   script that answer is a page. Here the same post is sent as an htmx request, which answers
   with the question's box alone, shown in a modal <dialog>: "Yes, ..." posts the box's own
   form (the same fields plus confirm), Cancel, Escape or a click beside the box close it. Any
   other answer (a refusal, a redirect, no network) falls back to the plain post. */
(function () {
  "use strict";
  if (typeof HTMLDialogElement !== "function" || !window.fetch || !window.DOMParser) { return; }
  var dialog = null;
  var opener = null;

  function theDialog() {
    if (dialog) { return dialog; }
    dialog = document.createElement("dialog");
    dialog.className = "confirm-dialog";
    dialog.setAttribute("aria-labelledby", "confirm-question");
    dialog.setAttribute("aria-describedby", "confirm-consequence");
    dialog.addEventListener("click", function (event) {
      if (event.target === dialog || event.target.closest("[data-confirm-cancel]")) {
        event.preventDefault();
        dialog.close();
      }
    });
    dialog.addEventListener("close", function () {
      dialog.textContent = "";
      if (opener && opener.isConnected) { opener.focus(); }
    });
    document.body.appendChild(dialog);
    return dialog;
  }

  function show(form, html) {
    var box = html && new DOMParser().parseFromString(html, "text/html")
      .querySelector("[data-confirm-box]");
    if (!box) { form.submit(); return; }
    var open = theDialog();
    open.replaceChildren(document.adoptNode(box));
    opener = document.activeElement;
    open.showModal();
    open.querySelector("[data-confirm-cancel]").focus();  // Enter alone never acts
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-confirm]")) { return; }
    event.preventDefault();
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin",
                         redirect: "manual", headers: { "HX-Request": "true" } })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (html) { show(form, html); }, function () { form.submit(); });
  });
})();
