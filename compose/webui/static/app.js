// The procs dashboard: a process table fed by /v1/events, and for the
// selected process its logs (/ui/logs, styled by procs), its terminal
// screen and its buttons, all through the same API as the CLI.
'use strict';

const MAX_LINES = 20000; // lines kept in memory per process, for search
const MAX_DOM = 1000; // line elements in the page at most
const $ = (id) => document.getElementById(id);

const ui = {
  procs: new Map(), // name -> status (as GET /v1/procs answers)
  order: [],
  rows: new Map(), // name -> {tr, cells}
  selected: null,
  events: null,
  lines: [], // {run, time, stream, spans, text}
  pending: [], // lines not drawn yet
  rawBatches: [], // batches received, not parsed yet
  logSource: null,
  following: true,
  unseen: 0,
  resultSeq: 0, // bumped by actions, so a slower "last result" does not cover their answer
  acting: false,
  // applied records, per process, the last state event drawn and how long
  // it took from procs publishing it to the row showing it (tests read it).
  applied: {},
};
window.procsUI = ui;

// ---- API ----

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const resp = await fetch(path, init);
  const text = await resp.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = { error: text.trim() }; }
  if (!resp.ok) {
    const err = new Error((data && data.error) || resp.statusText);
    err.status = resp.status;
    err.data = data;
    throw err;
  }
  return data;
}

const procPath = (name, action) => '/v1/procs/' + encodeURIComponent(name) + (action ? '/' + action : '');

// ---- the process table ----

let listTimer = null;
let listBusy = false;
let listAgain = false;

// refreshList fetches every status, at most one request at a time.
function refreshList() {
  if (listBusy) { listAgain = true; return; }
  listBusy = true;
  api('GET', '/v1/procs').then((list) => {
    ui.order = list.map((p) => p.name);
    const seen = new Set(ui.order);
    for (const p of list) ui.procs.set(p.name, p);
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

function scheduleList() {
  if (listTimer) return;
  listTimer = setTimeout(() => { listTimer = null; refreshList(); }, 250);
}

function drawTable() {
  const tbody = document.querySelector('#procs tbody');
  for (const [name, row] of ui.rows) if (!ui.procs.has(name)) { row.tr.remove(); ui.rows.delete(name); }
  let prev = null;
  for (const name of ui.order) {
    let row = ui.rows.get(name);
    if (!row) row = makeRow(name);
    const want = prev ? prev.nextSibling : tbody.firstChild;
    if (row.tr !== want) tbody.insertBefore(row.tr, want);
    prev = row.tr;
    drawRow(name);
  }
  applyProcFilter();
  drawSummary();
  if (!$('graph').hidden) drawGraph();
}

function makeRow(name) {
  const tr = document.createElement('tr');
  tr.dataset.proc = name;
  const cells = {};
  for (const key of ['name', 'state', 'run', 'pid', 'ports', 'uptime', 'restarts', 'msg']) {
    const td = document.createElement('td');
    td.className = key;
    if (['run', 'pid', 'uptime', 'restarts'].includes(key)) td.classList.add('num');
    tr.appendChild(td);
    cells[key] = td;
  }
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
  drawPorts(row, p);
  set(row, 'uptime', uptime(p));
  set(row, 'restarts', String(p.restarts || 0));
  const msg = lastMessage(p);
  set(row, 'msg', msg, msg);
  row.tr.classList.toggle('selected', name === ui.selected);
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

// lastMessage is the process's message, or for a blocked one what it waits for.
function lastMessage(p) {
  if ((p.state === 'blocked' || p.state === 'pending') && p.dependsOn && p.dependsOn.length) {
    const waits = p.dependsOn.map((d) => {
      const dep = ui.procs.get(d);
      return d + ' (' + (dep ? dep.state : '?') + ')';
    });
    return 'waits for ' + waits.join(', ') + (p.message ? ' — ' + p.message : '');
  }
  return p.message || p.line || '';
}

function uptime(p) {
  if (!p.readyAt && !p.startedAt) return '';
  if (!['ready', 'busy', 'awaiting-input', 'awaiting-permission', 'starting', 'unhealthy'].includes(p.state)) return '';
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
    if (ui.selected) openLogs(ui.selected);
  };
  es.onmessage = (m) => onEvent(JSON.parse(m.data));
  es.onerror = () => {
    // Closed by hand and retried, so that a procs restarted (a new
    // answer, even an error page) is found again.
    es.close();
    if (ui.events !== es) return;
    setConn('down', 'reconnecting…');
    setTimeout(connectEvents, retry);
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
  p.state = ev.to;
  p.run = ev.run || p.run;
  p.reason = ev.reason || '';
  if (ev.message !== undefined) p.message = ev.message;
  drawRow(ev.proc);
  ui.applied[ev.proc] = { state: ev.to, run: ev.run, latencyMs: Date.now() - Date.parse(ev.time) };
  drawSummary();
  if (ev.proc === ui.selected) { drawDetail(); loadResult(); scheduleScreen(); }
  scheduleList();
}

// ---- the selected process ----

function select(name) {
  if (name === ui.selected) return;
  const old = ui.selected && ui.rows.get(ui.selected);
  if (old) old.tr.classList.remove('selected');
  ui.selected = name;
  $('detail').hidden = !name;
  if (!name) { closeLogs(); return; }
  const row = ui.rows.get(name);
  if (row) { row.tr.classList.add('selected'); row.tr.scrollIntoView({ block: 'nearest' }); }
  $('d-result').hidden = true;
  ui.resultSeq++;
  $('send-msg').textContent = '';
  drawDetail();
  openLogs(name);
  loadResult();
  refreshScreen();
}

function drawDetail() {
  const p = ui.procs.get(ui.selected);
  if (!p) return;
  $('d-name').textContent = p.name;
  const st = $('d-state');
  st.className = 'state big s-' + p.state;
  st.textContent = p.state + (p.reason && p.reason !== p.state ? ' · ' + p.reason : '');
  const bits = [p.kind, p.preset && 'preset ' + p.preset, p.command].filter(Boolean);
  if (p.exitCode !== undefined && p.exitCode !== null) bits.push('exit ' + p.exitCode);
  if (p.dependsOn && p.dependsOn.length) bits.push('after ' + p.dependsOn.join(', '));
  $('d-info').textContent = bits.join(' · ');
  const idle = p.idle;
  $('d-idle').hidden = !idle;
  $('b-pause').hidden = !idle || idle.paused;
  $('b-resume').hidden = !idle || !idle.paused;
  if (idle) {
    $('d-idle').textContent = 'onIdle ' + (idle.paused ? 'paused' : 'on') + ' · cycle ' + idle.cycles +
      (idle.maxCycles ? '/' + idle.maxCycles : '') + (idle.step ? ' · step ' + idle.step : '');
  }
  const term = $('term');
  const wasHidden = term.hidden;
  term.hidden = !p.pty;
  if (p.pty && wasHidden) refreshScreen();
}

// loadResult shows the result of the process's current state (success,
// message, its last lines), the one `procs wait` would give now.
function loadResult() {
  const p = ui.procs.get(ui.selected);
  if (!p || ['pending', 'blocked', 'starting', 'stopping'].includes(p.state)) return;
  const name = p.name;
  const seq = ui.resultSeq;
  if (ui.acting) return; // the action's own result comes
  api('GET', procPath(name, 'wait') + '?for=' + encodeURIComponent(p.state) + '&timeout=2s')
    .then((res) => { if (name === ui.selected && seq === ui.resultSeq) showResult(res, 'last result'); })
    .catch(() => {});
}

function showResult(res, title) {
  const box = $('d-result');
  box.hidden = false;
  box.className = 'result' + (res.success ? '' : ' fail');
  box.textContent = '';
  const head = document.createElement('div');
  head.textContent = title + ': ' + (res.success ? '✓ ' : '✗ ') + res.state + ' (run ' + res.run + ')' +
    (res.message ? ' — ' + res.message : '') + (res.durationMs ? ' in ' + res.durationMs + ' ms' : '');
  box.appendChild(head);
  if (res.logs && res.logs.length) {
    const pre = document.createElement('pre');
    pre.textContent = res.logs.join('\n');
    box.appendChild(pre);
  }
}

function act(action) {
  const name = ui.selected;
  if (!name) return;
  const box = $('d-result');
  box.hidden = false;
  box.className = 'result';
  box.textContent = action + ' ' + name + '…';
  ui.resultSeq++;
  ui.acting = true;
  api('POST', procPath(name, action) + '?timeout=120s')
    .finally(() => { ui.acting = false; ui.resultSeq++; })
    .then((res) => { if (name === ui.selected) showResult(res, action); })
    .catch((err) => {
      if (name !== ui.selected) return;
      box.className = 'result fail';
      box.textContent = action + ' ' + name + ': ' + err.message;
    });
}

function idleAction(action) {
  const name = ui.selected;
  if (!name) return;
  api('POST', procPath(name, action)).then(() => scheduleList())
    .catch((err) => { $('send-msg').textContent = action + ': ' + err.message; });
}

// ---- terminal ----

let screenTimer = null;
let screenBusy = false;

function refreshScreen() {
  const p = ui.procs.get(ui.selected);
  if (!p || !p.pty || screenBusy) return;
  screenBusy = true;
  const name = p.name;
  api('GET', procPath(name, 'screen'))
    .then((s) => { if (name === ui.selected) drawScreen(s); })
    .catch((err) => { if (name === ui.selected) $('screen').textContent = '(' + err.message + ')'; })
    .finally(() => { screenBusy = false; });
}

// drawScreen shows the screen at its size; a screen taller than the box
// scrolls to its bottom, where prompts and cursors usually are.
function drawScreen(s) {
  const pre = $('screen');
  if (pre.textContent === s.text) return;
  pre.style.height = (s.rows * 1.25 + 1) + 'em';
  pre.textContent = s.text;
  pre.scrollTop = pre.scrollHeight;
}

function scheduleScreen() {
  if (screenTimer) return;
  screenTimer = setTimeout(() => { screenTimer = null; refreshScreen(); }, 80);
}

const KEYS = { enter: '', 'ctrl-c': '\x03', esc: '\x1b', tab: '\t', up: '\x1b[A', down: '\x1b[B', right: '\x1b[C', left: '\x1b[D' };

function send(text, enter, force) {
  const name = ui.selected;
  if (!name) return Promise.resolve();
  const msg = $('send-msg');
  return api('POST', procPath(name, 'input'), { text, enter, force })
    .then(() => { msg.textContent = ''; scheduleScreen(); })
    .catch((err) => {
      msg.textContent = 'not sent: ' + err.message + (err.status === 409 ? ' (tick force to send anyway)' : '');
    });
}

// ---- logs ----

function closeLogs() {
  if (ui.logSource) { ui.logSource.close(); ui.logSource = null; }
}

function openLogs(name) {
  closeLogs();
  ui.lines = [];
  ui.pending = [];
  ui.rawBatches = [];
  ui.unseen = 0;
  $('logs').textContent = '';
  $('log-count').textContent = '';
  setFollowing(true);
  const es = new EventSource('/ui/logs?proc=' + encodeURIComponent(name) + '&tail=1000');
  ui.logSource = es;
  es.addEventListener('reset', () => {
    ui.lines = [];
    ui.pending = [];
    ui.rawBatches = [];
    $('logs').textContent = '';
  });
  es.onmessage = (m) => {
    // Parsed when drawn: in a flood only the batches still kept are.
    if (ui.logSource !== es) return;
    ui.rawBatches.push(m.data);
    scheduleLogDraw();
    scheduleScreen();
  };
  es.onerror = () => {
    // The events stream reconnects everything; this one only stops.
    if (es.readyState === EventSource.CLOSED && ui.logSource === es) ui.logSource = null;
  };
}

// takeBatches parses up to PARSE_BATCHES of the batches received, oldest
// first, and says whether more wait. Batches so old that MAX_LINES newer
// lines follow them are dropped unparsed: a flood costs only what is kept.
const BATCH_LINES = 500; // the server's largest batch
const PARSE_BATCHES = 6;

function takeBatches() {
  const keep = Math.ceil(MAX_LINES / BATCH_LINES);
  if (ui.rawBatches.length > keep) ui.rawBatches.splice(0, ui.rawBatches.length - keep);
  const now = ui.rawBatches.splice(0, PARSE_BATCHES);
  for (const raw of now) {
    for (const l of JSON.parse(raw)) {
      l.text = l.spans.map((s) => s.t).join('');
      ui.lines.push(l);
      ui.pending.push(l);
    }
  }
  if (ui.lines.length > MAX_LINES) ui.lines.splice(0, ui.lines.length - MAX_LINES);
  if (ui.pending.length > MAX_DOM) ui.pending.splice(0, ui.pending.length - MAX_DOM);
  return ui.rawBatches.length > 0;
}

let drawTimer = null;
let lastDraw = 0;

// scheduleLogDraw draws new lines at most every DRAW_EVERY ms: a flood of
// output costs a few redraws a second, not one per batch.
const DRAW_EVERY = 100;

function scheduleLogDraw() {
  if (drawTimer) return;
  const wait = Math.max(0, lastDraw + DRAW_EVERY - performance.now());
  drawTimer = setTimeout(() => { drawTimer = null; lastDraw = performance.now(); drawPending(); }, wait);
}

function lineFilter() {
  const q = $('log-search').value.toLowerCase();
  const out = $('show-stdout').checked;
  const err = $('show-stderr').checked;
  return (l) => (l.stream === 'stderr' ? err : out || l.stream !== 'stdout') && (!q || l.text.toLowerCase().includes(q));
}

// drawPending adds the lines received since the last frame, keeping at
// most MAX_DOM in the page; while the user reads above the tail, it only
// counts them.
function drawPending() {
  const t0 = performance.now();
  if (takeBatches()) scheduleLogDraw();
  ui.parseMs = Math.max(ui.parseMs || 0, performance.now() - t0);
  const match = lineFilter();
  const fresh = ui.pending.filter(match);
  ui.pending = [];
  if (!ui.following) {
    ui.unseen += fresh.length;
    $('follow').textContent = '▼ follow (' + ui.unseen + ' new)';
    return;
  }
  const logs = $('logs');
  const frag = document.createDocumentFragment();
  for (const l of fresh.slice(-MAX_DOM)) frag.appendChild(lineElement(l));
  if (fresh.length >= MAX_DOM) logs.replaceChildren(frag);
  else {
    logs.appendChild(frag);
    let extra = logs.childElementCount - MAX_DOM;
    while (extra-- > 0) logs.firstElementChild.remove();
  }
  const t1 = performance.now();
  logs.scrollTop = logs.scrollHeight;
  ui.scrollMs = Math.max(ui.scrollMs || 0, performance.now() - t1);
  $('log-count').textContent = ui.lines.length + ' lines';
  ui.drawMs = Math.max(ui.drawMs || 0, performance.now() - t0);
}

function redrawLogs() {
  const logs = $('logs');
  logs.textContent = '';
  ui.pending = [];
  const match = lineFilter();
  const hits = [];
  for (let i = ui.lines.length - 1; i >= 0 && hits.length < MAX_DOM; i--) if (match(ui.lines[i])) hits.push(ui.lines[i]);
  const frag = document.createDocumentFragment();
  for (let i = hits.length - 1; i >= 0; i--) frag.appendChild(lineElement(hits[i]));
  logs.appendChild(frag);
  logs.scrollTop = logs.scrollHeight;
  $('log-count').textContent = hits.length + (hits.length === MAX_DOM ? '+' : '') + ' of ' + ui.lines.length + ' lines';
}

function lineElement(l) {
  const div = document.createElement('div');
  div.className = 'line' + (l.stream === 'stderr' ? ' err' : l.stream === 'procs' ? ' procs' : '');
  div.title = l.stream + ' · ' + l.time + (l.run ? ' · run ' + l.run : '');
  for (const s of l.spans) {
    if (!s.fg && !s.bg && !s.b && !s.d && !s.i && !s.u && !s.r) {
      div.appendChild(document.createTextNode(s.t));
      continue;
    }
    const span = document.createElement('span');
    span.textContent = s.t;
    let fg = s.fg;
    let bg = s.bg;
    if (s.r) { fg = s.bg || 'c0'; bg = s.fg || 'c7'; }
    paint(span, 'fg', 'color', fg);
    paint(span, 'bg', 'background', bg);
    for (const k of ['b', 'd', 'i', 'u']) if (s[k]) span.classList.add(k);
    div.appendChild(span);
  }
  return div;
}

function paint(el, prefix, prop, colour) {
  if (!colour) return;
  if (colour[0] === '#') el.style[prop] = colour;
  else el.classList.add(prefix + '-' + colour);
}

function setFollowing(on) {
  ui.following = on;
  $('follow').hidden = on;
  if (on) {
    if (ui.unseen) { ui.unseen = 0; redrawLogs(); }
    const logs = $('logs');
    logs.scrollTop = logs.scrollHeight;
  }
}

function onLogScroll() {
  const logs = $('logs');
  const atBottom = logs.scrollTop + logs.clientHeight >= logs.scrollHeight - 8;
  if (atBottom !== ui.following) setFollowing(atBottom);
}

// ---- keys and controls ----

function move(step) {
  const visible = ui.order.filter((n) => { const r = ui.rows.get(n); return r && !r.tr.hidden; });
  if (!visible.length) return;
  const i = visible.indexOf(ui.selected);
  const next = visible[Math.max(0, Math.min(visible.length - 1, i < 0 ? 0 : i + step))];
  select(next);
}

function toggleTheme() {
  const root = document.documentElement;
  const dark = root.dataset.theme ? root.dataset.theme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  root.dataset.theme = dark ? 'light' : 'dark';
  localStorage.setItem('procs-theme', root.dataset.theme);
}

function onKey(e) {
  const inBox = ['INPUT', 'TEXTAREA'].includes(document.activeElement.tagName);
  if (e.key === 'Escape') {
    $('help').hidden = true;
    if (inBox) document.activeElement.blur();
    return;
  }
  if (inBox || e.ctrlKey || e.metaKey || e.altKey) return;
  const p = ui.procs.get(ui.selected);
  const keys = {
    j: () => move(1), k: () => move(-1), ArrowDown: () => move(1), ArrowUp: () => move(-1),
    r: () => act('restart'), s: () => act('start'), x: () => act('stop'),
    p: () => p && p.idle && idleAction(p.idle.paused ? 'resume' : 'pause'),
    '/': () => $('log-search').focus(), i: () => p && p.pty && $('send-text').focus(),
    f: () => setFollowing(true), g: toggleGraph, t: toggleTheme,
    '?': () => { $('help').hidden = !$('help').hidden; },
  };
  const fn = keys[e.key];
  if (fn) { e.preventDefault(); fn(); }
}

function wire() {
  const theme = localStorage.getItem('procs-theme');
  if (theme) document.documentElement.dataset.theme = theme;
  document.addEventListener('keydown', onKey);
  $('proc-filter').addEventListener('input', applyProcFilter);
  $('toggle-graph').addEventListener('click', toggleGraph);
  $('toggle-theme').addEventListener('click', toggleTheme);
  $('toggle-help').addEventListener('click', () => { $('help').hidden = !$('help').hidden; });
  $('b-restart').addEventListener('click', () => act('restart'));
  $('b-start').addEventListener('click', () => act('start'));
  $('b-stop').addEventListener('click', () => act('stop'));
  $('b-pause').addEventListener('click', () => idleAction('pause'));
  $('b-resume').addEventListener('click', () => idleAction('resume'));
  $('send').addEventListener('submit', (e) => {
    e.preventDefault();
    const box = $('send-text');
    send(box.value, true, $('send-force').checked).then(() => { box.value = ''; });
  });
  for (const b of document.querySelectorAll('#send [data-key]')) {
    b.addEventListener('click', () => {
      const k = b.dataset.key;
      send(KEYS[k], k === 'enter', true);
    });
  }
  $('logs').addEventListener('scroll', onLogScroll, { passive: true });
  $('follow').addEventListener('click', () => setFollowing(true));
  for (const id of ['log-search', 'show-stdout', 'show-stderr']) $(id).addEventListener('input', redrawLogs);
  setInterval(() => {
    for (const name of ui.order) { const p = ui.procs.get(name); const row = ui.rows.get(name); if (p && row) set(row, 'uptime', uptime(p)); }
    if (!$('term').hidden) refreshScreen();
  }, 1000);
  connectEvents();
}

wire();
