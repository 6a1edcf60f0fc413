// Live pages: when the tournament changes, fetch the page again and swap
// its main part in. Without JavaScript (or EventSource) the page is a
// plain page that a reload brings up to date.
(function () {
  "use strict";
  var main = document.getElementById("main");
  var url = main && main.getAttribute("data-live");
  if (!url || !window.EventSource || !window.fetch || !window.DOMParser) return;
  var shown = Number(main.getAttribute("data-revision"));
  var wanted = shown;
  var busy = false;
  function refresh() {
    if (busy) return;
    busy = true;
    fetch(location.href, { credentials: "same-origin", cache: "no-cache" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        busy = false;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("main");
        if (!fresh) return;
        var active = document.activeElement && document.activeElement.id;
        main.replaceWith(fresh);
        main = fresh;
        shown = Number(fresh.getAttribute("data-revision"));
        if (active && document.getElementById(active)) document.getElementById(active).focus();
        // A cache may answer with the page just before the change: ask again.
        if (shown < wanted) setTimeout(refresh, 300);
      })
      .catch(function () { busy = false; setTimeout(refresh, 2000); });
  }
  // A page with a form being filled in is not swapped under the person
  // typing. The parts marked data-live-part (the disputes, the scores) and
  // every game whose choice the person has not touched are brought up to
  // date in place; a game they changed stays as they set it, and the page
  // says that something changed under it.
  var noticeOnly = main.getAttribute("data-live-mode") === "notice";
  var patching = false;
  function untouched(game) {
    var select = game.querySelector("select");
    var stored = game.querySelector("input[name^='o']");
    return !select || !stored || select.value === stored.value || (select.value === "" && stored.value === "");
  }
  function patch() {
    if (patching) return;
    patching = true;
    fetch(location.href, { credentials: "same-origin", cache: "no-cache" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        patching = false;
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("main");
        if (!fresh) return;
        var clash = false;
        Array.prototype.forEach.call(fresh.querySelectorAll("[data-live-part]"), function (part) {
          var old = part.id && document.getElementById(part.id);
          if (old) old.replaceWith(part.cloneNode(true));
        });
        var updated = [];
        Array.prototype.forEach.call(main.querySelectorAll(".game[id]"), function (game) {
          var now = fresh.querySelector("#" + game.id);
          if (!now || now.innerHTML === game.innerHTML) return;
          if (untouched(game)) {
            game.replaceWith(now.cloneNode(true));
            var row = now.closest(".result-row");
            if (row && updated.indexOf(row.id) < 0) updated.push(row.id);
          } else {
            clash = true;
          }
        });
        var said = document.getElementById("live-updated");
        if (said && updated.length) {
          said.textContent = "Updated from elsewhere at " +
            new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }) + ": " +
            updated.map(function (id) { return "table " + id.replace(/^t/, ""); }).join(", ") + ".";
        }
        shown = Number(fresh.getAttribute("data-revision"));
        main.setAttribute("data-revision", String(shown));
        var note = document.querySelector("#live-notice > p");
        if (note && clash) note.hidden = false;
        if (shown < wanted) setTimeout(patch, 300);
      })
      .catch(function () { patching = false; setTimeout(patch, 2000); });
  }
  var patches = main.querySelector("[data-live-part]") !== null;
  new EventSource(url).addEventListener("changed", function (e) {
    // The last revision heard, for whoever watches the page (its tests).
    document.documentElement.setAttribute("data-live-heard", e.data);
    // Revisions only grow: an older one (a watcher that has not yet seen
    // the change this page already shows) is no reason to fetch again.
    var revision = Number(e.data);
    if (revision <= shown) return;
    wanted = revision;
    if (noticeOnly && patches) {
      patch();
    } else if (noticeOnly) {
      var note = document.querySelector("#live-notice > p");
      if (note) note.hidden = false;
    } else {
      refresh();
    }
  });
})();

// Record forms: a text file chosen is read into the moves box (the file
// field stays hidden without JavaScript, where pasting is the way).
(function () {
  "use strict";
  if (!window.FileReader) return;
  var inputs = document.querySelectorAll("input[type=file][data-fill]");
  Array.prototype.forEach.call(inputs, function (input) {
    var box = document.getElementById(input.getAttribute("data-fill"));
    if (!box) return;
    input.hidden = false;
    var label = document.querySelector("label[for='" + input.id + "']");
    if (label) label.hidden = false;
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      if (!file) return;
      var reader = new FileReader();
      reader.onload = function () { box.value = reader.result; };
      reader.readAsText(file, "utf-8");
    });
  });
})();

// The board replay: the left and right arrow keys follow the previous
// and next links (outside text fields).
(function () {
  "use strict";
  var nav = document.querySelector("[data-replay]");
  if (!nav) return;
  document.addEventListener("keydown", function (e) {
    var t = e.target && e.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT" || e.altKey || e.ctrlKey || e.metaKey) return;
    var rel = e.key === "ArrowLeft" ? "prev" : e.key === "ArrowRight" ? "next" : null;
    var link = rel && nav.querySelector("a[rel=" + rel + "]");
    if (link) { e.preventDefault(); location.href = link.href; }
  });
})();

// The tournament form: choosing a system fills in its usual rounds (empty
// where the field decides them) and bye value, unless the organiser has
// typed rounds of their own; the cycles choice shows for round robins only.
(function () {
  "use strict";
  var system = document.querySelector("select[data-fills-defaults]");
  if (!system) return;
  var rounds = document.getElementById("rounds");
  var bye = document.getElementById("bye_value");
  var cycles = document.getElementById("cycles-field");
  function chosen() { return system.options[system.selectedIndex]; }
  var previous = chosen();
  function fill(initial) {
    var option = chosen();
    if (rounds && !initial && rounds.value === previous.getAttribute("data-rounds")) {
      rounds.value = option.getAttribute("data-rounds");
    }
    if (bye && (!initial || bye.value === "")) bye.value = option.getAttribute("data-bye");
    if (cycles) cycles.hidden = option.getAttribute("data-cycles") !== "yes";
    previous = option;
  }
  system.addEventListener("change", function () { fill(false); });
  fill(true);
})();

// Adding a player: the person field suggests people of the registry as the
// referee types (the exact federation id first, then by name and club).
(function () {
  "use strict";
  var field = document.querySelector("input[data-suggests-people]");
  var list = field && document.getElementById(field.getAttribute("list"));
  if (!list) return;
  var timer = null;
  var asked = "";
  field.addEventListener("input", function () {
    clearTimeout(timer);
    var q = field.value.trim();
    if (q.length < 2 || q === asked) return;
    timer = setTimeout(function () {
      asked = q;
      fetch("/api/v1/people?q=" + encodeURIComponent(q), { headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : { people: [] }; })
        .then(function (found) {
          if (asked !== q) return;
          list.textContent = "";
          found.people.slice(0, 20).forEach(function (p) {
            var option = document.createElement("option");
            option.value = p.federation_id || String(p.id);
            option.label = p.name + (p.club ? " (" + p.club + ")" : "") + " · " + (p.federation_id || "no federation id") + " · #" + p.id;
            list.appendChild(option);
          });
        })
        .catch(function () {});
    }, 200);
  });
})();

// Round clocks (OGR 8): count down from data-ends-at against the server's
// time (read once from a response's Date header), turning amber five
// minutes and red one minute before the end. Times marked data-utc are
// shown in the reader's zone, on the 24-hour clock as every page shows times. The clock form sends the browser's offset
// from UTC with a bare time of day.
(function () {
  "use strict";
  Array.prototype.forEach.call(document.querySelectorAll("[data-tz-offset]"), function (input) {
    input.value = String(new Date().getTimezoneOffset());
  });
  Array.prototype.forEach.call(document.querySelectorAll("time[data-utc]"), function (t) {
    var at = new Date(t.getAttribute("datetime"));
    if (!isNaN(at)) t.textContent = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  });
  var skew = 0;
  if (window.fetch && document.querySelector("[data-clock]")) {
    fetch("/healthz", { cache: "no-store" }).then(function (r) {
      var date = r.headers.get("Date");
      if (date) skew = new Date(date).getTime() + 500 - Date.now();
    }).catch(function () {});
  }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function words(s) {
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return (h > 0 ? h + ":" + two(m) : String(m)) + ":" + two(sec);
  }
  function tick() {
    var now = Date.now() + skew;
    Array.prototype.forEach.call(document.querySelectorAll("[data-clock]"), function (c) {
      var starts = new Date(c.getAttribute("data-starts-at")).getTime();
      var ends = new Date(c.getAttribute("data-ends-at")).getTime();
      if (isNaN(starts) || isNaN(ends)) return;
      var tone, text;
      if (now < starts) {
        tone = "waiting";
        text = "Play starts in " + words(Math.ceil((starts - now) / 1000));
      } else {
        var left = Math.max(0, Math.ceil((ends - now) / 1000));
        tone = left === 0 ? "over" : left <= 60 ? "red" : left <= 300 ? "amber" : "running";
        text = left === 0 ? "Time is up" : words(left) + " left";
      }
      c.setAttribute("data-tone", tone);
      c.textContent = text;
    });
  }
  if (document.querySelector("[data-clock]")) {
    tick();
    setInterval(tick, 1000);
  }
})();

// The venue display: turns through its panels, follows the event through
// the live stream, and fetches itself again at least every minute, so a
// screen left on all day comes back by itself after the network drops.
(function () {
  "use strict";
  var main = document.querySelector("main[data-display]");
  if (!main || !window.fetch || !window.DOMParser) return;
  var turn = 0;
  var shown = Number(main.getAttribute("data-revision"));
  var offline = 0;
  function panels() { return main.querySelectorAll("[data-panel]"); }
  function rotate() {
    var all = panels();
    if (all.length < 2) return;
    turn = (turn + 1) % all.length;
    Array.prototype.forEach.call(all, function (p, i) { p.hidden = i !== turn; });
  }
  setInterval(rotate, Number(main.getAttribute("data-turn-seconds") || 15) * 1000);
  function mark(down) {
    var note = document.querySelector("[data-offline]");
    if (note) note.hidden = !down;
    document.documentElement.setAttribute("data-online", down ? "no" : "yes");
  }
  function refresh() {
    fetch(location.href, { cache: "no-cache" })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        offline = 0;
        mark(false);
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main[data-display]");
        if (!fresh) return;
        var count = fresh.querySelectorAll("[data-panel]").length;
        if (turn >= count) turn = 0;
        Array.prototype.forEach.call(fresh.querySelectorAll("[data-panel]"), function (p, i) { p.hidden = i !== turn; });
        main.replaceWith(fresh);
        main = fresh;
        shown = Number(fresh.getAttribute("data-revision"));
        document.documentElement.setAttribute("data-display-revision", String(shown));
      })
      .catch(function () {
        offline += 1;
        mark(true);
        setTimeout(refresh, Math.min(30, 2 * offline) * 1000);
      });
  }
  setInterval(refresh, 60 * 1000);
  function listen() {
    if (!window.EventSource) return;
    var stream = new EventSource(main.getAttribute("data-display"));
    stream.addEventListener("changed", function (e) {
      if (Number(e.data) > shown) refresh();
    });
    var broke = false;
    stream.onerror = function () {
      // The browser reconnects by itself; say so, and catch up once back.
      broke = true;
      mark(true);
    };
    stream.onopen = function () {
      if (!broke) return;
      broke = false;
      refresh();
    };
  }
  listen();
})();

// A form that comes back with a problem posts to its own place on the page
// (`action="...#section"`), and the browser, going to that place, skips
// `autofocus` and leaves the focus on the page: the field at fault takes
// it here once the page has loaded and scrolled (which also brings the
// field into view).
(function () {
  "use strict";
  function focus() {
    var first = document.querySelector("main [autofocus]");
    if (first && document.activeElement !== first) first.focus();
  }
  if (document.readyState === "complete") setTimeout(focus, 0);
  else window.addEventListener("load", function () { setTimeout(focus, 0); });
})();
