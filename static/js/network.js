// Hearts Network: a table's page kept up to date, by its event stream or, failing that, by its
// poll. Loaded by the network's pages only (templates/game/network/page.html); hearts.js does
// the rest of the page. The server hands this script what it needs as data attributes of the
// poll box (templates/game/network/poll.html), in the first page and in every table swapped in:
// the table's version, its redraw time and the stream's address (drawn only for a seat); the
// script parses no HTML or URL of its own.
(function () {
  "use strict";

  function $(selector) {
    return document.querySelector(selector);
  }

  function pollBox() {
    return $("#table .net-poll");
  }

  // A network table's answers may arrive out of order (a poll sent before a move, answered
  // after it): each carries its table's version, and an answer older than the table already
  // drawn is not swapped in.
  function drawnVersion() {
    var poll = pollBox();
    return poll ? Number(poll.dataset.version) : null;
  }

  // The version an answer draws, from its poll box's data-version (parsed, never executed).
  function versionIn(html) {
    var answer = document.createElement("template");
    answer.innerHTML = html || "";
    var poll = answer.content.querySelector(".net-poll");
    return poll ? Number(poll.dataset.version) : null;
  }

  // A poll or a catch-up notes the version its page showed when it asked.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail;
    var box = pollBox();
    var config = detail.requestConfig;
    if (!box || !detail.xhr || !config || config.path !== box.getAttribute("hx-get")) return;
    detail.xhr.heartsAsked = Number(box.dataset.version);
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.target || detail.target.id !== "table" || !detail.xhr) return;
    var found = versionIn(detail.xhr.responseText);
    var drawn = drawnVersion();
    if (found !== null && drawn !== null && found < drawn) {
      detail.shouldSwap = false;
    }
    // a catch-up asked from an older version, answered with the table already drawn (a move's
    // own answer came first): drawing it again would replay what has just been shown
    var asked = detail.xhr.heartsAsked;
    if (found !== null && asked !== undefined && drawn !== null && found === drawn && asked < drawn) {
      detail.shouldSwap = false;
    }
  });

  // A table drawn from the others' moves (a catch-up or a poll, not the answer to this page's
  // own) starts at its first card at once (body.catch-up: the STEP a click of one's own is
  // followed by is skipped), and when the page was still drawing the table before, what it
  // still has to draw comes twice as fast (body.hurry): a page that falls behind catches up,
  // so a friend's card is on this table soon after it was played (hearts.css).
  function drawing() {
    return document.getAnimations().some(function (animation) {
      var timing = animation.effect && animation.effect.getComputedTiming();
      return animation.playState === "running" && !!timing && timing.endTime > 0;
    });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.target || detail.target.id !== "table" || !detail.xhr || !detail.shouldSwap) return;
    var fromOthers = detail.xhr.heartsAsked !== undefined;
    var body = document.body;
    body.classList.toggle("hurry", fromOthers && drawing());
    body.classList.toggle("catch-up", fromOthers);
  });

  // The page holds one Server-Sent Events stream of its table (the browser's own EventSource),
  // which tells the table's version when it opens and each time a change is saved (or sends a
  // step's public part: takeDrawn above). A page behind it fetches what came after its own
  // version through its poll's URL, so the table is drawn and animated as after a poll. While the stream is open, the timed poll asks only when
  // the page's redraw time has come (a button falls due) or every SAFETY_MS at most; while it
  // is not (refused, reconnecting, never opened), the poll goes on every two seconds.
  var stream = null;
  var streamUrl = ""; // where the open stream (or the one waiting to reopen) reads from
  var reopening = null; // the timer that opens a refused stream again
  var streamLive = false;
  var pushed = 0; // the newest version the stream told
  var catchingUp = false;
  var reopenMs = 1000;
  var lastAsked = Date.now();
  var SAFETY_MS = 20000;
  // A fetch that drew nothing (a 204: put off by a busy process, often while the very move it
  // was told of is being answered) asks again after 50 ms, then twice as long each time up to
  // two seconds: soon, but never in a loop.
  var AGAIN_FIRST_MS = 50;
  var AGAIN_MOST_MS = 2000;
  var againMs = AGAIN_FIRST_MS;
  var againAt = 0;
  var newestDrawn = 0; // a newer table drawn (by any answer) ends the waiting after 204s
  // While its own request is out, a page behind its stream looks again this often.
  var BUSY_LOOK_MS = 30;

  function serverNow(box) {
    // the server's clock, from the Unix second the page was drawn at and the time since then
    return Number(box.getAttribute("data-now")) + (Date.now() - Number(box.dataset.drawnAt)) / 1000;
  }

  // Whether a request of the page's own is out: a move, a timed poll (a catch-up's own answer
  // calls catchUp when it comes).
  function ownRequestOut() {
    return !!$("#table .htmx-request, #table.htmx-request");
  }

  // Ask catchUp again in ``ms``: one timer however many reasons, the soonest of them.
  var recheck = null;
  var recheckAt = 0;
  function catchUpIn(ms) {
    var at = Date.now() + ms;
    if (recheck !== null) {
      if (recheckAt <= at) return;
      clearTimeout(recheck);
    }
    recheckAt = at;
    recheck = setTimeout(function () {
      recheck = null;
      catchUp();
    }, ms);
  }

  // A page behind its stream fetches what came after its own version as soon as nothing of its
  // own is out. Whatever held it back (a move's answer on its way, a poll, a fetch put off with
  // 204, a fetch that failed), the page looks again shortly after, rather than counting on one
  // event to come in the right order: a notice is never left unfetched.
  function catchUp() {
    var box = pollBox();
    var drawn = drawnVersion();
    if (!box || drawn === null || pushed <= drawn || catchingUp || !window.htmx) return;
    if (ownRequestOut()) {
      catchUpIn(BUSY_LOOK_MS);
      return;
    }
    if (Date.now() < againAt) {
      catchUpIn(againAt - Date.now());
      return;
    }
    catchingUp = true;
    lastAsked = Date.now();
    htmx.ajax("GET", box.getAttribute("hx-get"), { source: "#table", target: "#table", swap: "outerHTML" }).then(
      function () {
        catchingUp = false;
        if (drawnVersion() === drawn) {
          // nothing drawn: asking again at once would press on a busy process in a loop
          againAt = Date.now() + againMs;
          againMs = Math.min(againMs * 2, AGAIN_MOST_MS);
        }
        catchUp();
      },
      function () {
        catchingUp = false; // the fetch failed (the network, the server): try again, later
        againAt = Date.now() + againMs;
        againMs = Math.min(againMs * 2, AGAIN_MOST_MS);
        catchUp();
      }
    );
  }

  // The public part of a step (game/network/public.py): the table as every seat that only
  // watched the step sees it, drawn once for them all with absolute places (seat-s2, at-s1) and
  // an empty #hand. The page takes it only while it shows exactly the version it was drawn
  // after, with nothing of its own out; it turns it to its own seat (the others round the
  // table from it, each place seen from it, "you" where it is this seat), puts its own hand in
  // it and swaps it in as htmx swaps a fetched table. Otherwise it fetches, as for any version.
  var PLACES = ["bottom", "left", "top", "right"];
  var PLACED = /^(seat|at|to|pile|taken)-s([0-3])$/;

  function parsed(html) {
    var answer = document.createElement("template");
    answer.innerHTML = html;
    return answer;
  }

  // The hand to put in the table: the page's own, or (for the seat whose turn came) the lit
  // hand its stream sent, given the page's CSRF token; with it, its own poll box.
  function ownHand(content, mine) {
    if (!mine) return $("#table #hand").cloneNode(true);
    var given = parsed(mine).content;
    var hand = given.querySelector("#hand");
    var poll = given.querySelector(".net-poll");
    var token = $("#table #hand input[name='csrfmiddlewaretoken']");
    if (!hand || !poll || !token) return null;
    hand.querySelectorAll("input[name='csrfmiddlewaretoken']").forEach(function (input) {
      input.setAttribute("value", token.value);
    });
    // its own bar of players away, or none (the table waits on the seat whose turn came)
    var bar = content.querySelector(".net-bar");
    var ownBar = given.querySelector(".net-bar");
    if (bar && ownBar) bar.replaceWith(ownBar);
    else if (bar) bar.remove();
    else if (ownBar) content.querySelector(".net-poll").before(ownBar);
    content.querySelector(".net-poll").replaceWith(poll);
    return hand;
  }

  function turned(html, seat, mine, seq) {
    var answer = parsed(html);
    var content = answer.content;
    var table = content.querySelector("#table");
    var slot = content.querySelector("#hand");
    var own = table && slot && $("#table #hand") && ownHand(content, mine);
    var seats = [];
    for (var s = 0; s < 4; s++) seats.push(content.querySelector("section.seat.seat-s" + s));
    if (!own || seats.indexOf(null) >= 0) return null;
    var mark = document.createComment("");
    seats[0].parentNode.insertBefore(mark, seats[0]);
    seats.forEach(function (section) {
      section.remove();
    });
    for (var step = 1; step < 4; step++) mark.parentNode.insertBefore(seats[(seat + step) % 4], mark);
    mark.remove();
    content.querySelectorAll("[class]").forEach(function (element) {
      Array.prototype.slice.call(element.classList).forEach(function (name) {
        var placed = PLACED.exec(name);
        if (placed) element.classList.replace(name, placed[1] + "-" + PLACES[(Number(placed[2]) - seat + 4) % 4]);
      });
    });
    // "you": a label, or words, for one seat's page ("won by you", "Select a card to play.")
    content.querySelectorAll("[data-you]").forEach(function (element) {
      var data = element.dataset;
      if (Number(data.you) === seat && data.youLabel) element.setAttribute("aria-label", data.youLabel);
      if (Number(data.you) === seat && data.youText) element.textContent = data.youText;
      ["data-you", "data-you-label", "data-you-text"].forEach(function (name) {
        element.removeAttribute(name);
      });
      if (element.hasAttribute("data-unwrap")) element.replaceWith(element.textContent);
    });
    table.dataset.seq = seq === undefined ? $("#table").dataset.seq : seq;
    slot.replaceWith(own);
    return answer.innerHTML;
  }

  // The answer to this page's own card played (public.py's mover_answer): the step's public
  // part, which the page turns as any watching page does, with its own part (its hand, its
  // poll box). Its whole table would differ from a watcher's in three ways, put right here
  // while the places are still absolute: its card is on the table already (hearts.js sent it
  // there on the click), so it does not glide in, and every later moment comes one STEP (two
  // ticks) sooner; the status bar's first step, waiting for this seat's own card, is not
  // shown (nor, if it was the only one, the steps' box and the line's wait); and its own
  // sentence is in its own words (data-you, as every page turns it).
  var TICK = /^([tge])(\d+)$/;
  var STEP_TICKS = 2;

  function forMover(html, seat) {
    var answer = parsed(html);
    var content = answer.content;
    var mine = content.querySelector(".center .played.arrive.at-s" + seat);
    if (mine) {
      Array.prototype.slice.call(mine.classList).forEach(function (name) {
        if (name === "arrive" || /^t\d+$/.test(name)) mine.classList.remove(name);
      });
    }
    content.querySelectorAll("[class]").forEach(function (element) {
      Array.prototype.slice.call(element.classList).forEach(function (name) {
        var tick = TICK.exec(name);
        if (tick) element.classList.replace(name, tick[1] + Math.max(0, Number(tick[2]) - STEP_TICKS));
      });
    });
    var steps = content.querySelectorAll(".status-step");
    if (steps.length) {
      var box = steps[0].parentNode;
      steps[0].remove();
      if (steps.length === 1) {
        box.remove();
        var line = content.querySelector(".status-line");
        Array.prototype.slice.call(line.classList).forEach(function (name) {
          if (name === "status-later" || /^t\d+$/.test(name)) line.classList.remove(name);
        });
      }
    }
    return answer.innerHTML;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.xhr || detail.xhr.getResponseHeader("Hearts-Drawn") !== "mover") return;
    var lines = String(detail.serverResponse).split("\n");
    var head = lines[0].split(" ");
    var seat = Number(head[2]);
    var mine = Number(head[3]) || 0;
    var own = lines.slice(1, 1 + mine).join("\n");
    var table = turned(forMover(lines.slice(1 + mine).join("\n"), seat), seat, own, head[4]);
    if (table) {
      detail.serverResponse = table;
      return;
    }
    detail.shouldSwap = false; // not turned (no hand of its own on the page): fetched instead
    pushed = Math.max(pushed, Number(head[1]) || 0);
    catchUp();
  });

  function takeDrawn(since, seat, html, mine) {
    if (drawnVersion() !== since || catchingUp || ownRequestOut() || !window.htmx || !htmx.swap) return;
    var table = turned(html, seat, mine);
    if (!table) return;
    var chosen = $("#table .hand .card.chosen");
    keptChoice = chosen ? chosen.value : null;
    document.body.classList.toggle("hurry", drawing());
    document.body.classList.add("catch-up");
    document.dispatchEvent(new CustomEvent("hearts:redraw")); // hearts.js notes the focus
    htmx.swap("#table", table, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: htmx.config.defaultSettleDelay });
  }

  // The stream follows the seat: the table drawn for a seat carries its stream's address
  // (data-events), whether it came with the page or was swapped in later (joined at the name
  // prompt); a page showing no table of its own (removed from the lobby, the table gone, a
  // notice in its place) closes its stream and stops trying to reopen it. One stream a page.
  function streamAddress() {
    var box = pollBox();
    return (box && box.getAttribute("data-events")) || "";
  }

  function followSeat() {
    var wanted = window.EventSource ? streamAddress() : "";
    if (wanted === streamUrl && (stream || reopening !== null || !wanted)) return;
    closeStream();
    if (wanted) openStream(wanted);
  }

  function closeStream() {
    if (stream) stream.close();
    if (reopening !== null) clearTimeout(reopening);
    stream = null;
    reopening = null;
    streamUrl = "";
    streamLive = false;
    pushed = 0;
    reopenMs = 1000;
  }

  function openStream(url) {
    streamUrl = url;
    var source = new EventSource(url);
    stream = source;
    source.addEventListener("table", function (event) {
      if (source !== stream) return;
      streamLive = true;
      reopenMs = 1000;
      pushed = Math.max(pushed, Number(event.data) || 0);
      catchUp();
    });
    source.addEventListener("drawn", function (event) {
      if (source !== stream) return;
      streamLive = true;
      reopenMs = 1000;
      // the version it follows, its own, the seat, the lines of the seat's own part first
      var lines = String(event.data).split("\n");
      var head = lines[0].split(" ");
      var mine = Number(head[3]) || 0;
      pushed = Math.max(pushed, Number(head[1]) || 0);
      takeDrawn(Number(head[0]), Number(head[2]), lines.slice(1 + mine).join("\n"), lines.slice(1, 1 + mine).join("\n"));
      catchUp(); // not taken: fetched as any newer version
    });
    source.addEventListener("error", function () {
      if (source !== stream) return;
      streamLive = false; // the browser reconnects by itself; the poll fills in meanwhile
      if (source.readyState === EventSource.CLOSED) {
        stream = null; // refused (no stream here, or no seat): try again later, if still seated
        reopening = setTimeout(function () {
          reopening = null;
          var wanted = streamAddress(); // the seat may have gone meanwhile
          if (wanted) openStream(wanted);
          else closeStream();
        }, reopenMs);
        reopenMs = Math.min(reopenMs * 2, 60000);
      }
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt || !elt.classList || !elt.classList.contains("net-poll")) return;
    var redraw = Number(elt.dataset.redraw) || 0; // when a button falls due (0: none)
    var due = redraw > 0 && serverNow(elt) >= redraw;
    if (streamLive && !due && Date.now() - lastAsked < SAFETY_MS) {
      event.preventDefault();
      return;
    }
    lastAsked = Date.now();
  });

  function notePollBox() {
    var box = pollBox();
    if (box && !box.dataset.drawnAt) box.dataset.drawnAt = String(Date.now());
  }

  document.addEventListener("htmx:afterRequest", function () {
    setTimeout(catchUp, 0);
  });

  document.addEventListener("htmx:afterSwap", noteDrawn);

  function noteDrawn() {
    var drawn = drawnVersion();
    if (drawn !== null && drawn > newestDrawn) {
      newestDrawn = drawn;
      againMs = AGAIN_FIRST_MS;
      againAt = 0;
    }
  }

  document.addEventListener("htmx:afterSettle", function () {
    notePollBox();
    noteDrawn();
    followSeat();
    catchUp();
  });

  // A card chosen while the trick is still shown and gathered (hearts.js marks it "chosen" and
  // lays it down when the hand lights) keeps its choice across a table drawn meanwhile for
  // another player's doing (someone arriving, leaving, replaced): the new drawing marks the same
  // card again if it is still in the hand and may be played, and it is laid down when that
  // drawing's hand lights, or at once (once settled) if it is lit already. A card it may not
  // play is dropped.
  var keptChoice = null;

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.target || detail.target.id !== "table" || !detail.shouldSwap) return;
    var chosen = $("#table .hand .card.chosen");
    keptChoice = chosen ? chosen.value : null;
  });

  function handStillWaiting(hand) {
    return hand.getAnimations().some(function (animation) {
      var timing = animation.effect && animation.effect.getComputedTiming();
      return animation.animationName === "wait-turn" && animation.playState === "running" && !!timing && timing.endTime > 0;
    });
  }

  document.addEventListener("htmx:afterSettle", function () {
    var value = keptChoice;
    keptChoice = null;
    if (!value) return;
    var hand = $("#table .hand-form .hand[data-action='play']");
    var form = hand && hand.closest("form");
    if (!hand || !form || form.dataset.sent) return;
    var cards = hand.querySelectorAll(".card");
    for (var i = 0; i < cards.length; i++) {
      var card = cards[i];
      if (card.value !== value || card.getAttribute("aria-disabled") === "true") continue;
      card.classList.add("chosen");
      if (!handStillWaiting(hand)) {
        // settled: htmx has taken the new form in, so the card goes as a click would send it
        card.classList.remove("chosen");
        form.requestSubmit(card);
      }
      return;
    }
  });

  // The dealer's link (lobby.html): a click in its field selects it whole, and Copy (shown only
  // where this script runs) puts it on the clipboard and says so.
  var COPIED = "The link is copied: paste it to friends.";

  function showCopy() {
    var button = $("#copy-link");
    if (button) button.hidden = false;
  }

  function copyLink(field, said) {
    function done() {
      said.textContent = COPIED;
    }
    function byHand() {
      // no clipboard for this page (not a secure context): the old way, or the person's keys
      if (document.execCommand && document.execCommand("copy")) done();
      else said.textContent = "Press Ctrl+C to copy the selected link.";
    }
    field.select();
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done, byHand);
    else byHand();
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target.closest) return;
    var field = $("#table-link");
    if (field && target === field) {
      field.select();
    } else if (field && target.closest("#copy-link")) {
      copyLink(field, $("#link-copied"));
    }
  });

  document.addEventListener("htmx:afterSettle", showCopy);
  showCopy();

  notePollBox();
  noteDrawn();
  followSeat();
})();
