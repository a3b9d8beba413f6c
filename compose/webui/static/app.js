// The procs dashboard: a process table fed by /v1/events, and for the
// selected process its logs (/ui/logs, styled by procs), its terminal
// screen and its buttons, all through the same API as the CLI. This file
// wires keys and controls and starts it all.
'use strict';

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
    r: () => act('restart'), s: () => !$('b-start').hidden && act('start'), x: () => act('stop'),
    a: showAllLogs, R: restartAll,
    p: () => p && p.idle && idleAction(p.idle.paused ? 'resume' : 'pause'),
    '/': () => $('log-search').focus(), i: () => p && (p.pty || takesPrompts(p)) && $('send-text').focus(),
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
  $('b-all-logs').addEventListener('click', showAllLogs);
  $('b-restart-all').addEventListener('click', restartAll);
  $('b-down').addEventListener('click', downAll);
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
    for (const name of ui.order) { const p = ui.procs.get(name); const row = ui.rows.get(name); if (p && row) { set(row, 'uptime', uptime(p)); if (p.schedule) { const m = lastMessage(p); set(row, 'msg', m, m); } } }
    if (!$('term').hidden) refreshScreen();
  }, 1000);
  connectEvents();
  pollUsage();
}

wire();
