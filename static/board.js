// The board at the table. A player's phone records each ply as it is
// played on the physical board (data-mode="record"); spectators follow a
// game as it is recorded (data-mode="watch", one board or many a page).
//
// Recording writes down what was played, never what should have been:
// any empty junction may take a cow and any cow may be moved, and the
// server flags what is irregular (OGR 5.4). The board only helps, by
// marking the legal choices and by asking for the shot when a line forms.
//
// A ply goes out through the page's write queue (kraal.js, `kraal:queue`):
// in a dead spot it waits on the phone and is sent in order when the
// network returns. The plies sent and not yet answered are also kept in
// localStorage, so that the page reopened offline still shows them played.
// The server's record wins: its position replaces the one worked out
// here as each answer comes, and a refusal brings its record back.
(function () {
  "use strict";
  // When the page shown is the copy the service worker kept (NaN if not).
  var copyAt = Date.parse(document.documentElement.getAttribute("data-offline-as-of") || "");
  if (!window.JSON || !window.fetch) return;
  if (!document.querySelector("section[data-record], [data-boards], [data-boards-url]")) return;
  var WORDS = { updated: "Updated {time}", result: "Result: {result}", ply: "Ply {n}", dark: "Dark", light: "Light" };
  function other(side) { return side === "dark" ? "light" : "dark"; }
  function each(list, f) { Array.prototype.forEach.call(list, f); }
  function parse(text) { try { return JSON.parse(text); } catch (e) { return null; } }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text != null) e.textContent = text;
    return e;
  }
  function store(key, value) {
    try {
      if (value === undefined) return parse(localStorage.getItem(key));
      if (value && value.length !== 0) localStorage.setItem(key, JSON.stringify(value));
      else localStorage.removeItem(key);
    } catch (e) { /* no storage: the outbox still holds the plies */ }
    return null;
  }

  // A position: who stands where, the cows in hand, the side to move.
  function positionOf(p) {
    var m = { at: {}, hand: { dark: 12, light: 12 }, turn: "dark" };
    if (!p) return m;
    m.hand = { dark: p.dark_in_hand, light: p.light_in_hand };
    m.turn = p.to_move;
    ["dark", "light"].forEach(function (side) {
      (p[side] || []).forEach(function (c) { m.at[c.junction] = { side: side, cow: c.cow }; });
    });
    return m;
  }
  // A ply applied as written (p.side moved; a cow moved keeps its side).
  function play(m, p) {
    var n = { at: {}, hand: { dark: m.hand.dark, light: m.hand.light }, turn: other(p.side) };
    Object.keys(m.at).forEach(function (j) { n.at[j] = m.at[j]; });
    var c = p.from ? n.at[p.from] : null;
    if (p.from) delete n.at[p.from];
    else if (n.hand[p.side] > 0) n.hand[p.side] -= 1;
    n.at[p.to] = c || { side: p.side, cow: p.cow };
    if (p.shot) delete n.at[p.shot.j];
    return n;
  }
  function nextCow(m) { return m.turn === "dark" ? 13 - m.hand.dark : 25 - m.hand.light; }
  // The official notation: `C5-1`, `A1,3-A4`, with ` x F2,15` for a shot.
  function notation(p) {
    var s = !p.from ? p.to + "-" + p.cow : p.from + "," + p.cow + "-" + (p.to || "");
    return p.shot ? s + " x " + p.shot.j + "," + p.shot.cow : s;
  }
  // The junctions a written ply names (in any style): from, to, shot.
  function marks(move) {
    var halves = String(move || "").toUpperCase().split("X");
    var js = halves[0].match(/[A-G][1-7]/g) || [];
    var shot = halves[1] && halves[1].match(/[A-G][1-7]/);
    return { from: js.length > 1 ? js[0] : null, to: js[js.length - 1], shot: shot && { j: shot[0] } };
  }

  function Board(section) {
    function attr(name) { return section.getAttribute("data-" + name); }
    function words(name, values) {
      var w = attr("words-" + name) || WORDS[name] || "";
      Object.keys(values || {}).forEach(function (k) { w = w.split("{" + k + "}").join(values[k]); });
      return w;
    }
    function q(sel) { return section.querySelector(sel); }
    function say(sel, text) {
      var e = q(sel);
      if (e) { e.textContent = text; e.hidden = !text; }
      return e;
    }
    var game = attr("game");
    var mode = attr("mode") === "record" && attr("plies-url") ? "record" : "watch";
    var script = q("script[data-state]");
    var state = (script && parse(script.textContent)) || {};
    state.plies = state.plies || [];
    var lines = state.lines || [];
    var near = {};
    lines.forEach(function (l) {
      l.forEach(function (j, i) {
        near[j] = (near[j] || []).concat(l.filter(function (x, k) { return k === i - 1 || k === i + 1; }));
      });
    });
    var spots = {};
    each(section.querySelectorAll("g.j[data-j]"), function (g) { spots[g.getAttribute("data-j")] = g; });
    var kept = "kraal-board-" + game + "-" + attr("me");
    var waiting = (mode === "record" && store(kept)) || [];
    // A kept copy of the page holds the record as it was then: the record
    // last heard from the server, if newer, is the one to go on from.
    var known = mode === "record" && store(kept + "-record");
    if (known && known.at > copyAt && known.state) state = known.state;
    function remember() {
      if (mode === "record") store(kept + "-record", { at: Date.now(), state: state });
    }
    var pending = null;
    var ruled = {};
    var note = "";
    var missed = false;
    var shown;

    // The server's record, then the plies of ours it has not answered.
    function view() {
      var plies = state.plies.slice();
      var m = positionOf(state.position);
      waiting.forEach(function (w) {
        if (w.ply !== plies.length + 1) return;
        m = play(m, w);
        plies.push({ ply: w.ply, move: w.move, status: "waiting", triplet: w.triplet, mine: w });
      });
      return { plies: plies, m: m };
    }
    function over() { return !!(state.ended || state.result); }
    function lineAt(m, j) {
      var c = m.at[j];
      return c ? lines.filter(function (l) {
        return l.indexOf(j) >= 0 && l.every(function (x) { return m.at[x] && m.at[x].side === c.side; });
      })[0] : null;
    }
    function stage() {
      if (!pending) return "start";
      if (!pending.to) return "to";
      return pending.line && !pending.shot && !pending.noShot ? "shoot" : "ready";
    }
    // Where a cow may step, or fly (three cows left and none in hand).
    function destinations(m, from) {
      var side = m.at[from].side;
      var flying = !m.hand[side] && Object.keys(m.at).filter(function (j) { return m.at[j].side === side; }).length === 3;
      return Object.keys(spots).filter(function (j) { return !m.at[j] && (flying || (near[from] || []).indexOf(j) >= 0); });
    }
    // The position the pending ply leads to, before its shot.
    function afterPending(m) {
      return pending && pending.to ? play(m, { side: pending.side, from: pending.from, to: pending.to, cow: pending.cow }) : m;
    }

    function tap(j) {
      if (mode !== "record" || over()) return;
      var m = shown.m;
      var c = m.at[j];
      var s = stage();
      if (s === "start" && m.hand[m.turn] > 0) {
        if (c) return;
        pending = { side: m.turn, cow: nextCow(m), to: j };
      } else if (s === "start" || (s === "to" && c && j !== pending.from)) {
        if (!c) return;
        pending = { side: m.turn, from: j, cow: c.cow };
      } else if (s === "to") {
        if (c) pending = null; else pending.to = j;
      } else {
        var target = afterPending(m).at[j];
        if (!target || target.side === pending.side) return;
        pending.shot = { j: j, cow: target.cow };
        pending.noShot = false;
      }
      if (pending && pending.to && s !== "shoot" && s !== "ready") pending.line = !!lineAt(afterPending(m), pending.to);
      render();
    }
    function undo() {
      if (!pending) return;
      if (pending.shot) delete pending.shot;
      else if (pending.noShot) pending.noShot = false;
      else if (pending.to && pending.from) { delete pending.to; pending.line = false; }
      else pending = null;
      render();
    }
    function queue(tag, url, body, what) {
      document.dispatchEvent(new CustomEvent("kraal:queue", {
        detail: { url: url, json: JSON.stringify(body), what: what, tag: tag },
      }));
    }
    function sendPly(w) {
      queue("ply:" + w.ply, attr("plies-url"), { ply: w.ply, move: w.move }, words("ply", { n: w.ply }));
    }
    function record() {
      if (stage() !== "ready" || over()) return;
      var after = afterPending(shown.m);
      var line = pending.shot && lineAt(after, pending.to);
      var w = {
        ply: shown.plies.length + 1, move: notation(pending), side: pending.side, from: pending.from,
        to: pending.to, cow: pending.cow, shot: pending.shot || null, at: Date.now(),
        triplet: line ? line.map(function (x) { return x + "," + after.at[x].cow; }).join("-") : null,
      };
      waiting.push(w);
      store(kept, waiting);
      pending = null;
      sendPly(w);
      render();
    }
    function rule(n, how) {
      ruled[n] = true;
      queue("rule:" + n, attr("rule-url").replace("{n}", n) + how, {}, words("ply", { n: n }) + ": " + words(how));
      render();
    }

    // The record fetched again (record: the player's, with the flags;
    // watch: the game's). Plies of ours it holds no longer wait here,
    // though their answers may still come.
    var fetching = false;
    var again = false;
    function reload() {
      var url = attr(mode === "record" ? "state-url" : "live-url");
      if (!url) return;
      if (fetching) { again = true; return; }
      fetching = true;
      fetch(url, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
        .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
        .then(function (s) {
          fetching = false;
          if (again) { again = false; reload(); }
          s.lines = lines;
          waiting = waiting.filter(function (w) { return w.ply > s.plies.length; });
          if (mode === "record") store(kept, waiting);
          state = s;
          remember();
          render(true);
        }, function () { fetching = false; again = false; });
    }
    var soon = null;
    function reloadSoon() {
      clearTimeout(soon);
      soon = setTimeout(reload, 200);
    }
    // A ply told by the stream. Record: the opponent may have flagged or
    // ruled, or the records differ, so the record is fetched (after our
    // own plies are answered). Watch: the next ply is simply added.
    function heard(d) {
      if (mode === "record") {
        if (waiting.length) missed = true; else reloadSoon();
        return;
      }
      var plies = state.plies;
      var last = plies[plies.length - 1];
      if (d.ply !== plies.length + 1 && !(d.ply === plies.length && last && last.move === d.move)) return reload();
      if (d.ply > plies.length) plies.push({ ply: d.ply, move: d.move, status: d.status, article: d.article, triplet: d.triplet });
      if (d.position) state.position = d.position;
      ["ended", "differ_at", "result"].forEach(function (k) { if (k in d) state[k] = d[k]; });
      render(true);
    }
    function answered(d) {
      var tag = String(d.tag).split(":");
      var n = Number(tag[1]);
      var b = d.body || {};
      note = d.status >= 400 ? b.error || String(d.status) : "";
      if (tag[0] === "rule") {
        delete ruled[n];
        return reload();
      }
      var w = waiting.filter(function (x) { return x.ply === n; })[0];
      waiting = waiting.filter(function (x) { return x.ply !== n; });
      store(kept, waiting);
      if (d.status >= 400 || !w || state.plies.length < n - 1) return reload();
      if (state.plies.length === n - 1) {
        state.plies.push({ ply: n, move: w.move, status: b.status, article: b.article, triplet: w.triplet });
        if (b.position) state.position = b.position;
        state.ended = b.ended || null;
        remember();
      }
      if (!waiting.length && missed) { missed = false; reloadSoon(); }
      render();
    }
    // The writes the queue still holds: a ply kept here that the queue
    // lost (a database cleared) is queued again; the server takes the
    // same ply twice as once.
    function queued(tags) {
      waiting.forEach(function (w) {
        if (tags.indexOf("ply:" + w.ply) >= 0 || w.again || Date.now() - w.at < 5000) return;
        w.again = true;
        sendPly(w);
      });
    }

    function render(fresh) {
      shown = view();
      var m = shown.m;
      var locked = mode !== "record" || over();
      if (locked) pending = null;
      var s = stage();
      var board = afterPending(m);
      var last = shown.plies[shown.plies.length - 1];
      var lastMarks = !last || pending ? {} : last.mine || marks(last.move);
      var legal = !locked && s === "to" ? destinations(m, pending.from) : [];
      var moving = !locked && s === "start" && !m.hand[m.turn];
      if (mode !== "record") {
        var on = { dark: [], light: [] };
        Object.keys(board.at).sort().forEach(function (j) { on[board.at[j].side].push(j + "," + board.at[j].cow); });
        q("svg.board").setAttribute("aria-label",
          "Dark: " + (on.dark.join(" ") || "none on the board") + "; light: " + (on.light.join(" ") || "none on the board") +
          "; in hand dark " + board.hand.dark + ", light " + board.hand.light + "; " + board.turn + " to play");
      }
      Object.keys(spots).forEach(function (j) {
        var g = spots[j];
        var c = board.at[j];
        if (c) g.setAttribute("data-owner", c.side); else g.removeAttribute("data-owner");
        g.querySelector("text.n").textContent = c ? String(c.cow) : "";
        // A watched board is one picture (its svg says the position); a
        // phone's junctions are buttons, each saying what stands on it.
        if (mode === "record") {
          g.setAttribute("aria-label", j + (c ? ": " + words(c.side) + " " + c.cow : ""));
          if (locked) g.removeAttribute("tabindex"); else g.setAttribute("tabindex", "0");
        }
        g.setAttribute("class", ["j",
          legal.indexOf(j) >= 0 && "legal",
          moving && c && c.side === m.turn && "movable",
          pending && (j === pending.from || j === pending.to) && "picked",
          s === "shoot" && c && c.side !== pending.side && "target",
          pending && pending.shot && pending.shot.j === j && "shot",
          j === lastMarks.to && "last",
          j === lastMarks.from && "last-from",
          lastMarks.shot && lastMarks.shot.j === j && "last-shot"].filter(Boolean).join(" "));
      });
      say("[data-hand=dark]", String(m.hand.dark));
      say("[data-hand=light]", String(m.hand.light));
      say("[data-turn]", over() ? "" : words("to-play", { side: words(m.turn) }));
      section.setAttribute("data-plies", String(shown.plies.length));
      section.setAttribute("data-waiting", String(waiting.length));
      if (over()) section.setAttribute("data-over", ""); else section.removeAttribute("data-over");

      var bar = q("[data-pending]");
      if (bar) {
        bar.textContent = locked ? "" : s === "to" ? words("to", { cow: pending.cow })
          : s === "shoot" ? words("shoot")
          : s === "ready" ? words("ready", { n: shown.plies.length + 1, move: notation(pending) })
          : m.hand[m.turn] > 0 ? words("place", { cow: nextCow(m) }) : words("move");
        if (pending && s !== "ready") bar.appendChild(el("code", {}, notation(pending) + (s === "shoot" ? " x" : "")));
        bar.setAttribute("data-stage", locked ? "over" : s);
      }
      var send = q("[data-send]");
      if (send) {
        send.disabled = locked || s !== "ready";
        send.parentNode.hidden = over();
      }
      if (q("[data-no-shot]")) q("[data-no-shot]").hidden = s !== "shoot";
      if (q("[data-undo]")) q("[data-undo]").disabled = !pending;

      var flags = mode === "record" && q("[data-flags]");
      if (flags) {
        flags.textContent = "";
        if (note) flags.appendChild(el("p", { "class": "flag-note", role: "alert" }, note));
        (state.flags || []).forEach(function (f) {
          var box = el("div", { "class": "flag-item", "data-flag": f.ply });
          var played = state.plies.filter(function (x) { return x.ply === f.ply; })[0];
          box.appendChild(el("p", {}, "⚠ " + f.ply + ". " + (played ? played.move + " " : "") + "(" + words(f.side) + ") " +
            words("irregular", { article: f.article }) + (f.words ? ": " + f.words : "")));
          var row = box.appendChild(el("p", { "class": "choices" }));
          ["rectify", "stand"].forEach(function (how) {
            var b = row.appendChild(el("button", { type: "button", "class": how === "stand" ? "secondary" : "" }, words(how)));
            b.setAttribute("data-" + how, f.ply);
            b.disabled = !!ruled[f.ply];
            b.addEventListener("click", function () { rule(f.ply, how); });
          });
          if (ruled[f.ply]) box.appendChild(el("p", { "class": "help" }, words("waiting")));
          flags.appendChild(box);
        });
      }
      say("[data-differ]", state.differ_at ? words("differ", { n: state.differ_at }) : "");
      var end = state.ended;
      say("[data-ended]", end ? words("ended", { result: end.result, article: end.article || "" })
        : state.result ? words("result", { result: state.result }) : "");
      // The board's end, offered to report (the page's report form; the
      // starter plays dark, and results are from the starter's side).
      var report = mode === "record" && document.querySelector("button[data-board-result]");
      if (report && end && !state.result) {
        var mine = end.result === "1/2-1/2" ? "draw" : (end.result === "1-0") === (attr("me") === "dark") ? "win" : "loss";
        report.value = end.result;
        report.textContent = report.getAttribute("data-words-" + mine) || end.result;
        report.hidden = false;
      } else if (report) {
        report.hidden = true;
      }

      var list = q("[data-moves]");
      if (list) {
        list.textContent = "";
        shown.plies.forEach(function (p) {
          var li = el("li", { "data-ply": p.ply, "data-status": p.status || "accepted", value: p.ply });
          if (p.status === "irregular") li.className = "irregular";
          li.appendChild(el("span", { "class": "mv" }, p.move));
          li.appendChild(document.createTextNode(" "));
          li.appendChild(el("span", { "class": "trip" }, p.triplet || ""));
          li.appendChild(document.createTextNode(" "));
          var art = li.appendChild(el("span", { "class": "art" },
            p.status === "waiting" ? words("waiting") : p.status === "irregular" ? "⚠ " + (p.article || "") : ""));
          if (p.words) art.title = p.words;
          list.appendChild(li);
        });
        list.scrollTop = list.scrollHeight;
      }
      var stamp = q("[data-updated]") || section.appendChild(el("p", { "class": "updated", "data-updated": "" }));
      if (fresh || !stamp.textContent) {
        stamp.textContent = words("updated", {
          time: new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }),
        });
      }
    }

    if (mode === "record") {
      if (isNaN(copyAt)) remember();
      waiting = waiting.filter(function (w) { return w.ply > state.plies.length; });
      store(kept, waiting);
      Object.keys(spots).forEach(function (j) {
        spots[j].addEventListener("click", function () { tap(j); });
        spots[j].addEventListener("keydown", function (e) {
          if (e.key !== "Enter" && e.key !== " ") return;
          e.preventDefault();
          tap(j);
        });
      });
      var on = function (sel, f) { if (q(sel)) q(sel).addEventListener("click", f); };
      on("[data-undo]", undo);
      on("[data-send]", record);
      on("[data-no-shot]", function () {
        if (stage() === "shoot") { pending.noShot = true; render(); }
      });
    }
    render(true);
    var boards = section.closest("[data-boards]");
    return {
      game: game,
      mode: mode,
      events: attr("events-url") || (boards && boards.getAttribute("data-round-events-url")),
      heard: heard,
      caughtUp: function () { if (mode === "watch") reload(); else heard({}); },
      answered: answered,
      queued: queued,
    };
  }

  // The boards on the page now: a live page swaps its main part, and the
  // boards in it with their fresh records, so new ones are taken up here.
  var streams = {};
  function boards() {
    var all = [];
    each(document.querySelectorAll("section[data-record]"), function (s) {
      if (!s.kraalBoard) s.kraalBoard = Board(s);
      all.push(s.kraalBoard);
    });
    return all;
  }
  // One stream per address, however many boards it feeds.
  function listen() {
    var wanted = {};
    boards().forEach(function (b) { if (b.events && window.EventSource) wanted[b.events] = true; });
    // A round's boards follow its feed even before a game is recorded.
    each(document.querySelectorAll("[data-boards][data-round-events-url]"), function (c) {
      if (window.EventSource) wanted[c.getAttribute("data-round-events-url")] = true;
    });
    Object.keys(streams).forEach(function (url) {
      if (!wanted[url]) { streams[url].close(); delete streams[url]; }
    });
    Object.keys(wanted).forEach(function (url) {
      if (streams[url]) return;
      var es = streams[url] = new EventSource(url);
      var broke = false;
      es.addEventListener("ply", function (e) {
        var d = parse(e.data);
        if (!d) return;
        var found = false;
        boards().forEach(function (b) {
          if (b.events === url && (d.game == null || String(d.game) === b.game)) {
            b.heard(d);
            found = true;
          }
        });
        // A game of the round recorded for the first time: the round's
        // boards are read again, with it.
        if (!found && d.game != null) {
          each(document.querySelectorAll("[data-boards][data-round-events-url]"), function (c) {
            if (c.getAttribute("data-round-events-url") === url) refill(c);
          });
        }
      });
      es.addEventListener("error", function () { broke = true; });
      // Back after a break: what was said meanwhile is fetched.
      es.addEventListener("open", function () {
        if (broke) boards().forEach(function (b) { if (b.events === url) b.caughtUp(); });
        broke = false;
      });
    });
  }
  // The round's boards, read from their page (`/t/{id}/rounds/{n}/boards`)
  // into a container: a round page's placeholder (`data-boards-url`), or
  // the boards page itself when a new game starts being recorded. At most
  // once every two seconds per container.
  function refill(container) {
    var url = container.getAttribute("data-boards-source") || location.pathname;
    var now = Date.now();
    if (container.kraalFilled && now - container.kraalFilled < 2000) return;
    container.kraalFilled = now;
    fetch(url, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-boards]");
        if (!fresh) return;
        var target = container.hasAttribute("data-boards") ? container : null;
        if (!target) {
          fresh.setAttribute("data-boards-source", url);
          container.appendChild(document.importNode(fresh, true));
          return;
        }
        while (target.firstChild) target.removeChild(target.firstChild);
        each(fresh.childNodes, function (n) { target.appendChild(document.importNode(n, true)); });
        rotate(target);
      })
      .catch(function () {});
  }
  each(document.querySelectorAll("[data-boards-url]"), function (slot) {
    slot.setAttribute("data-boards-source", slot.getAttribute("data-boards-url"));
    refill(slot);
  });

  // The display's boards screen: `data-rotate` boards at a time (a 1920 by
  // 1080 screen holds sixteen), the next ones every twenty seconds.
  function rotate(container) {
    var at = Number(container.getAttribute("data-rotate"));
    if (!at) return;
    var all = container.querySelectorAll(".small-board");
    var pages = Math.max(1, Math.ceil(all.length / at));
    var turn = (container.kraalTurn || 0) % pages;
    each(all, function (b, i) { b.hidden = Math.floor(i / at) !== turn; });
    container.setAttribute("data-turn", String(turn + 1) + "/" + String(pages));
  }
  each(document.querySelectorAll("[data-boards][data-rotate]"), function (c) {
    rotate(c);
    setInterval(function () { c.kraalTurn = (c.kraalTurn || 0) + 1; rotate(c); }, 20000);
  });

  listen();
  if (window.MutationObserver) {
    new MutationObserver(function () {
      var fresh = false;
      each(document.querySelectorAll("section[data-record]"), function (s) { fresh = fresh || !s.kraalBoard; });
      each(document.querySelectorAll("[data-boards][data-round-events-url]"), function (c) {
        fresh = fresh || !streams[c.getAttribute("data-round-events-url")];
      });
      if (fresh) listen();
    }).observe(document.body, { childList: true, subtree: true });
  }
  function records(f) { boards().forEach(function (b) { if (b.mode === "record") f(b); }); }
  document.addEventListener("kraal:answered", function (e) {
    records(function (b) { b.answered(e.detail || {}); });
  });
  document.addEventListener("kraal:queued", function (e) {
    records(function (b) { b.queued((e.detail && e.detail.tags) || []); });
  });
})();
