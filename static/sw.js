// Kraal's service worker: the pages a phone opened stay readable when the
// venue's network is gone.
//
// - Kept: the public pages of an event (tournament, round, standings,
//   crosstable, player, bracket, teams, display), the list of events, and
//   a player's own page (`/player/{key}`) and the board they record a game
//   on (`/player/{key}/games/{gid}/record`, which goes on recording
//   offline), the games' live boards, with the stylesheet, the scripts
//   and the icons they need. Nothing else: not a referee's or an admin's
//   page, not the API, not any response marked `no-store` (every page of a
//   signed-in account is), and not a page answered with a query.
// - Online, a page comes from the network as before (the browser's own
//   cache revalidates it with its ETag) and its copy here is renewed; an
//   answer that is not a page (a revoked link's 404, a page that went
//   private) drops the copy; a server error keeps it.
// - Offline (the network fails, answers 5xx, or is silent for 6 s while a
//   copy is here; with no copy the page waits for the network however
//   slow), the copy is served with the time it was fetched in
//   `data-offline-as-of` on its `<html>` and the `kraal-offline` header;
//   the page's script marks it "Offline: as of 14:32", offers a retry, and
//   reloads it when the network is back.
// - The stylesheet, script and icons are kept per build (VERSION is a
//   digest of them, so a new build's worker replaces them) and served from
//   here first.
// - A player's page is kept until the day its `kraal-kept-until` header
//   names (30 days after the event's last round); a public page 30 days
//   after it was last fetched.
//
// Writes (POST) never pass through here: the page's script queues them
// (static/kraal.js) and sends each with its Idempotency-Key.
"use strict";

var VERSION = "@VERSION@";
var PAGES = "kraal-pages";
var ASSETS = "kraal-assets-" + VERSION;
var ASSET_PATHS = [
  "/static/kraal.css",
  "/static/kraal.js",
  "/static/board.js",
  "/favicon.ico",
  "/static/icons/icon.svg",
];
var KEPT = [
  /^\/$/,
  /^\/t\/\d+(\/(standings|crosstable|bracket|display|teams|rounds\/\d+|players\/\d+|teams\/\d+|games\/\d+\/live))?$/,
  /^\/player\/[^/]+(\/games\/\d+\/record)?$/,
];
var ASSET = /^\/(static\/|favicon\.ico$|manifest\.webmanifest$)/;
var SILENT_MS = 6000;
var PUBLIC_DAYS = 30;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(ASSETS)
      .then(function (cache) {
        // Revalidated: a new build's files, not the last one's, and a 304
        // (not the bytes again) for those the page has just fetched.
        return cache.addAll(ASSET_PATHS.map(function (p) { return new Request(p, { cache: "no-cache" }); }));
      })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (n) {
          return n.indexOf("kraal-assets-") === 0 && n !== ASSETS;
        }).map(function (n) { return caches.delete(n); }));
      })
      .then(sweep)
      .then(function () { return self.clients.claim(); })
      .then(keepOpenPages)
  );
});

// The pages open when the worker starts were fetched before it ran: a
// phone that opened its link once must still find it in a dead spot, so
// they are fetched again now (the browser's cache mostly answers 304).
function keepOpenPages() {
  return self.clients.matchAll({ type: "window" }).then(function (open) {
    return Promise.all(open.map(function (client) {
      var url = new URL(client.url);
      if (url.origin !== self.location.origin || url.search || !kept(url)) return null;
      var key = url.origin + url.pathname;
      return fetch(key, { credentials: "same-origin" }).then(function (response) {
        return storable(response) ? keep(key, response) : forget(key);
      }).catch(function () {});
    }));
  });
}

function kept(url) {
  return KEPT.some(function (p) { return p.test(url.pathname); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (!url.search && kept(url)) {
    event.respondWith(page(event, url));
  } else if (ASSET.test(url.pathname)) {
    event.respondWith(asset(event, url));
  }
});

// A page: the network's answer, its copy renewed (or dropped when the page
// is gone or private now); the copy, marked, when the network fails, is
// silent while a copy is here, or answers with a server error (a proxy's
// 502 while Kraal restarts is no reason to lose the page).
function page(event, url) {
  var key = url.origin + url.pathname;
  var fetched = fetch(event.request).then(function (response) {
    var done = storable(response) ? keep(key, response.clone())
      : response.status < 500 ? forget(key) : Promise.resolve();
    return done.then(function () { return response; }, function () { return response; });
  });
  event.waitUntil(fetched.then(sweepNow, function () {}));
  return new Promise(function (resolve, reject) {
    var settled = false;
    // `failure`: the network's error or a server error's response, given
    // when there is no copy; null while the network may still answer.
    function fallBack(failure) {
      copyOf(key).then(function (copy) {
        if (settled) return;
        if (copy) {
          settled = true;
          resolve(copy);
        } else if (failure instanceof Response) {
          settled = true;
          resolve(failure);
        } else if (failure) {
          settled = true;
          reject(failure);
        }
      });
    }
    var timer = setTimeout(function () { fallBack(null); }, SILENT_MS);
    fetched.then(function (response) {
      clearTimeout(timer);
      if (response.status >= 500) {
        fallBack(response);
      } else if (!settled) {
        settled = true;
        resolve(response);
      }
    }, function (failure) {
      clearTimeout(timer);
      fallBack(failure);
    });
  });
}

function storable(response) {
  var control = response.headers.get("cache-control") || "";
  return response.status === 200 && response.type === "basic" && !response.redirected &&
    control.indexOf("no-store") < 0;
}

// The last day a copy is kept, from its headers.
function keptUntil(copy) {
  var named = copy.headers.get("kraal-kept-until");
  if (named) return new Date(named + "T23:59:59Z").getTime();
  return Number(copy.headers.get("kraal-stored-at")) + PUBLIC_DAYS * 24 * 3600 * 1000;
}

function keep(key, response) {
  return response.blob().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set("kraal-stored-at", String(Date.now()));
    return caches.open(PAGES).then(function (cache) {
      return cache.put(key, new Response(body, { status: 200, headers: headers }));
    });
  });
}

function forget(key) {
  return caches.open(PAGES).then(function (cache) { return cache.delete(key); });
}

// The copy of a page as served offline, marked with when it was fetched;
// `null` when there is none (or its day has passed: then it goes).
function copyOf(key) {
  return caches.open(PAGES).then(function (cache) { return cache.match(key); }).then(function (copy) {
    if (!copy) return null;
    if (Date.now() > keptUntil(copy)) return forget(key).then(function () { return null; });
    var asOf = new Date(Number(copy.headers.get("kraal-stored-at"))).toISOString();
    return copy.text().then(function (html) {
      var headers = new Headers(copy.headers);
      headers.set("kraal-offline", asOf);
      headers.delete("content-length");
      return new Response(html.replace("<html", '<html data-offline-as-of="' + asOf + '"'), {
        status: 200,
        headers: headers,
      });
    });
  });
}

// Drops every copy past its day (at most once an hour while running).
var swept = 0;
function sweepNow() {
  if (Date.now() - swept < 3600 * 1000) return null;
  return sweep();
}

function sweep() {
  swept = Date.now();
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.map(function (request) {
        return cache.match(request).then(function (copy) {
          return copy && Date.now() > keptUntil(copy) ? cache.delete(request) : null;
        });
      }));
    });
  });
}

// The stylesheet, script, manifests and icons: this build's copy if kept,
// else the network's (then kept).
function asset(event, url) {
  var key = url.origin + url.pathname;
  return caches.open(ASSETS).then(function (cache) {
    return cache.match(key).then(function (copy) {
      if (copy) return copy;
      return fetch(event.request).then(function (response) {
        if (storable(response)) event.waitUntil(cache.put(key, response.clone()));
        return response;
      });
    });
  });
}
