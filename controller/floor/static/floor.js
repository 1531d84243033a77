// The floor page: one EventSource; each `table` event is one table's summary (cents; shown
// in dollars). No reload: rows are found by id and rewritten in place.
"use strict";
function dollars(c) {
  if (c === null || c === undefined) return "-";
  var s = c < 0 ? "-" : ""; c = Math.abs(c);
  return s + "$" + Math.floor(c / 100).toLocaleString("en-US") + "." + String(c % 100).padStart(2, "0");
}
function text(el, t) { el.textContent = t === null || t === undefined ? "-" : String(t); return el; }
function cell(tr, t, cls) { var td = document.createElement("td"); text(td, t); if (cls) td.className = cls; tr.appendChild(td); return td; }
function sum(wagers, k) { var n = 0; for (var w in wagers || {}) n += wagers[w][k] || 0; return n; }
function progressivesDown(t) {
  // the linked progressives the table itself sees down (its own status): its wagers refused
  var pl = (t.live && t.live.progressive_links) || {}, out = [];
  Object.keys(pl).sort().forEach(function (k) { if (!(pl[k].up && pl[k].synced)) out.push(k); });
  return out;
}
function linkText(t) {
  if (!t.link || !t.link.reachable) return "UNREACHABLE";
  var tl = t.link.table_link || {};
  var down = progressivesDown(t);
  return "up" + (tl.rows_waiting ? " (" + tl.rows_waiting + " rows waiting)" : "") +
    (down.length ? "; progressive " + down.join(", ") + " DOWN at the table" : "");
}
function floorLinkClass(t) {
  if (!t.link || !t.link.reachable) return "bad";
  return (t.link.table_link || {}).rows_waiting ? "warn" : "ok";   // a backlog is not green
}
function linkClass(t) {
  return progressivesDown(t).length ? "bad" : floorLinkClass(t);
}
function openLockout(t) {
  var los = t.lockouts || [];
  var lo = los.length ? los[los.length - 1] : null;
  if (t.live && t.live.lockout) return t.live.lockout.reason;
  if (t.state === "locked_out" && lo && !lo.cleared) return lo.reason;
  return "";
}
function faults(t) {
  var out = [];
  for (var d in t.devices || {}) if (!t.devices[d].ok) out.push(d + ": " + t.devices[d].reason);
  var dev = t.live && t.live.lockout && t.live.lockout.device;
  if (dev && !(t.devices && t.devices[dev] && !t.devices[dev].ok)) out.push(dev + " fault");
  return out.join("; ");
}
function floorRow(t) {
  var id = "t-" + t.table, tr = document.getElementById(id);
  var tbody = document.querySelector("#tables tbody");
  var fresh = document.createElement("tr"); fresh.id = id;
  var a = document.createElement("a"); a.href = "/table/" + encodeURIComponent(t.table); a.textContent = t.table;
  var td = document.createElement("td"); td.appendChild(a); fresh.appendChild(td);
  var m = t.meters || {};
  cell(fresh, t.game ? title(t.game) : "-"); cell(fresh, t.state, "state"); cell(fresh, t.round_no);
  cell(fresh, openLockout(t), "lockout bad"); cell(fresh, faults(t), "faults bad");
  if (t.room) { cell(fresh, "pots " + dollars(t.room.pots), "money"); cell(fresh, "rake " + dollars(t.room.rake), "money"); }
  else { cell(fresh, dollars(sum(t.wagers, "handle")), "money"); cell(fresh, dollars(sum(t.wagers, "paid")), "money"); }
  cell(fresh, (m.rounds || 0) + " / " + (m.voids || 0));
  cell(fresh, linkText(t), "link " + linkClass(t));
  cell(fresh, t.integrity && !t.integrity.ok ? "FLAGGED row " + t.integrity.problems[t.integrity.problems.length - 1].seq : "ok",
       t.integrity && !t.integrity.ok ? "bad" : "ok");
  fresh.className = (!t.link || !t.link.reachable) ? "unreachable" : (openLockout(t) ? "locked" : "");
  if (tr) tbody.replaceChild(fresh, tr); else {
    var rows = Array.prototype.slice.call(tbody.children), before = null;
    for (var i = 0; i < rows.length; i++) if (rows[i].id > id) { before = rows[i]; break; }
    tbody.insertBefore(fresh, before);
  }
}
function fill(sel, rows) {
  var tbody = document.querySelector(sel + " tbody"); tbody.innerHTML = "";
  rows.forEach(function (r) { var tr = document.createElement("tr"); r.forEach(function (c) { cell(tr, c); }); tbody.appendChild(tr); });
}
// ---- time and names as people read them --------------------------------------------
function pad(n) { return String(n).padStart(2, "0"); }
function localTime(wallNs, offsetS) {
  // the casino's local time (the table's own UTC offset), ISO 8601 with the offset
  if (wallNs === null || wallNs === undefined) return "-";
  if (offsetS === null || offsetS === undefined) offsetS = -new Date(wallNs / 1e6).getTimezoneOffset() * 60;
  var d = new Date(wallNs / 1e6 + offsetS * 1000), o = Math.abs(offsetS);
  return d.getUTCFullYear() + "-" + pad(d.getUTCMonth() + 1) + "-" + pad(d.getUTCDate()) + " " +
    pad(d.getUTCHours()) + ":" + pad(d.getUTCMinutes()) + ":" + pad(d.getUTCSeconds()) +
    (offsetS < 0 ? "-" : "+") + pad(Math.floor(o / 3600)) + ":" + pad(Math.floor(o % 3600 / 60));
}
function tableTime(t, tsNs) {
  // a journal row's table time -> local time, by the table's clock record (fold.py)
  var c = t.clock;
  if (!c || tsNs === null || tsNs === undefined) return "-";
  return localTime(c.wall_ns + tsNs - c.table_ns, c.utc_offset_s);
}
function words(name) { return String(name).replace(/[_-]/g, " "); }
function title(name) { return words(name).replace(/\b[a-z]/g, function (c) { return c.toUpperCase(); }); }
function meterLabel(k) {
  var m = /^progressive\.(.+)\.(value|hits|paid|contributed)$/.exec(k);
  if (!m) return { rounds: "Rounds played", voids: "Rounds voided" }[k] || words(k);
  var what = { value: "meter now", hits: "hits", paid: "paid", contributed: "contributed" }[m[2]];
  return "Progressive" + (m[1] === "progressive" ? "" : " " + words(m[1])) + ": " + what;
}
function ago(s) {
  if (s === null || s === undefined) return "";
  return s < 60 ? s + " s" : s < 3600 ? Math.floor(s / 60) + " min" : Math.floor(s / 3600) + " h " + Math.floor(s % 3600 / 60) + " min";
}
function defs(id, pairs) {
  var dl = document.getElementById(id); dl.innerHTML = "";
  pairs.forEach(function (kv) { var dt = document.createElement("dt"); text(dt, kv[0]); var dd = document.createElement("dd"); text(dd, kv[1]);
    dd.id = id + "-" + kv[0].replace(/[^a-z]+/gi, "-").toLowerCase(); if (kv[2]) dd.className = kv[2]; dl.appendChild(dt); dl.appendChild(dd); });
}
function tablePage(t) {
  text(document.getElementById("title"), "Table " + t.table + ": " + (t.game ? title(t.game) : "game not yet known"));
  var tl = (t.link && t.link.table_link) || {};
  var off = t.clock ? t.clock.utc_offset_s : null;
  defs("now", [["state", words(t.state || "-")], ["round", t.round_no], ["lock-out", openLockout(t) || "none", openLockout(t) ? "bad" : ""],
   ["floor link", !t.link || !t.link.reachable ? "UNREACHABLE" : (tl.state ? "the table's link is " + tl.state : "up") +
      (tl.rows_waiting ? ", " + tl.rows_waiting + " rows waiting to be sent" : ", nothing waiting"), floorLinkClass(t)],
   ["last heard", t.link && t.link.last_heard ? localTime(t.link.last_heard * 1e9, off) : "never"],
   ["journal head", t.head ? "row " + t.head.seq + " (" + t.head.hash.slice(0, 16) + "…)" : "-"],
   ["chain", t.integrity && !t.integrity.ok ? "FLAGGED: " + t.integrity.problems.map(function (p) { return "row " + p.seq + ": " + p.reason; }).join("; ") : "continuous",
    t.integrity && !t.integrity.ok ? "bad" : "ok"]]);
  var ul = document.getElementById("devices"); ul.innerHTML = "";
  var rep = t.reported || {}, stale = !(t.link && t.link.reachable) ? " (as last reported)" : "";
  var live = rep.devices || {}, devs = t.devices || {}, names = {};
  Object.keys(live).concat(Object.keys(devs)).forEach(function (d) { names[d] = 1; });
  Object.keys(names).sort().forEach(function (d) {
    var fault = devs[d] && !devs[d].ok, st = fault ? "FAULT: " + devs[d].reason + (devs[d].section ? " (" + devs[d].section + ")" : "") : (live[d] || "ok");
    var li = document.createElement("li"); text(li, words(d) + ": " + st + stale);
    li.className = fault || /fault|absent|stopped/.test(st) ? "bad" : (/ready|ok/.test(st) ? "ok" : "warn"); ul.appendChild(li); });
  if (!Object.keys(names).length) text(ul, t.link && t.link.reachable ? "the table reports no device" : "the table is not reporting (unreachable)");
  var pl = rep.progressive_links || {}, pul = document.getElementById("progressives"); pul.innerHTML = "";
  Object.keys(pl).sort().forEach(function (k) { var li = document.createElement("li"); var up = pl[k].up && pl[k].synced;
    var waiting = (linkMeters[k] || {}).pending || [];    // the link's jackpots locked for a supervisor
    text(li, k + ": " + (up ? "up at the table" : "DOWN at the table: progressive wagers refused") + stale +
      (waiting.length ? "; " + waiting.length + (waiting.length === 1 ? " jackpot" : " jackpots") + " waiting for a supervisor: " +
       waiting.map(function (a) { return dollars(a.amount) + " (" + a.table + " seat " + a.seat + " round " + a.round + ")"; }).join(", ") : ""));
    li.className = up && !stale && !waiting.length ? "ok" : "bad"; pul.appendChild(li); });
  if (!Object.keys(pl).length) text(pul, "none");
  var m = t.meters || {};
  fill("#meters", Object.keys(m).sort().map(function (k) { return [meterLabel(k), /\.(value|paid|contributed)$/.test(k) ? dollars(m[k]) : m[k]]; }));
  var w = t.wagers || {}, room = t.room;
  var wrows = Object.keys(w).sort().map(function (k) { return [words(k), dollars(w[k].handle), dollars(w[k].paid), dollars(-w[k].net)]; });
  if (room) wrows.push(["poker room: " + room.hands + " hands, pots " + dollars(room.pots), "no handle (the players' money)", "-", "rake " + dollars(room.rake)]);
  fill("#wagers", wrows);
  fill("#lockouts", (t.lockouts || []).slice().reverse().map(function (lo) {
    return [tableTime(t, lo.ts_ns), lo.reason, lo.section, lo.cleared ? (lo.cleared.by || "?") + " (" + (lo.cleared.role || "?") + ") at " + tableTime(t, lo.cleared.ts_ns) : "NOT CLEARED"]; }));
  fill("#recent", (t.recent || []).slice().reverse().map(function (e) { return [tableTime(t, e.ts_ns), e.round, e.text || (e.kind + " " + e.detail)]; }));
}
function linkRow(m) {
  // a linked progressive's meters (58 Pa. Code 605a.7): current value, hits, last 25 hits, base, limit
  var id = "l-" + m.link, tr = document.getElementById(id);
  var tbody = document.querySelector("#links tbody");
  if (!tbody) return;
  var fresh = document.createElement("tr"); fresh.id = id;
  var last = (m.last_hits || [])[0];
  var stale = m.heard && (Date.now() / 1000 - m.heard > 2);
  cell(fresh, m.link); cell(fresh, m.game + " / " + m.wager); cell(fresh, dollars(m.value), "value money");
  cell(fresh, dollars(m.reset), "base money"); cell(fresh, m.cap === null || m.cap === undefined ? "none" : dollars(m.cap), "limit money");
  cell(fresh, m.hits, "hits");
  cell(fresh, last ? last.table + " seat " + last.seat + " " + dollars(last.amount) : "-", "last");
  var waiting = m.pending || [];
  cell(fresh, waiting.length ? waiting.length + " waiting: " + dollars(waiting.reduce(function (n, a) { return n + a.amount; }, 0)) : "none",
       "pending " + (waiting.length ? "bad" : ""));
  cell(fresh, m.operable === false ? "INOPERABLE: " + m.why : (stale ? "CONTROLLER SILENT" : "operable"),
       "status " + (m.operable === false || stale ? "bad" : "ok"));
  if (tr) tbody.replaceChild(fresh, tr); else tbody.appendChild(fresh);
  var hid = "h-" + m.link, box = document.getElementById(hid);
  if (!box) { box = document.createElement("table"); box.id = hid; box.className = "grid hits";
    box.innerHTML = "<caption></caption><thead><tr><th>Seq</th><th>Table</th><th>Seat</th><th>Round</th><th>Time</th><th>Amount</th><th>Hand</th></tr></thead><tbody></tbody>";
    document.getElementById("link-hits").appendChild(box); }
  var nh = (m.last_hits || []).length;
  text(box.querySelector("caption"), "Link " + m.link + ": " + (nh ? "the last " + nh + " hits" : "no hits yet"));
  box.querySelector("thead").style.display = nh ? "" : "none";
  fill("#" + hid, (m.last_hits || []).map(function (h) {
    return [h.seq, h.table, h.seat, h.round, h.ts_ns ? localTime(h.ts_ns) : "-", dollars(h.amount), (h.hand || []).join(" ")]; }));
}
// what else on the page follows the links' meters (jackpots.js): one EventSource a page;
// the last meter of each link (the table page shows its links' waiting jackpots)
var linkListeners = [], linkMeters = {};
// ---- the pit screen (issue 34): /api/pit every 2 s, for the gaming day chosen ----------
var pitDay = null;
function lasted(lo) {
  // how long a lock-out held the table: a jam cleared in milliseconds says so
  var ns = lo.cleared.wall_ns - lo.wall_ns;
  return ns < 1e9 ? Math.max(0, Math.round(ns / 1e6)) + " ms" : ago(Math.round(ns / 1e9));
}
function pitLockout(lo, off) {
  if (!lo) return "none";
  return localTime(lo.wall_ns, off) + " " + lo.reason + (lo.cleared ? ", cleared after " + lasted(lo) + (lo.cleared.by ? " by " + lo.cleared.by : "") : ", NOT CLEARED");
}
function pitDevices(r) {
  var d = r.devices || {}, names = Object.keys(d), bad = names.filter(function (k) { return d[k] !== "ok"; });
  if (!names.length) return r.reachable ? "none reported" : "not reporting";
  return bad.length ? bad.map(function (k) { return words(k) + " " + d[k]; }).join("; ") : "all " + names.length + " ok";
}
function pitLinks(r) {
  return (r.links || []).map(function (l) {
    return l.link + " " + (l.value === null || l.value === undefined ? "no meter from its controller" : dollars(l.value)) +
      (l.operable === false ? " INOPERABLE" : "") + (l.table_sees === "down" ? " (down at the table)" : "") +
      (l.pending ? ", " + l.pending + (l.pending === 1 ? " jackpot" : " jackpots") + " waiting for a supervisor" : ""); }).join("; ") || "-";
}
function pitMoney(r) {
  // a poker room: no handle; its win is the rake, beside its pots (a pit's or the floor's
  // total: the banked tables' handle, and the rooms' pots beside it)
  if (r.player_banked || (r.pots && !r.handle)) return ["pots " + dollars(r.pots), dollars(r.win) + " rake", "-"];
  if (r.pots) return [dollars(r.handle) + " (pots " + dollars(r.pots) + ")", dollars(r.win), r.hold_pct === null || r.hold_pct === undefined ? "-" : r.hold_pct.toFixed(2) + " %"];
  return [dollars(r.handle), dollars(r.win), r.hold_pct === null || r.hold_pct === undefined ? "-" : r.hold_pct.toFixed(2) + " %"];
}
function pitRow(tbody, r, cls, label, game) {
  var tr = document.createElement("tr"); if (cls) tr.className = cls;
  if (r.table && !cls) { tr.id = "p-" + r.table; var td = document.createElement("td"); var a = document.createElement("a");
    a.href = "/table/" + encodeURIComponent(r.table) + (pitDay ? "?day=" + encodeURIComponent(pitDay) : ""); a.textContent = r.table; td.appendChild(a); td.className = "table"; tr.appendChild(td); }
  else cell(tr, label, "table");
  cell(tr, game, "game");
  var money = pitMoney(r);
  cell(tr, money[0], "handle money"); cell(tr, money[1], "win money"); cell(tr, money[2], "hold money");
  cell(tr, r.rounds, "rounds money"); cell(tr, r.rounds_per_hour === null || r.rounds_per_hour === undefined ? "-" : r.rounds_per_hour.toFixed(1), "rph money");
  cell(tr, r.voids, "voids money"); cell(tr, r.lockouts, "lockouts money");
  var open = r.open_lockouts || [];
  cell(tr, cls ? (r.open ? r.open + " open" : "") : open.map(function (o) { return o.reason + (o.age_s !== null && o.age_s !== undefined ? " (" + ago(o.age_s) + ")" : ""); }).join("; ") || "none",
       "open " + (open.length || r.open ? "bad" : ""));
  cell(tr, cls ? "" : pitLockout(r.last_lockout, r.utc_offset_s), "last");
  cell(tr, cls ? "" : pitDevices(r), "devices " + (!cls && /FAULT|fault|absent/.test(pitDevices(r)) ? "bad" : ""));
  cell(tr, cls ? "" : pitLinks(r), "links");
  cell(tr, "not seen here", "drop none");
  tbody.appendChild(tr);
}
function drawPit(doc) {
  var sel = document.getElementById("pit-day");
  if (sel.options.length !== doc.days.length || sel.value !== doc.day) {
    sel.innerHTML = "";
    doc.days.forEach(function (d) { var o = document.createElement("option"); o.value = d; o.textContent = d + (d === doc.today ? " (current)" : ""); sel.appendChild(o); });
    sel.value = doc.day;
  }
  document.getElementById("pit-csv").href = "/report.csv?day=" + doc.day;
  var s = doc.day_start_s;
  text(document.getElementById("pit-note"), "Gaming day " + doc.day + " from " + pad(Math.floor(s / 3600)) + ":" + pad(Math.floor(s % 3600 / 60)) + " local time. " +
       "Handle is the wagers of settled rounds: a voided round returns every wager and is not handle. " +
       "Win is the house's result; a poker room's win is its rake (its pots are the players' money). " +
       "Drop: not seen by this system (the drop box is counted in the count room).");
  var tbody = document.querySelector("#pit tbody"), fresh = document.createElement("tbody");
  doc.pits.forEach(function (p) {
    doc.tables.filter(function (r) { return r.pit === p.pit; }).forEach(function (r) { pitRow(fresh, r, "", null, r.game ? title(r.game) : "-"); });
    if (p.tables > 1) pitRow(fresh, p, "subtotal", "Pit " + words(p.pit), p.tables + " tables");   // one table: its own row says it
  });
  pitRow(fresh, doc.floor, "total", "Floor", doc.floor.tables + (doc.floor.tables === 1 ? " table" : " tables"));
  tbody.parentNode.replaceChild(fresh, tbody);
}
function loadPit(then) {
  var q = pitDay ? "?day=" + encodeURIComponent(pitDay) : "";
  fetch("/api/pit" + q).then(function (r) { return r.ok ? r.json() : null; }).then(function (doc) { if (doc) then(doc); }).catch(function () {});
}
function tableDay(doc, mine, t) {
  var r = doc.tables.filter(function (x) { return x.table === mine; })[0];
  if (!r) return;
  text(document.getElementById("day-name"), doc.day + (doc.day === doc.today ? " (current)" : ""));
  var money = pitMoney(r);
  defs("day", [r.player_banked ? ["pots (the players' money)", dollars(r.pots)] : ["handle (settled rounds; voids returned)", money[0]],
    [r.player_banked ? "win (the rake)" : "win", r.player_banked ? dollars(r.win) : money[1]], ["hold", money[2]],
    ["rounds", r.rounds], ["rounds per hour", r.rounds_per_hour === null ? "-" : r.rounds_per_hour.toFixed(1)], ["voids", r.voids],
    ["lock-outs", r.lockouts], ["drop", "not seen by this system (counted in the count room)"]]);
  fill("#day-lockouts", r.lockout_list.slice().reverse().map(function (lo) {
    return [localTime(lo.wall_ns, r.utc_offset_s), lo.reason, lo.section,
            lo.cleared ? localTime(lo.cleared.wall_ns, r.utc_offset_s) + ", after " + lasted(lo) + (lo.cleared.by ? " by " + lo.cleared.by : "") + (lo.cleared.role ? " (" + lo.cleared.role + ")" : "") : "NOT CLEARED"]; }));
  if (!r.lockout_list.length) fill("#day-lockouts", [["-", r.lockouts ? r.lockouts + " lock-outs: the list is kept for the last two gaming days" : "no lock-out this gaming day", "", ""]]);
  else if (!r.lockouts_listed) document.querySelector("#day-lockouts tbody").appendChild((function () {
    var tr = document.createElement("tr"); cell(tr, "…"); cell(tr, "the last " + r.lockout_list.length + " of " + r.lockouts + " lock-outs"); cell(tr, ""); cell(tr, ""); return tr; })());
}
(function () {
  var page = document.body.getAttribute("data-page");
  var mine = page === "table" ? decodeURIComponent(location.pathname.split("/").pop()) : null;
  var es = new EventSource("/events");
  es.onopen = function () { text(document.getElementById("conn"), "live"); };
  es.onerror = function () { text(document.getElementById("conn"), "reconnecting…"); };
  var shown = null;
  es.addEventListener("table", function (ev) {
    var t = JSON.parse(ev.data);
    if (page === "floor") floorRow(t); else if (t.table === mine) tablePage(shown = t);
  });
  var links = linkMeters;
  es.addEventListener("link", function (ev) {
    var m = JSON.parse(ev.data), was = JSON.stringify((links[m.link] || {}).pending || []);
    links[m.link] = m; if (page === "floor") linkRow(m);
    else if (shown && was !== JSON.stringify(m.pending || [])) tablePage(shown);   // its waiting jackpots
    linkListeners.forEach(function (f) { f(m); }); });
  // a controller that falls silent sends nothing more: its row is re-drawn each second
  if (page === "floor") setInterval(function () { for (var k in links) linkRow(links[k]); }, 1000);
  if (page === "floor") {
    document.getElementById("pit-day").addEventListener("change", function (ev) { pitDay = ev.target.value; loadPit(drawPit); });
    loadPit(drawPit); setInterval(function () { loadPit(drawPit); }, 2000);
  } else {
    pitDay = new URLSearchParams(location.search).get("day");      // a day chosen on the pit screen
    var day = function () { loadPit(function (doc) { tableDay(doc, mine); }); };
    day(); setInterval(day, 2000);
  }
})();
