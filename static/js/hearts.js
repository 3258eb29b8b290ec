// Hearts: keyboard help for the table. Everything also works without this script.
(function () {
  "use strict";

  function handCards() {
    return Array.prototype.slice.call(document.querySelectorAll("#table .hand .card"));
  }

  function focusCard(index) {
    var cards = handCards();
    if (!cards.length) return;
    index = Math.max(0, Math.min(cards.length - 1, index));
    cards[index].focus();
  }

  var lastIndex = null;

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var cards = handCards();
    var at = cards.indexOf(target);
    if (at >= 0 && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      event.preventDefault();
      focusCard(at + (event.key === "ArrowLeft" ? -1 : 1));
      return;
    }
    if (event.key === "Enter" && at < 0 && !/^(INPUT|BUTTON|TEXTAREA|SELECT|A)$/.test(target.tagName)) {
      var push = document.querySelector("#table dialog[open] .push, #table .push:not([disabled])");
      if (push) {
        event.preventDefault();
        push.click();
      }
    }
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var cards = handCards();
    var at = cards.indexOf(document.activeElement);
    lastIndex = at >= 0 ? at : null;
  });

  document.addEventListener("htmx:afterSettle", function () {
    var auto = document.querySelector("#table dialog[open] [autofocus]");
    if (auto) {
      auto.focus();
    } else if (lastIndex !== null) {
      focusCard(lastIndex);
    }
    lastIndex = null;
  });
})();
