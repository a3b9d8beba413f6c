// The process table, the dependency graph, and the event stream that
// keeps them live.
'use strict';

// ---- the process table ----

let listTimer = null;
let listBusy = false;
let listAgain = false;

// refreshList fetches every status, at most one request at a time.
function refreshList() {
  if (listBusy) { listAgain = true; return; }
  listBusy = true;
  const asked = ui.eventCount;
  api('GET', '/v1/procs?usage=true').then((list) => {
    ui.order = gatherReplicas(list).map((p) => p.name);
    const seen = new Set(ui.order);
    for (const p of list) ui.procs.set(p.name, fresher(p, ui.procs.get(p.name), asked));
    for (const name of [...ui.procs.keys()]) if (!seen.has(name)) ui.procs.delete(name);
    drawTable();
    if (ui.selected && !seen.has(ui.selected)) select(null);
    else if (!ui.selected && ui.order.length) select(ui.order[0]);
    else drawDetail();
  }).catch(() => {}).finally(() => {
    listBusy = false;
    if (listAgain) { listAgain = false; scheduleList(); }
  });
}

// fresher is the status from the list, except that a state event applied
// after the list was asked for is newer than the list's state.
function fresher(listed, current, asked) {
  if (!current || !(ui.eventAt.get(listed.name) > asked)) return listed;
  const keep = { state: current.state, run: current.run, reason: current.reason, message: current.message };
  return Object.assign(listed, keep);
}

function scheduleList() {
  if (listTimer) return;
  listTimer = setTimeout(() => { listTimer = null; refreshList(); }, 250);
}

function drawTable() {
  const tbody = document.querySelector('#procs tbody');
  for (const [name, row] of ui.rows) if (!ui.procs.has(name)) { row.tr.remove(); ui.rows.delete(name); }
  updateGroups();
  let prev = null;
  const place = (tr) => {
    const want = prev ? prev.nextSibling : tbody.firstChild;
    if (tr !== want) tbody.insertBefore(tr, want);
    prev = tr;
  };
  for (const name of ui.order) {
    const group = groupAbove(name);
    if (group) place(group.tr);
    place((ui.rows.get(name) || makeRow(name)).tr);
    drawRow(name);
  }
  applyProcFilter();
  drawSummary();
  if (!$('graph').hidden) drawGraph();
}

// The cells of a row, left to right; the usage ones are usage.js's.
const COLUMNS = ['name', 'state', 'run', 'pid', 'cpu', 'mem', 'spark', 'ports', 'uptime', 'restarts', 'msg'];
const NUMERIC = ['run', 'pid', 'cpu', 'mem', 'uptime', 'restarts'];
const USAGE = ['cpu', 'mem', 'spark'];

// makeCells gives tr a cell per column, and returns them by column: the
// rows of processes and of replicated processes alike.
function makeCells(tr) {
  const cells = {};
  for (const key of COLUMNS) {
    const td = document.createElement('td');
    td.className = key;
    if (NUMERIC.includes(key)) td.classList.add('num');
    if (USAGE.includes(key)) td.classList.add('usage');
    tr.appendChild(td);
    cells[key] = td;
  }
  return cells;
}

function makeRow(name) {
  const tr = document.createElement('tr');
  tr.dataset.proc = name;
  const cells = makeCells(tr);
  cells.name.textContent = name;
  tr.addEventListener('click', () => select(name));
  const row = { tr, cells, key: {} };
  ui.rows.set(name, row);
  return row;
}

// set changes a cell only when its text changes, so 200 rows cost little.
function set(row, key, text, title) {
  if (row.key[key] === text) return;
  row.key[key] = text;
  row.cells[key].textContent = text;
  if (title !== undefined) row.cells[key].title = title;
}

function drawRow(name) {
  const p = ui.procs.get(name);
  const row = ui.rows.get(name);
  if (!p || !row) return;
  const stateKey = p.state + '|' + (p.reason || '') + '|' + (p.recoverable ? 'r' : '');
  if (row.key.state !== stateKey) {
    row.key.state = stateKey;
    const td = row.cells.state;
    td.textContent = '';
    const st = document.createElement('span');
    st.className = 'state s-' + p.state;
    st.textContent = p.state;
    td.appendChild(st);
    if (p.reason && p.reason !== p.state) {
      const r = document.createElement('span');
      r.className = 'reason';
      r.textContent = p.reason;
      td.appendChild(r);
    }
  }
  set(row, 'run', String(p.run || ''));
  set(row, 'pid', p.pid ? String(p.pid) : '');
  drawUsage(row, p);
  drawPorts(row, p);
  set(row, 'uptime', uptime(p));
  set(row, 'restarts', String(p.restarts || 0));
  const msg = lastMessage(p);
  set(row, 'msg', msg, msg);
  row.tr.classList.toggle('selected', name === ui.selected && !ui.allLogs);
  if (p.replicaOf) groupChanged(p.replicaOf);
}

function drawPorts(row, p) {
  const ports = p.ports || [];
  const key = ports.join(',');
  if (row.key.ports === key) return;
  row.key.ports = key;
  const td = row.cells.ports;
  td.textContent = '';
  for (const port of ports) {
    const a = document.createElement('a');
    a.className = 'port';
    a.href = 'http://' + location.hostname + ':' + port + '/';
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    a.textContent = String(port);
    a.addEventListener('click', (e) => e.stopPropagation());
    td.appendChild(a);
  }
}

// lastMessage is the process's message, or for a blocked one what it
// waits for; for a scheduled task, after when it runs next.
function lastMessage(p) {
  const next = nextRun(p);
  if ((p.state === 'blocked' || p.state === 'pending') && p.dependsOn && p.dependsOn.length) {
    const waits = p.dependsOn.map((d) => {
      const dep = ui.procs.get(d);
      return d + ' (' + (dep ? dep.state : '?') + ')';
    });
    return (next ? next + ' · ' : '') + 'waits for ' + waits.join(', ') + (p.message ? ' — ' + p.message : '');
  }
  return [next, p.message || p.line, agentSpent(p)].filter(Boolean).join(' · ');
}

// agentSpent says what an agent in its JSON mode has spent in all, as
// procs status does: "$0.75 · 300 in / 30 out tokens · 3 turns".
function agentSpent(p) {
  const t = p.agent && p.agent.total;
  if (!t) return '';
  const parts = [];
  if (t.costUsd > 0) parts.push('$' + t.costUsd.toFixed(2));
  if (t.inputTokens > 0 || t.outputTokens > 0) parts.push(t.inputTokens + ' in / ' + t.outputTokens + ' out tokens');
  if (t.turns === 1) parts.push('1 turn');
  else if (t.turns > 1) parts.push(t.turns + ' turns');
  return parts.join(' · ');
}

// nextRun says when a scheduled task runs next, as procs status does:
// "next run in 28m (14:00:00)"; '' without a schedule.
function nextRun(p) {
  const s = p.schedule;
  if (!s || !s.nextRun) return '';
  const at = new Date(s.nextRun);
  const ms = at.getTime() - Date.now();
  let until = 'now';
  if (ms > 0) {
    if (ms < 60e3) until = 'in ' + Math.ceil(ms / 1e3) + 's';
    else if (ms < 3600e3) until = 'in ' + Math.round(ms / 60e3) + 'm';
    else if (ms < 48 * 3600e3) until = 'in ' + Math.round(ms / 3600e3) + 'h';
    else until = 'in ' + Math.round(ms / 86400e3) + 'd';
  }
  return 'next run ' + until + ' (' + clockTime(at) + ')';
}

// clockTime is a time of day, 14:00:00, with the day when it is not today.
function clockTime(at) {
  if (at.toDateString() === new Date().toDateString()) return at.toLocaleTimeString([], { hour12: false });
  return at.toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
}

// LIVE are the states whose run is going; a failed run may be too (an
// error line, a timeout), which its pid tells (procs clears it at exit).
const LIVE = ['starting', 'ready', 'busy', 'awaiting-input', 'awaiting-permission', 'unhealthy', 'stopping'];

function running(p) {
  return LIVE.includes(p.state) || (p.state === 'failed' && !!p.pid);
}

function uptime(p) {
  if (!p.readyAt && !p.startedAt) return '';
  if (!running(p)) return '';
  const since = Date.parse(p.startedAt || p.readyAt);
  return duration(Date.now() - since);
}

function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return s + 's';
  if (s < 3600) return Math.floor(s / 60) + 'm' + String(s % 60).padStart(2, '0') + 's';
  return Math.floor(s / 3600) + 'h' + String(Math.floor(s / 60) % 60).padStart(2, '0') + 'm';
}

function drawSummary() {
  const counts = {};
  for (const p of ui.procs.values()) counts[p.state] = (counts[p.state] || 0) + 1;
  $('summary').textContent = Object.entries(counts).map(([k, v]) => v + ' ' + k).join(' · ');
}

function applyProcFilter() {
  const q = $('proc-filter').value.trim().toLowerCase();
  for (const [name, row] of ui.rows) {
    const p = ui.procs.get(name);
    const hit = !q || name.toLowerCase().includes(q) || (p && p.state.includes(q));
    row.tr.hidden = !hit;
  }
  filterGroups();
}

// ---- the dependency graph ----

function drawGraph() {
  const depth = new Map();
  const level = (name, seen) => {
    if (depth.has(name)) return depth.get(name);
    if (seen.has(name)) return 0;
    seen.add(name);
    const p = ui.procs.get(name);
    let d = 0;
    for (const dep of (p && p.dependsOn) || []) if (ui.procs.has(dep)) d = Math.max(d, level(dep, seen) + 1);
    depth.set(name, d);
    return d;
  };
  const levels = [];
  for (const name of ui.order) {
    const d = level(name, new Set());
    (levels[d] = levels[d] || []).push(name);
  }
  const graph = $('graph');
  graph.textContent = '';
  for (const names of levels) {
    const col = document.createElement('div');
    col.className = 'level';
    for (const name of names || []) col.appendChild(graphNode(name));
    graph.appendChild(col);
  }
}

function graphNode(name) {
  const p = ui.procs.get(name);
  const node = document.createElement('div');
  node.className = 'node state s-' + p.state;
  node.dataset.proc = name;
  node.textContent = name + ' · ' + p.state;
  if (p.dependsOn && p.dependsOn.length) {
    const deps = document.createElement('span');
    deps.className = 'deps';
    const blocking = p.dependsOn.filter((d) => { const q = ui.procs.get(d); return q && !['ready', 'completed'].includes(q.state); });
    deps.textContent = (blocking.length && ['blocked', 'pending'].includes(p.state) ? 'blocked by ' + blocking.join(', ') : 'after ' + p.dependsOn.join(', '));
    node.appendChild(deps);
  }
  node.addEventListener('click', () => select(name));
  return node;
}

function toggleGraph() {
  const graph = $('graph');
  graph.hidden = !graph.hidden;
  $('procs').hidden = !graph.hidden;
  if (!graph.hidden) drawGraph();
}

// ---- events ----

let retry = 500;

function connectEvents() {
  if (ui.events) ui.events.close();
  const es = new EventSource('/v1/events');
  ui.events = es;
  es.onopen = () => {
    retry = 500;
    setConn('up', 'live');
    loadInfo();
    refreshList();
    if (ui.allLogs) openLogs(null);
    else if (ui.selected) openLogs(ui.selected);
  };
  es.onmessage = (m) => onEvent(JSON.parse(m.data));
  es.onerror = () => {
    // Closed by hand and retried, so that a procs restarted (a new
    // answer, even an error page) is found again; a procs restarted on
    // this port refuses this page's sign-in, which ends the retries.
    es.close();
    if (ui.events !== es) return;
    setConn('down', 'reconnecting…');
    fetch('/v1/info').then((resp) => { if (isRestarted(resp)) showRestarted(); }).catch(() => {});
    setTimeout(() => { if (!ui.restarted) connectEvents(); }, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function setConn(cls, text) {
  const c = $('conn');
  c.className = 'conn ' + cls;
  c.textContent = text;
}

function loadInfo() {
  api('GET', '/v1/info').then((info) => {
    $('project').textContent = info.dir;
    document.title = 'procs · ' + info.dir.split('/').pop();
  }).catch(() => {});
}

function onEvent(ev) {
  if (ev.type !== 'state' || !ev.proc) {
    scheduleList();
    return;
  }
  const p = ui.procs.get(ev.proc);
  if (!p) { scheduleList(); return; }
  ui.eventCount++;
  ui.eventAt.set(ev.proc, ui.eventCount);
  p.state = ev.to;
  p.run = ev.run || p.run;
  p.reason = ev.reason || '';
  if (ev.message !== undefined) p.message = ev.message;
  drawRow(ev.proc);
  ui.applied[ev.proc] = { state: ev.to, run: ev.run, latencyMs: Date.now() - Date.parse(ev.time) };
  drawSummary();
  if (ev.proc === ui.selected && !ui.allLogs) { drawDetail(); loadResult(); scheduleScreen(); }
  scheduleList();
}
