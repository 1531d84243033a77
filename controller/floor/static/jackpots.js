// The jackpot lock (issue 31): each linked progressive's awards waiting for supervisors,
// from the same `link` events floor.js draws the meters from; a supervisor logged in
// confirms one (POST /api/confirm). Kept apart from floor.js so the two change alone.
(function () {
  "use strict";
  var me = null;
  function dollars(c) {
    var s = (Math.abs(c) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return (c < 0 ? "-$" : "$") + s;
  }
  function who() {
    fetch("/api/me", {credentials: "same-origin"}).then(function (r) {
      return r.ok ? r.json() : null; }).then(function (m) {
      me = m;
      var el = document.getElementById("who");
      if (!el) return;
      el.textContent = "";
      if (m) {
        el.appendChild(document.createTextNode(m.user + " (" + m.role + ") "));
        var f = document.createElement("form"); f.method = "post"; f.action = "/logout";
        var b = document.createElement("button"); b.id = "logout"; b.textContent = "Log out";
        f.appendChild(b); el.appendChild(f);
      } else {
        var a = document.createElement("a"); a.href = "/login"; a.id = "login-link";
        a.textContent = "Log in"; el.appendChild(a);
      }
      draw();               // the confirm buttons follow who is logged in
    });
  }
  function row(link, a) {
    var id = "j-" + link + "-" + a.id.replace(/[^A-Za-z0-9_-]/g, "_");
    var tr = document.getElementById(id) || document.createElement("tr");
    tr.id = id; tr.className = "pending";
    tr.textContent = "";
    var by = (a.confirmations || []).map(function (c) { return c.by; });
    [link, a.table + " seat " + a.seat + " round " + a.round, (a.hand || []).join(" "),
     dollars(a.amount), by.length + " of " + a.needs + (by.length ? " (" + by.join(", ") + ")" : ""),
     "PENDING"].forEach(function (v, i) {
      var td = document.createElement("td"); td.textContent = v;
      td.className = ["link", "where", "hand", "amount money", "confirmations", "status"][i];
      tr.appendChild(td);
    });
    var td = document.createElement("td");
    if (me && me.role === "supervisor" && by.indexOf(me.user) < 0) {
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
    var alarms = document.getElementById("alarms");
    if (alarms) alarms.textContent = Object.keys(latest).map(function (l) {
      var m = latest[l]; return (m.alarms || []).length ? "ALARM " + l + ": " +
        m.alarm_count + " refused; latest: " + m.alarms[0].why : ""; }).join("\n");
  }
  var latest = {};
  var es = new EventSource("/events");
  es.addEventListener("link", function (ev) {
    var m = JSON.parse(ev.data);
    var was = JSON.stringify(pending[m.link] || []) + JSON.stringify(latest[m.link] && latest[m.link].alarms);
    pending[m.link] = m.pending || []; latest[m.link] = m;
    if (was !== JSON.stringify(pending[m.link]) + JSON.stringify(m.alarms)) draw();
  });
  who();
  draw();
})();
