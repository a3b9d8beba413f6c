// What acts on every process at once: the log of all of them, restart
// all, and down (which asks first: it ends procs and this page's source).
'use strict';

// showAllLogs shows every process's lines, interleaved as procs received
// them, each prefixed by its process's name; selecting a row leaves it.
function showAllLogs() {
  const old = ui.selected && ui.rows.get(ui.selected);
  if (old) old.tr.classList.remove('selected');
  ui.allLogs = true;
  ui.resultSeq++;
  $('detail').hidden = false;
  $('d-result').hidden = true;
  drawDetail();
  openLogs(null);
}

// drawAllDetail is the detail's head while it shows every process's log:
// no state and no buttons, which are a process's.
function drawAllDetail() {
  $('d-name').textContent = 'all processes';
  $('d-state').hidden = true;
  $('d-idle').hidden = true;
  for (const id of ['b-restart', 'b-start', 'b-stop', 'b-pause', 'b-resume']) $(id).hidden = true;
  $('d-info').textContent = 'the output of every process, as procs received it';
  $('term').hidden = true;
}

function restartAll() {
  showGlobal('restarting every process…', false);
  api('POST', '/v1/restart', { timeout: '120s' }).then((answer) => {
    const results = answer.results || [];
    const failed = results.filter((r) => !r.success);
    const text = failed.length
      ? '✗ ' + failed.map((r) => r.name + ' ' + r.state + (r.message ? ' — ' + r.message : '')).join('; ')
      : '✓ ' + results.length + ' restarted: ' + results.map((r) => r.name + ' ' + r.state).join(', ');
    showGlobal('restart all: ' + text, failed.length > 0);
  }).catch((err) => showGlobal('restart all: ' + err.message, true));
}

function downAll() {
  if (!window.confirm('Stop every process and end procs?')) return;
  api('POST', '/v1/down')
    .then(() => showGlobal('down: procs is stopping every process, then ends', false))
    .catch((err) => showGlobal('down: ' + err.message, true));
}

// showGlobal says how an action on every process went.
function showGlobal(text, failed) {
  const box = $('g-result');
  box.hidden = false;
  box.className = 'result global' + (failed ? ' fail' : '');
  box.textContent = text;
}

// procPrefix is the element that names a line's process in the log of
// every process: padded to the longest name, in a colour of its own.
function procPrefix(name) {
  const width = Math.max(...ui.order.map((n) => n.length), name.length);
  const span = document.createElement('span');
  span.className = 'pname fg-c' + (1 + hashName(name) % 6);
  span.textContent = name.padEnd(width) + ' | ';
  return span;
}

function hashName(name) {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
}
