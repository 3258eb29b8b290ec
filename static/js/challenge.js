// Our addition: the challenge link's Copy button (game/solo/challenge.py), and the final sheet's
// Challenge a Friend opened as a dialog over the table (a link marked data-dialog, kept short:
// the sheet is the largest answer to a move). Without this script the link opens the same
// dialog as a page, the button stays hidden and the link is selected in its field.
(function () {
  "use strict";

  function reveal() {
    Array.prototype.forEach.call(document.querySelectorAll("button[data-copy][hidden]"), function (button) {
      button.hidden = false;
    });
  }

  function say(button, words) {
    var said = document.getElementById(button.getAttribute("data-said"));
    if (said) said.textContent = words;
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-dialog]");
    if (!link || !window.htmx) return;
    event.preventDefault();
    htmx.ajax("GET", link.getAttribute("href"), { target: "#dialogs", swap: "innerHTML" });
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    field.select();
    var what = button.getAttribute("data-what") || "link";
    var byHand = function () {
      say(button, "The " + what + " is selected: press Ctrl+C to copy it.");
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(function () {
        say(button, "The " + what + " is copied.");
      }, byHand);
    } else {
      byHand();
    }
  });

  // the whole link at once when its field gets the focus
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("[data-select]")) event.target.select();
  });

  document.addEventListener("htmx:afterSettle", reveal);
  reveal();
})();
