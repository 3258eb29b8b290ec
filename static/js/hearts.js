// Hearts: the keyboard, the menus, the dialogs, links to numbered games and the little desktop.
// Everything also works without this script: each menu item is a link or a form of its own.
(function () {
  "use strict";

  var root = document.documentElement;
  root.classList.add("js");

  // ---- the script's state, declared before anything uses it ---------------------------------

  var body = document.body;
  var lastIndex = null; // the card in focus when a request left, to focus near it afterwards
  var byPointer = false; // the hand was last reached by mouse or touch: its focus shows no ring
  var focusBeforeMenu = null; // what had the focus before a menu opened
  var opener = null; // what opened the dialog, to get the focus back when it closes
  // A network table's page keeps its own address: its game number is not a link.
  var atTable = body.hasAttribute("data-network");
  var windowEl = document.getElementById("window");
  var icon = document.getElementById("desktop-icon");
  var desk = document.getElementById("desktop-main"); // the desktop's landmark while the window is shut

  // ---- the keys, declared in one place ---------------------------------------------------------
  // Each shortcut presses the element whose data-key names it (a menu item, the pile...): the
  // templates say what a key does, this list says which keystroke is which key.
  var SHORTCUTS = [
    { name: "F1", key: "F1" },
    { name: "F2", key: "F2" },
    { name: "F3", key: "F3" },
    { name: "F4", key: "F4" },
    { name: "F5", key: "F5" },
    { name: "Ctrl+z", code: "KeyZ", ctrl: true, notTyping: true },
    { name: "h", code: "KeyH", notTyping: true },
    { name: "l", code: "KeyL", notTyping: true, once: true },
    { name: "r", code: "KeyR", notTyping: true, once: true }, // Review Last Hand (review.js)
    { name: "Alt+g", code: "KeyG", alt: true, menu: true },
    { name: "Alt+h", code: "KeyH", alt: true, menu: true },
  ];

  function shortcutOf(event) {
    var ctrl = event.ctrlKey || event.metaKey;
    for (var i = 0; i < SHORTCUTS.length; i++) {
      var s = SHORTCUTS[i];
      if (s.key ? event.key !== s.key : event.code !== s.code) continue;
      if (!!s.ctrl !== ctrl || !!s.alt !== event.altKey) continue;
      if (s.key && event.shiftKey) continue;
      if (s.notTyping && typing(event.target)) continue;
      if (s.once && event.repeat) continue;
      return s;
    }
    return null;
  }

  function typing(target) {
    return /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable;
  }

  function keyed(name) {
    return document.querySelector('[data-key="' + name + '"]');
  }

  function $(selector) {
    return document.querySelector(selector);
  }

  function all(selector, within) {
    return Array.prototype.slice.call((within || document).querySelectorAll(selector));
  }

  // ---- your cards ---------------------------------------------------------------------------

  // The hand is one Tab stop (the ARIA toolbar pattern): the arrow keys, Home and End move
  // between the cards, Space picks or plays the card in focus, Enter presses Pass or OK.
  // Without this script every card is a Tab stop of its own, reached by the skip link.

  function handCards() {
    return all("#table .hand .card");
  }

  function hand() {
    return $("#table .hand");
  }

  function rove(index) {
    var cards = handCards();
    if (!cards.length) return null;
    index = Math.max(0, Math.min(cards.length - 1, index));
    cards.forEach(function (card, i) {
      card.tabIndex = i === index ? 0 : -1;
    });
    return cards[index];
  }

  function setUpHand() {
    var cards = handCards();
    if (!cards.length) return;
    var lit = cards.findIndex(function (card) {
      return card.getAttribute("aria-disabled") !== "true";
    });
    rove(lit >= 0 ? lit : 0);
  }

  // While playing, the card nearest to ``index`` that may be played (else ``index`` itself).
  function nearestLit(index) {
    var cards = handCards();
    if (!hand() || hand().dataset.action !== "play") return index;
    for (var d = 0; d < cards.length; d++) {
      var near = [index - d, index + d];
      for (var k = 0; k < near.length; k++) {
        var card = cards[near[k]];
        if (card && card.getAttribute("aria-disabled") !== "true") return near[k];
      }
    }
    return index;
  }

  function focusCard(index) {
    var card = rove(index);
    if (!card) return false;
    card.focus();
    return true;
  }

  // The focus ring is for the keyboard (issue 50): a card clicked or tapped keeps the focus
  // without it, even after a key such as H (which Chromium counts as the keyboard's), so that
  // the hint's frame is the one mark on the hand; moving by the keyboard brings it back.
  var NAVIGATION = /^(Tab|ArrowLeft|ArrowRight|ArrowUp|ArrowDown|Home|End| )$/;
  document.addEventListener(
    "pointerdown",
    function (event) {
      byPointer = true;
      var card = event.target.closest && event.target.closest("#table .hand .card");
      if (card) card.classList.add("pointer-focus");
    },
    true
  );
  document.addEventListener(
    "focusin",
    function (event) {
      // however the focus comes back to the hand after an answer (near the card that had it,
      // or the hand's stop), it comes back as it left: without the ring after a click
      var card = event.target.closest && event.target.closest("#table .hand .card");
      if (card && byPointer) card.classList.add("pointer-focus");
    },
    true
  );
  document.addEventListener(
    "keydown",
    function (event) {
      if (!NAVIGATION.test(event.key)) return;
      byPointer = false;
      document.querySelectorAll(".pointer-focus").forEach(function (el) {
        el.classList.remove("pointer-focus");
      });
    },
    true
  );

  function focusHand() {
    var cards = handCards();
    var stop = cards.filter(function (card) {
      return card.tabIndex === 0;
    })[0];
    if (!stop) return false;
    stop.focus();
    return true;
  }

  // The computers' cards are still arriving after yours: the hand is not lit yet.
  function handWaiting() {
    var el = hand();
    return !!(
      el &&
      el.getAnimations &&
      el.getAnimations().some(function (animation) {
        var timing = animation.effect && animation.effect.getComputedTiming();
        return (
          animation.animationName === "wait-turn" &&
          animation.playState === "running" &&
          !!timing &&
          timing.endTime > 0 // with no animation (reduced motion, speed None) nothing waits
        );
      })
    );
  }

  // Your card starts towards the table as soon as you choose it; the server's answer then
  // brings the computers' cards (and leaves yours where it is). The card on the table is the
  // server's own markup (trick.html's template), with the face and the name of the card chosen.
  function sendTowardsTable(card) {
    var center = $("#table .center");
    var mold = $("#table template.played-yours");
    if (!center || !mold) return;
    var played = mold.content.firstElementChild.cloneNode(true);
    played.classList.add("face-" + card.value, "arrive", "t0", "yours-now"); // it arrives now, gliding
    played.setAttribute("aria-label", played.getAttribute("aria-label") + card.textContent.trim());
    center.appendChild(played);
    card.classList.add("leaving");
  }

  // A card chosen while the last trick is still shown and gathered (the hand is dimmed) is
  // played as soon as the hand lights up, as a player at a real table would lay it down.
  function chooseEarly(card) {
    all("#table .hand .card.chosen").forEach(function (other) {
      other.classList.remove("chosen");
    });
    card.classList.add("chosen");
  }

  document.addEventListener("animationend", function (event) {
    if (event.animationName !== "wait-turn" || !event.target.matches("#table .hand")) return;
    var card = event.target.querySelector(".card.chosen");
    if (!card) return;
    card.classList.remove("chosen");
    card.form.requestSubmit(card);
  });

  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!form.classList || !form.classList.contains("hand-form")) return;
      var card = event.submitter;
      var handEl = form.querySelector(".hand");
      if (handWaiting() || form.dataset.sent) {
        event.preventDefault();
        event.stopImmediatePropagation();
        if (!form.dataset.sent && card && card.classList.contains("card")) chooseEarly(card);
        return;
      }
      if (!window.htmx || !handEl || handEl.dataset.action !== "play" || !card) return;
      if (card.getAttribute("aria-disabled") === "true") return; // the server says why not
      form.dataset.sent = "1";
      sendTowardsTable(card);
    },
    true
  );

  // ---- the menus (the WAI-ARIA menubar pattern) --------------------------------------------

  var tops = all(".menubar .menu-title");

  function menuOf(top) {
    return document.getElementById(top.getAttribute("aria-controls"));
  }

  function itemsOf(top) {
    return all('[role="menuitem"]', menuOf(top));
  }

  function openTop() {
    for (var i = 0; i < tops.length; i++) {
      if (tops[i].getAttribute("aria-expanded") === "true") return tops[i];
    }
    return null;
  }

  function rememberFocus() {
    var active = document.activeElement;
    if (active && active.closest(".menubar")) return;
    focusBeforeMenu = active && active !== document.body ? active : null;
  }

  function openMenu(top, where) {
    rememberFocus();
    tops.forEach(function (other) {
      var isThis = other === top;
      other.setAttribute("aria-expanded", isThis ? "true" : "false");
      other.tabIndex = isThis ? 0 : -1;
      menuOf(other).classList.toggle("open", isThis);
    });
    var items = itemsOf(top);
    if (where === "first" && items.length) items[0].focus();
    else if (where === "last" && items.length) items[items.length - 1].focus();
    else top.focus();
  }

  function closeMenus(focusTop) {
    var open = openTop();
    tops.forEach(function (top) {
      top.setAttribute("aria-expanded", "false");
      menuOf(top).classList.remove("open");
    });
    if (open && focusTop) open.focus();
  }

  function moveTop(from, step) {
    var index = (tops.indexOf(from) + step + tops.length) % tops.length;
    return tops[index];
  }

  tops.forEach(function (top, index) {
    top.tabIndex = index === 0 ? 0 : -1;
    itemsOf(top).forEach(function (item) {
      item.tabIndex = -1;
    });
    top.addEventListener("click", function () {
      if (top.getAttribute("aria-expanded") === "true") closeMenus(true);
      else openMenu(top, "first");
    });
  });

  function menuKeys(event) {
    var target = event.target;
    var top = target.closest(".menu-title");
    var key = event.key;
    if (top) {
      if (key === "ArrowRight" || key === "ArrowLeft") {
        var next = moveTop(top, key === "ArrowRight" ? 1 : -1);
        if (openTop()) openMenu(next, "first");
        else {
          top.tabIndex = -1;
          next.tabIndex = 0;
          next.focus();
        }
      } else if (key === "ArrowDown" || key === "Enter" || key === " ") {
        openMenu(top, "first");
      } else if (key === "ArrowUp") {
        openMenu(top, "last");
      } else if (key === "Escape") {
        closeMenus(true);
      } else {
        return false;
      }
      return true;
    }
    var menu = target.closest('[role="menu"]');
    if (!menu) return false;
    var owner = document.getElementById(menu.getAttribute("aria-labelledby"));
    var items = itemsOf(owner);
    var at = items.indexOf(target);
    if (key === "ArrowDown" || key === "ArrowUp") {
      items[(at + (key === "ArrowDown" ? 1 : -1) + items.length) % items.length].focus();
    } else if (key === "Home" || key === "End") {
      items[key === "Home" ? 0 : items.length - 1].focus();
    } else if (key === "ArrowRight" || key === "ArrowLeft") {
      openMenu(moveTop(owner, key === "ArrowRight" ? 1 : -1), "first");
    } else if (key === "Escape") {
      closeMenus(true);
    } else if (key === " " && target.tagName === "A") {
      target.click();
    } else if (key === "Tab") {
      closeMenus(false);
      return false;
    } else {
      return false;
    }
    return true;
  }

  document.addEventListener("click", function (event) {
    var item = event.target.closest('.menu [role="menuitem"]');
    if (item) {
      if (!opener) opener = focusBeforeMenu;
      closeMenus(false);
      // the item's own work (htmx, a form, exit) goes on; focus comes back afterwards
      return;
    }
    if (openTop() && !event.target.closest(".menubar")) closeMenus(false);
  });

  // ---- dialogs ------------------------------------------------------------------------------

  function openDialog() {
    return $("#dialogs dialog[open]");
  }

  function restoreFocus() {
    var back = opener || focusBeforeMenu;
    opener = null;
    if (back && document.contains(back) && !back.closest(".menu")) {
      back.focus();
    } else if (!focusHand()) {
      if (tops.length) tops[0].focus();
    }
  }

  function showDialogs() {
    all("#dialogs dialog.modal-dialog").forEach(function (dialog) {
      if (dialog.dataset.ask === "no") {
        // opening a numbered game loses nothing here: start it without asking
        var form = dialog.querySelector("form");
        if (form && !dialog.dataset.sent) {
          dialog.dataset.sent = "1";
          form.requestSubmit();
        }
        return;
      }
      if (dialog.matches(":modal")) return;
      // a dialog's own page loaded with JavaScript on: shown again as modal. Not by close(),
      // whose close event would remove the dialog (see below) as soon as it is shown.
      if (dialog.open) dialog.removeAttribute("open");
      cover(dialog);
      dialog.showModal();
    });
  }

  // One dialog at a time (issue 50): a dialog opened from another (the challenge from the score
  // sheet) hides the one under it, which comes back when it closes.
  function cover(top) {
    all("#dialogs dialog[open], #table dialog.sheet[open]").forEach(function (under) {
      if (under !== top) under.classList.add("covered");
    });
  }

  function uncover() {
    var covered = all("dialog.covered");
    if (covered.length) covered[covered.length - 1].classList.remove("covered");
  }

  document.addEventListener(
    "close",
    function (event) {
      var dialog = event.target;
      if (!dialog.matches || !dialog.matches("#dialogs dialog")) return;
      dialog.remove();
      uncover();
      if (location.pathname !== home() && !atTable) history.replaceState(null, "", home() + location.hash);
      syncHash();
      restoreFocus();
    },
    true
  );

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var dialog = form.closest("#dialogs dialog");
    if (dialog && form.classList.contains("dialog-close")) {
      event.preventDefault();
      dialog.close();
    }
  });

  document.addEventListener("click", function (event) {
    var cancel = event.target.closest("#dialogs .dialog-cancel");
    if (cancel) {
      event.preventDefault();
      cancel.closest("dialog").close();
    }
  });

  function trapTab(event, dialog) {
    var focusable = all("a[href], button:not([disabled]), input:not([disabled]), [tabindex='0']", dialog).filter(
      function (el) {
        return el.offsetParent !== null || el === document.activeElement;
      }
    );
    if (!focusable.length) return;
    var first = focusable[0];
    var last = focusable[focusable.length - 1];
    if (event.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (document.activeElement === last || !dialog.contains(document.activeElement))) {
      event.preventDefault();
      first.focus();
    }
  }

  // Tab past the window's last control goes round to its first (the Game menu), and Shift+Tab
  // before the page's first to the window's last, as in a Windows window: the focus never
  // lands on the page itself (the body) between them.
  function tabStops() {
    return all("a[href], button:not([disabled]), input:not([disabled]):not([type='hidden']), [tabindex]").filter(
      function (el) {
        return el.tabIndex >= 0 && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
      }
    );
  }

  function wrapTab(event) {
    var stops = tabStops();
    var active = document.activeElement;
    if (!stops.length) return false;
    if (!event.shiftKey && active === stops[stops.length - 1]) {
      var first = tops.filter(function (top) {
        return top.tabIndex === 0;
      })[0];
      (first || stops[0]).focus();
      return true;
    }
    if (event.shiftKey && active === stops[0]) {
      stops[stops.length - 1].focus();
      return true;
    }
    return false;
  }

  // ---- numbered games: /#617 -----------------------------------------------------------------

  function currentNumber() {
    var table = $("#table");
    return (table && table.getAttribute("data-number")) || null;
  }

  function home() {
    return body.getAttribute("data-home");
  }

  function syncHash() {
    var number = currentNumber();
    if (!number || atTable || $("#dialog-open-game")) return;
    var want = "#" + number;
    if (location.hash !== want || location.pathname !== home()) history.replaceState(null, "", home() + want);
  }

  function followHash() {
    var match = /^#(\d+)$/.exec(location.hash);
    var prompt = $("#link-number");
    if (prompt) {
      // the name prompt: the game the link names starts with the name, in the same request
      prompt.value = match ? match[1] : "";
      return;
    }
    if (!match) {
      syncHash();
      return;
    }
    var number = String(parseInt(match[1], 10));
    if (number === currentNumber() || !window.htmx) return;
    opener = document.activeElement;
    var url = body.getAttribute("data-open-game").replace("NUMBER", number);
    htmx.ajax("GET", url, { target: "#dialogs", swap: "innerHTML" });
  }

  window.addEventListener("hashchange", followHash);

  // ---- exit to the desktop and back -------------------------------------------------------------

  function exitToDesktop() {
    if (!windowEl || !icon) return;
    closeMenus(false);
    windowEl.hidden = true;
    if (desk) desk.hidden = false;
    icon.hidden = false;
    icon.focus();
  }

  function reopen() {
    icon.hidden = true;
    if (desk) desk.hidden = true;
    windowEl.hidden = false;
    restoreFocus();
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("#menu-exit") && icon) {
      event.preventDefault();
      exitToDesktop();
    }
  });

  if (icon && windowEl) {
    // The product page: "click the icon to reopen it". A click, a double-click (its first
    // click already reopens) and Enter on the focused icon all bring the window back.
    icon.addEventListener("click", function (event) {
      event.preventDefault();
      reopen();
    });
  }

  // ---- the keyboard -------------------------------------------------------------------------------

  function press(key) {
    var item = keyed(key);
    if (!item) return false;
    opener = document.activeElement && !document.activeElement.closest(".menubar") ? document.activeElement : focusBeforeMenu;
    closeMenus(false);
    item.click();
    return true;
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented) return;
    var target = event.target;
    var key = event.key;
    if (windowEl && windowEl.hidden) return; // on the desktop the browser's keys are its own
    var dialog = openDialog();
    if (dialog) {
      if (key === "Tab") trapTab(event, dialog);
      var again = shortcutOf(event);
      if (again && again.name === "l" && dialog === lastTrick()) {
        event.preventDefault(); // L again puts the last trick away
        dialog.close();
      }
      return; // Esc, Enter and the buttons are the dialog's own
    }
    if (target.closest && target.closest(".menubar") && menuKeys(event)) {
      event.preventDefault();
      return;
    }
    var shortcut = shortcutOf(event);
    var handled = false;
    if (key === "Tab" && !event.altKey && !event.ctrlKey && !event.metaKey) {
      handled = wrapTab(event);
    } else if (shortcut && shortcut.menu) {
      var top = keyed(shortcut.name);
      if (top) {
        openMenu(top, "first");
        handled = true;
      }
    } else if (shortcut) {
      handled = press(shortcut.name);
    } else if (key === "Escape" && openTop()) {
      closeMenus(true);
      handled = true;
    } else {
      var cards = handCards();
      var at = cards.indexOf(target);
      var action = hand() ? hand().dataset.action : "";
      if (at >= 0 && (key === "ArrowLeft" || key === "ArrowRight")) {
        focusCard(at + (key === "ArrowLeft" ? -1 : 1));
        handled = true;
      } else if (at >= 0 && (key === "Home" || key === "End")) {
        focusCard(key === "Home" ? 0 : cards.length - 1);
        handled = true;
      } else if (key === "Enter" && at >= 0 && action !== "play") {
        // Enter is the default button (Pass, or OK), as in the original; Space picks
        var button = $("#pass-button:not([disabled])");
        if (button) button.click();
        handled = true;
      } else if (key === "Enter" && at < 0 && !/^(INPUT|BUTTON|TEXTAREA|SELECT|A|SUMMARY)$/.test(target.tagName)) {
        var push = document.querySelector("#table dialog[open] .push, #table .push:not([disabled])");
        if (push) {
          push.click();
          handled = true;
        }
      }
    }
    if (handled) event.preventDefault();
  });

  // ---- our addition: the last trick ---------------------------------------------------
  // L, Game > Last Trick or a click on the winner's pile shows it; L again, Esc or a click
  // anywhere puts it away. Without this script the same links open it as a page of its own.

  function lastTrick() {
    var shown = $("#dialogs dialog#dialog-last-trick");
    return shown && shown.open ? shown : null;
  }


  document.addEventListener(
    "click",
    function (event) {
      var shown = lastTrick();
      if (shown && shown.matches(":modal")) {
        event.preventDefault();
        event.stopPropagation();
        shown.close();
        return;
      }
      var pile = event.target.closest("#trick-pile");
      if (pile) opener = pile;
    },
    true
  );

  // ---- htmx ---------------------------------------------------------------------------------------

  // The status bar is the live region: a screen reader reads each change. The same words again
  // (picking a card while "Select three cards..." stands) are not a change worth hearing twice;
  // a refusal is, so it is always swapped in.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.target || detail.target.id !== "status" || !detail.fragment) return;
    var box = document.createElement("div");
    box.appendChild(detail.fragment.cloneNode(true));
    var same = box.textContent.replace(/\s+/g, " ").trim() === detail.target.textContent.replace(/\s+/g, " ").trim();
    if (same && !box.querySelector(".refusal")) {
      detail.shouldSwap = false;
    }
  });

  // Before the table is drawn again (a request of the page's, or a step its stream sent: the
  // network's "hearts:redraw"), the focused card's place, so that focus comes back near it.
  function noteFocusedCard() {
    var cards = handCards();
    var at = cards.indexOf(document.activeElement);
    lastIndex = at >= 0 ? at : null;
  }

  document.addEventListener("htmx:beforeRequest", noteFocusedCard);
  document.addEventListener("hearts:redraw", noteFocusedCard);

  function focusLost() {
    var active = document.activeElement;
    return !active || active === document.body || !document.contains(active);
  }

  // The score sheet (or the OK that deals the next hand) appears when the last trick has been
  // gathered: focus goes to its button then, unless the player has gone elsewhere meanwhile.
  function focusWhenShown(later) {
    var button = later.querySelector(".push");
    if (!button) return;
    if (getComputedStyle(later).visibility === "visible") {
      button.focus();
      return;
    }
    later.addEventListener(
      "animationend",
      function () {
        if (focusLost() || later.closest("#table").contains(document.activeElement)) button.focus();
      },
      { once: true }
    );
  }

  // Undo Card is lit while the table says your card may still come back (data-undo): "on" until
  // you play again (you took the trick and nobody has led); "until-gathered" while the trick
  // your card went to is drawn: it greys when the page begins to gather that trick, before the
  // next lead is drawn (at once when nothing is animated). The server refuses it otherwise.
  function syncUndo() {
    var table = $("#table");
    var item = $("#menu-undo");
    if (!table || !item || !table.dataset.undo) return;
    var lit = table.dataset.undo === "on" || (table.dataset.undo === "until-gathered" && !gathered(table));
    if (lit) item.removeAttribute("aria-disabled");
    else item.setAttribute("aria-disabled", "true");
  }

  function gathered(table) {
    return (
      !!table.dataset.gathering ||
      !table.querySelector(".played.gather") ||
      window.matchMedia("(prefers-reduced-motion: reduce)").matches
    );
  }

  document.addEventListener("animationstart", function (event) {
    if (event.animationName !== "gather") return;
    var table = event.target.closest("#table");
    if (!table || table.dataset.gathering) return;
    table.dataset.gathering = "1";
    syncUndo();
  });

  // Undo greyed by the gathering does not post: the status bar says why, as the server would.
  document.addEventListener(
    "submit",
    function (event) {
      var item = event.submitter;
      var table = $("#table");
      if (!item || item.id !== "menu-undo" || !table || !table.dataset.undoLate) return;
      if (item.getAttribute("aria-disabled") !== "true") return;
      event.preventDefault();
      event.stopImmediatePropagation();
      var line = document.createElement("span");
      line.className = "status-line refusal";
      line.textContent = table.dataset.undoLate;
      var status = $("#status");
      if (status) status.replaceChildren(line);
    },
    true
  );

  document.addEventListener("htmx:afterSettle", function (event) {
    // the score sheet's comparison arriving on its own changes nothing else: focus stays
    var from = event.detail && event.detail.elt;
    if (from && from.hasAttribute && from.hasAttribute("data-comparison")) return;
    syncUndo();
    showDialogs();
    setUpHand();
    if (openDialog()) return;
    syncHash();
    var later = $("#table dialog.sheet[open], #table .continue");
    if (later) {
      focusWhenShown(later);
    } else if (lastIndex !== null) {
      focusCard(nearestLit(lastIndex));
    } else if (opener && focusLost()) {
      restoreFocus(); // a dialog's form (Select Game, a link's game) replaced the table
    } else if (focusLost()) {
      // OK on the received cards, Pass, a new hand: back to the hand, or to the button
      if (!focusHand()) {
        var push = $("#table .push:not([disabled])");
        if (push) push.focus();
      }
    }
    lastIndex = null;
  });

  setUpHand();
  syncUndo();
  showDialogs();
  followHash();
})();
