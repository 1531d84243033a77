// The jackpot lock (issue 31) in the pit screen's linked progressives (issue 34): each link's
// awards waiting for supervisors, from the `link` events floor.js draws the meters from (its
// one EventSource, through its linkListeners; its dollars() and localTime() are used here);
// a supervisor logged in confirms one (POST /api/confirm). Who is logged in is the server's
// word in the page (body data-role and data-user); the server checks the role again at
// /api/confirm. Kept apart from floor.js so the two change alone.
(function () {
  "use strict";
  var role = document.body.getAttribute("data-role") || "";
  var user = document.body.getAttribute("data-user") || "";
  function row(link, a) {
    var id = "j-" + link + "-" + a.id.replace(/[^A-Za-z0-9_-]/g, "_");
    var tr = document.getElementById(id) || document.createElement("tr");
    tr.id = id; tr.className = "pending";
    tr.textContent = "";
    var by = (a.confirmations || []).map(function (c) { return c.by; });
    [[link, "link"], [dollars(a.amount), "amount money"], [a.table, "table"], [a.seat, "seat"],
     [a.round, "round"], [(a.hand || []).join(" "), "hand"],
     [a.ts_ns ? localTime(a.ts_ns) : "-", "since"],
     [by.length + " of " + a.needs + (by.length ? " (" + by.join(", ") + ")" : ""), "confirmations"],
     ["PENDING", "status bad"]].forEach(function (v) {
      var td = document.createElement("td"); td.textContent = v[0]; td.className = v[1];
      tr.appendChild(td);
    });
    var td = document.createElement("td");
    if (role === "supervisor" && by.indexOf(user) < 0) {
      var b = document.createElement("button"); b.className = "confirm";
      b.textContent = "I have seen the cards: confirm";
      b.onclick = function () {
        b.disabled = true;
        fetch("/api/confirm", {method: "POST", credentials: "same-origin",
                               headers: {"Content-Type": "application/json"},
                               body: JSON.stringify({link: link, id: a.id})})
          .then(function (r) { return r.json(); })
          .then(function (d) { td.textContent = d.error ? d.error : "confirmed by " + d.by; });
      };
      td.appendChild(b);
    }
    tr.appendChild(td);
    return tr;
  }
  var pending = {};
  function draw() {
    var tbody = document.querySelector("#jackpots tbody");
    if (!tbody) return;
    var keep = {};
    Object.keys(pending).sort().forEach(function (link) {
      (pending[link] || []).forEach(function (a) {
        var tr = row(link, a); keep[tr.id] = true;
        if (!tr.parentNode) tbody.appendChild(tr);
      });
    });
    Array.prototype.slice.call(tbody.children).forEach(function (tr) {
      if (!keep[tr.id]) tbody.removeChild(tr); });
    if (!tbody.children.length) {            // said, not left blank
      var tr = document.createElement("tr"); tr.id = "j-none";
      var td = document.createElement("td"); td.colSpan = 10; td.className = "none";
      td.textContent = "no jackpot waiting"; tr.appendChild(td); tbody.appendChild(tr);
    }
    var alarms = document.getElementById("alarms");
    if (alarms) alarms.textContent = Object.keys(latest).map(function (l) {
      var m = latest[l]; return (m.alarms || []).length ? "ALARM " + l + ": " +
        m.alarm_count + " refused; latest: " + m.alarms[0].why : ""; }).join("\n");
  }
  var latest = {};
  linkListeners.push(function (m) {         // floor.js's `link` events
    var was = JSON.stringify(pending[m.link] || []) + JSON.stringify(latest[m.link] && latest[m.link].alarms);
    pending[m.link] = m.pending || []; latest[m.link] = m;
    if (was !== JSON.stringify(pending[m.link]) + JSON.stringify(m.alarms)) draw();
  });
  draw();
})();
