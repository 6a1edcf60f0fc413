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
  // typing: it says that something changed and offers the fresh page.
  var noticeOnly = main.getAttribute("data-live-mode") === "notice";
  new EventSource(url).addEventListener("changed", function (e) {
    // The last revision heard, for whoever watches the page (its tests).
    document.documentElement.setAttribute("data-live-heard", e.data);
    // Revisions only grow: an older one (a watcher that has not yet seen
    // the change this page already shows) is no reason to fetch again.
    var revision = Number(e.data);
    if (revision <= shown) return;
    wanted = revision;
    if (noticeOnly) {
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
