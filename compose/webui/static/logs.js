// The live log of the selected process: bounded, searchable, following
// the tail until the user scrolls up.
'use strict';

// ---- logs ----

function closeLogs() {
  if (ui.logSource) { ui.logSource.close(); ui.logSource = null; }
}

// openLogs streams the lines of one process, or of every one when name is null.
function openLogs(name) {
  closeLogs();
  ui.lines = [];
  ui.pending = [];
  ui.rawBatches = [];
  ui.unseen = 0;
  $('logs').textContent = '';
  $('log-count').textContent = '';
  setFollowing(true);
  const es = new EventSource('/ui/logs?' + (name === null ? 'all=1' : 'proc=' + encodeURIComponent(name)) + '&tail=1000');
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
      l.text = (l.proc ? l.proc + ' | ' : '') + l.spans.map((s) => s.t).join('');
      ui.lines.push(l);
      ui.pending.push(l);
    }
  }
  if (ui.lines.length > MAX_LINES) ui.lines.splice(0, ui.lines.length - MAX_LINES);
  if (ui.pending.length > MAX_DOM) ui.pending.splice(0, ui.pending.length - MAX_DOM);
  return ui.rawBatches.length > 0;
}

const FLOOD_DRAW = 200;

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
  // In a flood, only the last FLOOD_DRAW lines are drawn: laying out more
  // would hold up the page, and search still sees every kept line.
  const flood = fresh.length >= FLOOD_DRAW;
  for (const l of fresh.slice(flood ? -FLOOD_DRAW : -MAX_DOM)) frag.appendChild(lineElement(l));
  if (flood) logs.replaceChildren(frag);
  else {
    logs.appendChild(frag);
    let extra = logs.childElementCount - MAX_DOM;
    while (extra-- > 0) logs.firstElementChild.remove();
  }
  const t1 = performance.now();
  scrollToTail(logs);
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
  scrollToTail(logs);
  $('log-count').textContent = hits.length + (hits.length === MAX_DOM ? '+' : '') + ' of ' + ui.lines.length + ' lines';
}

function lineElement(l) {
  const div = document.createElement('div');
  div.className = 'line' + (l.stream === 'stderr' ? ' err' : l.stream === 'procs' ? ' procs' : '');
  div.title = l.stream + ' · ' + l.time + (l.run ? ' · run ' + l.run : '');
  if (l.proc) div.appendChild(procPrefix(l.proc));
  appendSpans(div, l.spans);
  return div;
}

// appendSpans draws styled spans (as /ui/logs and /ui/screen send them)
// into el: plain text as text, the rest as spans with the theme's classes.
function appendSpans(el, spans) {
  for (const s of spans) {
    if (!s.fg && !s.bg && !s.b && !s.d && !s.i && !s.u && !s.r && !s.cur) {
      el.appendChild(document.createTextNode(s.t));
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
    if (s.cur) span.classList.add('cursor');
    el.appendChild(span);
  }
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
    scrollToTail($('logs'));
  }
}

// scrollToTail shows the last line, and remembers where that put the view.
function scrollToTail(logs) {
  logs.scrollTop = logs.scrollHeight;
  ui.tailTop = logs.scrollTop;
}

function onLogScroll() {
  const logs = $('logs');
  const atBottom = logs.scrollTop + logs.clientHeight >= logs.scrollHeight - 8;
  // The page's own scroll to the tail reports later, maybe after more
  // lines (or a late layout) made the log taller: only a move up from
  // where the page put the view is the reader leaving the tail.
  if (ui.following && !atBottom && logs.scrollTop >= ui.tailTop - 8) return;
  if (atBottom !== ui.following) setFollowing(atBottom);
}
