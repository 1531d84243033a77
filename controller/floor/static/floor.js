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
function linkText(t) {
  if (!t.link || !t.link.reachable) return "UNREACHABLE";
  var tl = t.link.table_link || {};
  return "up" + (tl.rows_waiting ? " (" + tl.rows_waiting + " rows waiting)" : "");
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
  cell(fresh, t.game); cell(fresh, t.state, "state"); cell(fresh, t.round_no);
  cell(fresh, openLockout(t), "lockout bad"); cell(fresh, faults(t), "faults bad");
  cell(fresh, dollars(sum(t.wagers, "handle")), "money"); cell(fresh, dollars(sum(t.wagers, "paid")), "money");
  cell(fresh, (m.rounds || 0) + " / " + (m.voids || 0));
  cell(fresh, linkText(t), "link " + (t.link && t.link.reachable ? "ok" : "bad"));
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
function tablePage(t) {
  text(document.getElementById("title"), "Table " + t.table + " (" + (t.game || "?") + ")");
  var dl = document.getElementById("now"); dl.innerHTML = "";
  [["state", t.state], ["round", t.round_no], ["lock-out", openLockout(t) || "none"], ["link", linkText(t)],
   ["last heard", t.link && t.link.last_heard ? new Date(t.link.last_heard * 1000).toISOString() : "never"],
   ["journal head", t.head ? t.head.seq + ":" + t.head.hash.slice(0, 16) + "…" : "-"],
   ["chain", t.integrity && !t.integrity.ok ? "FLAGGED: " + t.integrity.problems.map(function (p) { return "row " + p.seq + ": " + p.reason; }).join("; ") : "continuous"]]
    .forEach(function (kv) { var dt = document.createElement("dt"); text(dt, kv[0]); var dd = document.createElement("dd"); text(dd, kv[1]); dd.id = "now-" + kv[0].replace(/ /g, "-"); dl.appendChild(dt); dl.appendChild(dd); });
  var ul = document.getElementById("devices"); ul.innerHTML = "";
  var devs = t.devices || {};
  Object.keys(devs).sort().forEach(function (d) { var li = document.createElement("li"); text(li, d + ": " + (devs[d].ok ? "ok" : "FAULT " + devs[d].reason + " [" + (devs[d].section || "-") + "]")); li.className = devs[d].ok ? "ok" : "bad"; ul.appendChild(li); });
  if (!Object.keys(devs).length) text(ul, "no device fault reported");
  var m = t.meters || {};
  fill("#meters", Object.keys(m).sort().map(function (k) { return [k, /\.(value|paid|contributed)$/.test(k) ? dollars(m[k]) : m[k]]; }));
  var w = t.wagers || {};
  fill("#wagers", Object.keys(w).sort().map(function (k) { return [k, dollars(w[k].handle), dollars(w[k].paid), dollars(w[k].net)]; }));
  fill("#lockouts", (t.lockouts || []).slice().reverse().map(function (lo) {
    return [lo.seq, lo.reason, lo.section, lo.cleared ? (lo.cleared.by + " (" + lo.cleared.role + ", row " + lo.cleared.seq + ")") : "NOT CLEARED"]; }));
  fill("#recent", (t.recent || []).slice().reverse().map(function (e) { return [e.seq, e.round, e.source, e.kind, e.detail]; }));
}
function linkRow(m) {
  // a linked progressive's meters (NY 5320.8): current value, hits, last 25 hits, base, limit
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
  cell(fresh, m.operable === false ? "INOPERABLE: " + m.why : (stale ? "CONTROLLER SILENT" : "operable"),
       "status " + (m.operable === false || stale ? "bad" : "ok"));
  if (tr) tbody.replaceChild(fresh, tr); else tbody.appendChild(fresh);
  var hid = "h-" + m.link, box = document.getElementById(hid);
  if (!box) { box = document.createElement("table"); box.id = hid; box.className = "grid hits";
    box.innerHTML = "<caption></caption><thead><tr><th>Seq</th><th>Table</th><th>Seat</th><th>Round</th><th>Time</th><th>Amount</th><th>Hand</th></tr></thead><tbody></tbody>";
    document.getElementById("link-hits").appendChild(box); }
  text(box.querySelector("caption"), "Link " + m.link + ": last " + (m.last_hits || []).length + " hits");
  fill("#" + hid, (m.last_hits || []).map(function (h) {
    return [h.seq, h.table, h.seat, h.round, h.ts_ns ? new Date(h.ts_ns / 1e6).toISOString() : "-", dollars(h.amount), (h.hand || []).join(" ")]; }));
}
(function () {
  var page = document.body.getAttribute("data-page");
  var mine = page === "table" ? decodeURIComponent(location.pathname.split("/").pop()) : null;
  var es = new EventSource("/events");
  es.onopen = function () { text(document.getElementById("conn"), "live"); };
  es.onerror = function () { text(document.getElementById("conn"), "reconnecting…"); };
  es.addEventListener("table", function (ev) {
    var t = JSON.parse(ev.data);
    if (page === "floor") floorRow(t); else if (t.table === mine) tablePage(t);
  });
  var links = {};
  es.addEventListener("link", function (ev) {
    var m = JSON.parse(ev.data); links[m.link] = m; if (page === "floor") linkRow(m); });
  // a controller that falls silent sends nothing more: its row is re-drawn each second
  if (page === "floor") setInterval(function () { for (var k in links) linkRow(links[k]); }, 1000);
})();
