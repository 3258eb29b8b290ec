// Our addition: the review of the last hand. R (hearts.js's SHORTCUTS), Game > Review Last Hand
// or the score sheet's Review Hand opens it; in it Left and Right step through the pass and the tricks, Home and
// End go to the first and the last step, and each step's sentence is read out. Without this
// script every step is a page of its own and the same links lead from one to the next.
(function () {
  "use strict";

  function shown() {
    var dialog = document.querySelector("#dialogs dialog#dialog-review");
    return dialog && dialog.open ? dialog : null;
  }

  function steps(dialog) {
    return Array.prototype.slice.call(dialog.querySelectorAll("section.review-step"));
  }

  function at(dialog) {
    var all = steps(dialog);
    for (var i = 0; i < all.length; i++) if (!all[i].hidden) return i;
    return 0;
  }

  function urlOf(dialog, index) {
    var link = dialog.querySelector('.review-index a[data-review-step="' + index + '"]');
    return link ? link.getAttribute("href") : null;
  }

  function show(dialog, index) {
    var all = steps(dialog);
    if (!all.length) return;
    index = Math.max(0, Math.min(all.length - 1, index));
    all.forEach(function (section, i) {
      section.hidden = i !== index;
    });
    Array.prototype.slice.call(dialog.querySelectorAll(".review-index a")).forEach(function (link) {
      if (Number(link.dataset.reviewStep) === index) link.setAttribute("aria-current", "step");
      else link.removeAttribute("aria-current");
    });
    var targets = { first: 0, prev: index - 1, next: index + 1, last: all.length - 1 };
    Object.keys(targets).forEach(function (go) {
      var link = dialog.querySelector('[data-review-go="' + go + '"]');
      var url = urlOf(dialog, Math.max(0, Math.min(all.length - 1, targets[go])));
      if (link && url) link.setAttribute("href", url);
    });
    var section = all[index];
    var said = dialog.querySelector("#review-said");
    if (said) {
      var parts = section.querySelectorAll(".review-sentence, .review-judgement");
      said.textContent = Array.prototype.map
        .call(parts, function (part) {
          return part.textContent.trim();
        })
        .join(" ");
    }
  }

  function step(dialog, go) {
    var index = at(dialog);
    var last = steps(dialog).length - 1;
    var to = { first: 0, prev: index - 1, next: index + 1, last: last }[go];
    if (to !== undefined) show(dialog, to);
  }

  // The score sheet's Review Hand is a plain link (a page of its own without this script):
  // here it opens the dialog over the table, as Game > Review Last Hand does.
  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-review-open]");
    if (!link || !window.htmx || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    htmx.ajax("GET", link.getAttribute("href"), { target: "#dialogs", swap: "innerHTML" });
  });

  document.addEventListener("click", function (event) {
    var dialog = shown();
    if (!dialog || !dialog.matches(":modal")) return;
    var link = event.target.closest("[data-review-step], [data-review-go]");
    if (!link || !dialog.contains(link)) return;
    event.preventDefault();
    if (link.dataset.reviewGo) step(dialog, link.dataset.reviewGo);
    else show(dialog, Number(link.dataset.reviewStep));
  });

  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  function typing(target) {
    return /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable;
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (typing(event.target)) return;
    var dialog = shown();
    if (dialog && dialog.matches(":modal") && KEYS[event.key]) {
      event.preventDefault();
      step(dialog, KEYS[event.key]);
    }
  });
})();
