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
  // The page as the server has it now: not an error page, and not the
  // copy the service worker kept (served while the network is gone).
  function fetched(r) {
    if (!r.ok || r.headers.get("kraal-offline")) throw new Error("not fresh");
    document.dispatchEvent(new CustomEvent("kraal:fresh"));
    return r.text();
  }
  // A write the page sent brought its answer's sections in (below).
  document.addEventListener("kraal:shown", function (e) {
    if (e.detail > shown) shown = e.detail;
    // The change the notice was about is the one now shown.
    var note = document.querySelector("#live-notice > p");
    if (note && shown >= wanted) note.hidden = true;
  });
  function refresh() {
    if (busy) return;
    busy = true;
    fetch(location.href, { credentials: "same-origin", cache: "no-cache" })
      .then(fetched)
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
      .then(fetched)
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
  var stream = new EventSource(url);
  // Whether the page is live, for the connection's line (below).
  stream.addEventListener("open", function () {
    document.dispatchEvent(new CustomEvent("kraal:stream", { detail: "open" }));
  });
  stream.addEventListener("error", function () {
    document.dispatchEvent(new CustomEvent("kraal:stream", { detail: "lost" }));
  });
  // The results desk also follows the round's games recorded at the
  // board: a ply moves no revision, but an irregular one, or records that
  // part, flag the game, so the desk reads its games again (at most once
  // a second).
  var feed = main.getAttribute("data-boards-feed");
  if (feed && noticeOnly && patches) {
    var soon = null;
    new EventSource(feed).addEventListener("ply", function () {
      if (soon) return;
      soon = setTimeout(function () { soon = null; patch(); }, 1000);
    });
  }
  stream.addEventListener("changed", function (e) {
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
      .then(function (r) {
        // An error, or the copy the service worker kept: still offline.
        if (!r.ok || r.headers.get("kraal-offline")) throw new Error(String(r.status));
        return r.text();
      })
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
  // Opened from the phone's or the screen's kept copy: say so, and catch
  // up as soon as the network answers.
  if (document.documentElement.hasAttribute("data-offline-as-of")) {
    mark(true);
    refresh();
  }
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

// The connection, and the writes a phone makes through a dead network.
//
// The service worker (/sw.js) keeps the pages a phone opened; a page it
// serves while the network is gone carries data-offline-as-of, and this
// says "Offline: as of 14:32" with a retry, then reloads the page once the
// network answers. A player's page also says when it is live.
//
// A form marked data-queue (a player's report, their word on the next
// round) is not sent by the browser: its fields go into a queue kept on
// the phone (IndexedDB, in order), each with an Idempotency-Key of its
// own, and the queue is sent now or, offline, when the network returns
// (honouring Retry-After). Whatever the network did, the server does each
// write once. The page says how many wait, then what the server answered,
// in its words: a refusal (a referee's result got there first) ends that
// write's retries like a success does. Without IndexedDB the form posts
// as a plain form.
//
// Another script (the board, static/board.js) queues JSON writes with the
// document event `kraal:queue` ({url, json, what, tag}). They wait in the
// same queue, in the same order, and are answered to that script as
// `kraal:answered` ({tag, status, body, what}), not on the page: a ply
// every few seconds would flood the list, so only a refusal is listed.
// `kraal:queued` ({tags}) tells it which of its writes still wait, each
// time the queue is read. Without IndexedDB they wait in memory, sent as
// surely while the page stays open.
(function () {
  "use strict";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(function () {});
  }
  var net = document.getElementById("net");
  if (!net || !window.fetch || !window.DOMParser) return;
  var root = document.documentElement;
  var said = net.querySelector("[data-net-state]");
  var retry = net.querySelector("[data-net-retry]");
  var writes = net.querySelector("[data-net-writes]");
  var always = net.getAttribute("data-net") === "always";
  var keptAt = root.getAttribute("data-offline-as-of");
  var asOf = keptAt ? new Date(keptAt) : new Date();
  var offline = !!keptAt;
  var live = false;
  var waiting = [];
  function words(name, values) {
    var w = net.getAttribute("data-words-" + name) || "";
    Object.keys(values || {}).forEach(function (k) { w = w.replace("{" + k + "}", values[k]); });
    return w;
  }
  function hhmm(d) {
    return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  }
  function show() {
    // JSON writes (plies) are counted only once they wait (one sent at
    // once would make the line come and go under the player's thumb), and
    // never listed one by one: the board marks each ply that waits.
    var counted = waiting.filter(function (w) { return w.json === undefined || offline || stalled; });
    var parts = [];
    if (offline) parts.push(words("offline", { time: hhmm(asOf) }));
    else if (live && always) parts.push(words("live"));
    if (counted.length) parts.push(words("waiting", { count: counted.length }));
    said.textContent = parts.join(" ");
    retry.hidden = !offline;
    Array.prototype.forEach.call(writes.querySelectorAll("[data-answer=waiting]"), function (li) { li.remove(); });
    waiting.filter(function (w) { return w.json === undefined; }).forEach(function (item) {
      var li = document.createElement("li");
      li.setAttribute("data-answer", "waiting");
      li.textContent = item.what + ": " + words("queued") + ".";
      writes.appendChild(li);
    });
    var state = offline ? "offline" : counted.length ? "waiting" : live ? "live" : "";
    net.setAttribute("data-state", state);
    root.setAttribute("data-connection", state);
    net.hidden = !(parts.length || writes.children.length);
  }

  // Back online: a kept copy is replaced by the page itself; an open page
  // sends what waits.
  var timer = null;
  function later(ms) {
    clearTimeout(timer);
    timer = setTimeout(check, ms || 10000);
  }
  function back() {
    if (keptAt) {
      location.reload();
      return;
    }
    offline = false;
    asOf = new Date();
    show();
    flush();
  }
  function check() {
    fetch("/healthz", { cache: "no-store" })
      .then(function (r) { if (r.ok) back(); else later(); })
      .catch(function () { later(); });
  }
  retry.addEventListener("click", check);
  window.addEventListener("online", check);
  document.addEventListener("kraal:fresh", function () { if (!keptAt) asOf = new Date(); });
  document.addEventListener("kraal:stream", function (e) {
    live = e.detail === "open";
    if (live && offline) {
      back();
    } else if (!live && !offline) {
      offline = true;
      later();
    } else if (live) {
      flush();
    }
    show();
  });

  // The queue of writes, kept on the phone.
  var db = null;
  var memory = null;
  var early = [];
  var link = location.pathname;
  function store(mode, f) {
    return new Promise(function (resolve, reject) {
      var t = db.transaction("outbox", mode);
      var asked = f(t.objectStore("outbox"));
      t.oncomplete = function () { resolve(asked.result); };
      t.onerror = function () { reject(t.error); };
    });
  }
  function queued() {
    var all = memory ? Promise.resolve(memory.slice()) : store("readonly", function (s) { return s.getAll(); });
    return all.then(function (all) {
      return all.filter(function (item) { return item.link === link; });
    });
  }
  function keep(item) {
    if (!memory) return store("readwrite", function (s) { return s.put(item); });
    if (!item.id) { item.id = memory.length ? memory[memory.length - 1].id + 1 : 1; memory.push(item); }
    return Promise.resolve();
  }
  function drop(item) {
    if (!memory) return store("readwrite", function (s) { return s.delete(item.id); });
    memory = memory.filter(function (m) { return m.id !== item.id; });
    return Promise.resolve();
  }
  // The JSON writes still waiting, for the script that queued them.
  function tell() {
    var tags = waiting.filter(function (w) { return w.json !== undefined; }).map(function (w) { return w.tag; });
    document.dispatchEvent(new CustomEvent("kraal:queued", { detail: { tags: tags } }));
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  var sending = false;
  var stalled = false;
  function flush() {
    if ((!db && !memory) || sending) return;
    sending = true;
    stalled = false;
    function done() {
      sending = false;
      queued().then(function (left) {
        waiting = left;
        show();
        tell();
        // A write queued while these were sent goes now.
        if (left.length && !stalled) flush();
      });
    }
    queued().then(function (items) {
      waiting = items;
      show();
      tell();
      return each(items);
    }).then(done, done);
  }
  function each(items) {
    if (!items.length) return null;
    return send(items[0]).then(function (goOn) { return goOn ? each(items.slice(1)) : null; });
  }
  // Sends one write: true when it is answered for good (done or refused),
  // false when it waits for the network or the server.
  function send(item) {
    var json = item.json !== undefined;
    var headers = json
      ? { "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": item.key }
      : { "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": item.key };
    return fetch(item.url, {
      method: "POST",
      body: json ? item.json : item.body,
      credentials: "same-origin",
      cache: "no-store",
      headers: headers,
    }).then(function (r) {
      if (r.status === 429 || r.status >= 500) {
        var pause = Number(r.headers.get("Retry-After"));
        stalled = true;
        later(pause > 0 ? pause * 1000 : 10000);
        return false;
      }
      if (json) {
        return r.text().then(function (text) {
          var body = null;
          try { body = JSON.parse(text); } catch (e) { body = null; }
          return drop(item).then(function () {
            waiting = waiting.filter(function (w) { return w.id !== item.id; });
            replied(item, r.status, body);
            show();
            tell();
            return true;
          });
        });
      }
      return r.text().then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        // The phone's form token has lapsed (a browser that forgot its
        // cookie): take a fresh one from the page and send again, once.
        if (r.status === 403 && !item.renewed && page.querySelector("[data-code=foreign_form]")) {
          return renew(item).then(function () { return send(item); });
        }
        return drop(item).then(function () {
          waiting = waiting.filter(function (w) { return w.id !== item.id; });
          answered(item, r.status, page);
          show();
          return true;
        });
      });
    }, function () {
      offline = true;
      stalled = true;
      show();
      later();
      return false;
    });
  }
  function renew(item) {
    return fetch(location.pathname, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var field = new DOMParser().parseFromString(html, "text/html").querySelector("input[name=csrf]");
        var body = new URLSearchParams(item.body);
        if (field) body.set("csrf", field.value);
        item.body = body.toString();
        item.renewed = true;
        return keep(item);
      });
  }
  // What the server answered, in its words, and the page as it is now.
  function answered(item, status, page) {
    var refused = status >= 400;
    var words = page.querySelector(refused ? "#main [role=alert]" : "#done");
    list(item, status, words ? words.textContent.trim() : String(status));
    var fresh = page.getElementById("main");
    if (!fresh || !fresh.hasAttribute("data-revision")) return;
    Array.prototype.forEach.call(fresh.querySelectorAll("section[id]"), function (section) {
      var old = document.getElementById(section.id);
      if (old) old.replaceWith(document.importNode(section, true));
    });
    document.dispatchEvent(new CustomEvent("kraal:shown", { detail: Number(fresh.getAttribute("data-revision")) }));
  }

  function list(item, status, said) {
    var li = document.createElement("li");
    li.setAttribute("data-answer", status >= 400 ? "refused" : "done");
    li.setAttribute("data-status", String(status));
    li.textContent = item.what + ": " + said;
    writes.insertBefore(li, writes.querySelector("[data-answer=waiting]"));
    while (writes.querySelectorAll("[data-answer=done], [data-answer=refused]").length > 5) {
      writes.removeChild(writes.firstElementChild);
    }
  }
  // A JSON write's answer goes to the script that queued it; the list
  // shows it only when refused.
  function replied(item, status, body) {
    if (status >= 400) list(item, status, (body && body.error) || String(status));
    document.dispatchEvent(new CustomEvent("kraal:answered", {
      detail: { tag: item.tag, status: status, body: body, what: item.what },
    }));
  }
  // No csrf token: these go to the API, which the key in their address
  // authorises.
  document.addEventListener("kraal:queue", function (e) {
    var d = e.detail || {};
    if (!d.url || typeof d.json !== "string") return;
    var item = { link: link, url: d.url, json: d.json, tag: d.tag, key: newKey(), what: d.what || "", at: Date.now() };
    if (db || memory) keep(item).then(flush);
    else early.push(item);
  });
  // The queue is ready (IndexedDB open, or memory without it): the JSON
  // writes queued before go in first, in their order.
  function ready() {
    var before = early;
    early = [];
    before.reduce(function (done, item) {
      return done.then(function () { return keep(item); });
    }, Promise.resolve()).then(flush, flush);
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!db || !form.hasAttribute || !form.hasAttribute("data-queue")) return;
    e.preventDefault();
    var body = new URLSearchParams(new FormData(form));
    var by = e.submitter;
    if (by && by.name) body.append(by.name, by.value);
    var what = form.getAttribute("data-queue") + (by ? ", " + by.textContent.trim() : "");
    keep({ link: link, url: form.action, body: body.toString(), key: newKey(), what: what, at: Date.now() })
      .then(flush);
  });

  show();
  if (offline) later();
  if (!document.querySelector("form[data-queue], [data-record]")) return;
  var inMemory = function () { memory = []; ready(); };
  if (!window.indexedDB) {
    inMemory();
    return;
  }
  var opening;
  try {
    opening = indexedDB.open("kraal", 1);
  } catch (e) {
    inMemory();
    return;
  }
  opening.onupgradeneeded = function () {
    opening.result.createObjectStore("outbox", { keyPath: "id", autoIncrement: true });
  };
  opening.onsuccess = function () {
    db = opening.result;
    ready();
  };
  opening.onerror = inMemory;
})();

// A page with a round's boards in it (the round page) loads the board's
// script only then: the pages without boards keep their weight.
(function () {
  "use strict";
  if (!document.querySelector("[data-boards-url]") || document.querySelector("script[src='/static/board.js']")) return;
  var s = document.createElement("script");
  s.src = "/static/board.js";
  s.defer = true;
  document.head.appendChild(s);
})();
