// The selected process: its state, buttons, last result and terminal.
'use strict';

// ---- the selected process ----

function select(name) {
  if (name === ui.selected && !ui.allLogs) return;
  ui.allLogs = false;
  const old = ui.selected && ui.rows.get(ui.selected);
  if (old) old.tr.classList.remove('selected');
  ui.selected = name;
  $('detail').hidden = !name;
  if (!name) { closeLogs(); return; }
  const row = ui.rows.get(name);
  if (row) { row.tr.classList.add('selected'); row.tr.scrollIntoView({ block: 'nearest' }); }
  $('d-result').hidden = true;
  ui.resultSeq++;
  ui.answered = null;
  $('send-msg').textContent = '';
  drawDetail();
  openLogs(name);
  loadResult();
  refreshScreen();
}

function drawDetail() {
  if (ui.allLogs) { drawAllDetail(); return; }
  const p = ui.procs.get(ui.selected);
  if (!p) return;
  $('d-state').hidden = false;
  $('b-restart').hidden = false;
  $('b-stop').hidden = false;
  // Starting what runs does nothing: the button is for what does not.
  $('b-start').hidden = running(p);
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
  const sched = p.schedule;
  $('d-schedule').hidden = !sched;
  if (sched) $('d-schedule').textContent = scheduleLine(sched);
  // A terminal shows its screen and takes text; an agent CLI in its JSON
  // mode that reads prompts takes text, sent as protocol messages.
  const term = $('term');
  const wasHidden = $('screen').hidden;
  term.hidden = !p.pty && !takesPrompts(p);
  $('screen').hidden = !p.pty;
  if (p.pty && wasHidden) refreshScreen();
}

// takesPrompts says the process is an agent session that reads prompts.
function takesPrompts(p) {
  return !!(p.agent && p.agent.takesInput);
}

// scheduleLine is a scheduled task's schedule and last run:
// "every 30m · last: completed (exit 0) at 13:30:00 · 2 skipped".
function scheduleLine(s) {
  const last = s.lastRun && ('last: ' + s.lastRun.state +
    (s.lastRun.exitCode !== undefined && s.lastRun.exitCode !== null ? ' (exit ' + s.lastRun.exitCode + ')' : '') +
    ' at ' + clockTime(new Date(s.lastRun.endedAt)));
  return [s.spec, last, s.skipped && s.skipped + ' skipped', s.missed && s.missed + ' missed'].filter(Boolean).join(' · ');
}

// loadResult shows the result of the process's current state (success,
// message, its last lines), the one `procs wait` would give now.
function loadResult() {
  const p = ui.procs.get(ui.selected);
  if (ui.allLogs || !p || ['pending', 'blocked', 'starting', 'stopping'].includes(p.state)) return;
  const name = p.name;
  const seq = ui.resultSeq;
  if (ui.acting) return; // the action's own result comes
  const a = ui.answered;
  if (a && a.name === name && a.run === p.run && a.state === p.state) return; // it is shown
  return api('GET', procPath(name, 'wait') + '?for=' + encodeURIComponent(p.state) + '&timeout=2s')
    .then((res) => { if (name === ui.selected && seq === ui.resultSeq) showResult(res, 'last result', false); })
    .catch(() => {});
}

// showResult draws a wait's result; timed says the wait's duration means
// something (an action's), not a look at a state already reached.
function showResult(res, title, timed = true) {
  const box = $('d-result');
  box.hidden = false;
  // A wait for the current state succeeds even when that state is failed.
  const ok = res.success && !['failed', 'unhealthy', 'backoff'].includes(res.state);
  box.className = 'result' + (ok ? '' : ' fail');
  box.textContent = '';
  const head = document.createElement('div');
  head.textContent = title + ': ' + (ok ? '✓ ' : '✗ ') + res.state + ' (run ' + res.run + ')' +
    (res.message ? ' — ' + res.message : '') + (timed && res.durationMs ? ' (took ' + res.durationMs + ' ms)' : '');
  box.appendChild(head);
  if (res.logs && res.logs.length) {
    const pre = document.createElement('pre');
    pre.textContent = res.logs.join('\n');
    box.appendChild(pre);
  }
}

function act(action) {
  const name = ui.selected;
  if (!name || ui.allLogs) return;
  const box = $('d-result');
  box.hidden = false;
  box.className = 'result';
  box.textContent = action + ' ' + name + '…';
  ui.resultSeq++;
  ui.acting = true;
  api('POST', procPath(name, action) + '?timeout=120s')
    .finally(() => { ui.acting = false; ui.resultSeq++; })
    .then((res) => {
      if (name !== ui.selected) return;
      ui.answered = { name, run: res.run, state: res.state };
      showResult(res, action);
    })
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
  if (ui.allLogs || !p || !p.pty || screenBusy) return;
  screenBusy = true;
  const name = p.name;
  api('GET', '/ui/screen?proc=' + encodeURIComponent(name))
    .then((s) => { if (name === ui.selected) drawScreen(s); })
    .catch((err) => { if (name === ui.selected) { lastScreen = ''; $('screen').textContent = '(' + err.message + ')'; } })
    .finally(() => { screenBusy = false; });
}

let lastScreen = '';

// drawScreen shows the screen at its size, in its colours, with the
// cursor; a screen taller than the box scrolls to its bottom, where
// prompts and cursors usually are.
function drawScreen(s) {
  const pre = $('screen');
  const key = JSON.stringify([s.lines, s.cursor]);
  if (key === lastScreen) return;
  lastScreen = key;
  pre.style.height = (s.rows * 1.25 + 1) + 'em';
  const frag = document.createDocumentFragment();
  s.lines.forEach((spans, row) => {
    if (row > 0) frag.appendChild(document.createTextNode('\n'));
    appendSpans(frag, s.cursor && s.cursor.row === row ? withCursor(spans, s.cursor.col) : spans);
  });
  if (s.cursor && s.cursor.row >= s.lines.length) {
    for (let row = s.lines.length; row <= s.cursor.row; row++) frag.appendChild(document.createTextNode('\n'));
    appendSpans(frag, withCursor([], s.cursor.col));
  }
  pre.textContent = '';
  pre.appendChild(frag);
  pre.scrollTop = pre.scrollHeight;
}

// withCursor splits spans so that the character at col (a blank past the
// end of the row) is a span of its own marked as the cursor.
function withCursor(spans, col) {
  const out = [];
  let at = 0;
  let placed = false;
  for (const s of spans) {
    const chars = Array.from(s.t);
    if (placed || col < at || col >= at + chars.length) {
      out.push(s);
      at += chars.length;
      continue;
    }
    const i = col - at;
    if (i > 0) out.push({ ...s, t: chars.slice(0, i).join('') });
    out.push({ ...s, t: chars[i], cur: true });
    if (i + 1 < chars.length) out.push({ ...s, t: chars.slice(i + 1).join('') });
    at += chars.length;
    placed = true;
  }
  if (!placed) {
    if (col > at) out.push({ t: ' '.repeat(col - at) });
    out.push({ t: ' ', cur: true });
  }
  return out;
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
