// Shared state of the procs dashboard and its calls to the API; the other
// scripts (loaded in order, see index.html) draw from it.
'use strict';

const MAX_LINES = 20000; // lines kept in memory per process, for search
const MAX_DOM = 1000; // line elements in the page at most
const $ = (id) => document.getElementById(id);

const ui = {
  procs: new Map(), // name -> status (as GET /v1/procs answers)
  order: [],
  rows: new Map(), // name -> {tr, cells}
  groups: new Map(), // replicated process -> its group row {tr, cells, members} (groups.js)
  selected: null,
  allLogs: false, // the detail shows every process's log, not the selected one's
  events: null,
  lines: [], // {run, time, stream, spans, text}
  pending: [], // lines not drawn yet
  rawBatches: [], // batches received, not parsed yet
  logSource: null,
  following: true,
  tailTop: 0, // where the page last scrolled the log to show its tail
  unseen: 0,
  eventCount: 0, // state events applied, and the count at each process's last
  eventAt: new Map(),
  resultSeq: 0, // bumped by actions, so a slower "last result" does not cover their answer
  // answered is the selected process's last action answer shown, {name,
  // run, state}: the event of the state it answered may come after it (the
  // two come on two connections), and must not cover it with "last result".
  answered: null,
  acting: false,
  restarted: false, // procs was restarted: this page must be opened again
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
  if (isRestarted(resp)) showRestarted();
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

// isRestarted says whether procs refused the page because it signed in to
// an earlier run of procs: the token is new with every run.
const isRestarted = (resp) => resp.status === 401 && resp.headers.get('X-Procs-Restarted') === '1';

// showRestarted stops every stream and says how to open the page again:
// retrying can never sign in.
function showRestarted() {
  if (ui.restarted) return;
  ui.restarted = true;
  if (ui.events) { ui.events.close(); ui.events = null; }
  if (ui.logSource) { ui.logSource.close(); ui.logSource = null; }
  const c = $('conn');
  c.className = 'conn restarted';
  c.textContent = 'procs restarted: reopen with procs ui';
  $('restarted').hidden = false;
}
