// Replicated processes in the table: a group row above the instances of
// each (worker above worker-1…worker-3), summing them up as procs status
// does. A group row is not a process: it is never selected, and a click
// on it selects its first instance.
'use strict';

// gatherReplicas orders the list so that every instance of a replicated
// process follows its first one; the rest keeps the API's order.
function gatherReplicas(list) {
  const groups = [];
  const at = new Map();
  for (const p of list) {
    if (!p.replicaOf) { groups.push([p]); continue; }
    if (!at.has(p.replicaOf)) { at.set(p.replicaOf, groups.length); groups.push([]); }
    groups[at.get(p.replicaOf)].push(p);
  }
  return groups.flat();
}

// updateGroups finds each replicated process's instances in ui.order,
// makes the group rows it lacks, drops those of processes gone, and marks
// each instance row (the last one ends the tree).
function updateGroups() {
  const members = new Map();
  for (const name of ui.order) {
    const p = ui.procs.get(name);
    if (!p || !p.replicaOf) continue;
    if (!members.has(p.replicaOf)) members.set(p.replicaOf, []);
    members.get(p.replicaOf).push(name);
  }
  for (const [of, group] of ui.groups) if (!members.has(of)) { group.tr.remove(); ui.groups.delete(of); }
  for (const [of, names] of members) {
    const group = ui.groups.get(of) || makeGroupRow(of);
    group.members = names;
    names.forEach((name, i) => {
      const row = ui.rows.get(name) || makeRow(name);
      row.tr.classList.add('instance');
      row.tr.classList.toggle('last', i === names.length - 1);
    });
  }
}

// groupAbove is the group row drawn above the row of name: its process's,
// when name is its first instance.
function groupAbove(name) {
  const p = ui.procs.get(name);
  const group = p && p.replicaOf && ui.groups.get(p.replicaOf);
  return group && group.members[0] === name ? group : null;
}

function makeGroupRow(of) {
  const tr = document.createElement('tr');
  tr.className = 'group';
  tr.dataset.group = of;
  const cells = makeCells(tr);
  cells.name.textContent = of;
  const group = { tr, cells, key: {}, members: [] };
  tr.addEventListener('click', () => { if (group.members.length) select(group.members[0]); });
  ui.groups.set(of, group);
  return group;
}

// drawGroup sums up the instances in the group row, touching only the
// cells whose text changes (set, in table.js).
function drawGroup(group) {
  const members = group.members.map((n) => ui.procs.get(n)).filter(Boolean);
  const counts = new Map();
  let restarts = 0;
  const ports = [];
  for (const p of members) {
    counts.set(p.state, (counts.get(p.state) || 0) + 1);
    restarts += p.restarts || 0;
    ports.push(...(p.ports || []));
  }
  const states = [...counts].map(([state, n]) => [state, counts.size === 1 ? state : n + ' ' + state]);
  const stateKey = states.map(([, text]) => text).join(', ');
  if (group.key.state !== stateKey) {
    group.key.state = stateKey;
    const td = group.cells.state;
    td.textContent = '';
    states.forEach(([state, text], i) => {
      if (i) td.append(', ');
      const st = document.createElement('span');
      st.className = 'state s-' + state;
      st.textContent = text;
      td.appendChild(st);
    });
  }
  drawGroupUsage(group, members);
  set(group, 'ports', portRanges(ports.sort((a, b) => a - b)));
  set(group, 'restarts', String(restarts));
  set(group, 'msg', members.length + (members.length === 1 ? ' replica' : ' replicas'));
}

// portRanges writes sorted ports with each run of consecutive ones as a
// range, "8001-8003, 9000": the instances of a process have port+i-1.
function portRanges(ports) {
  const parts = [];
  for (let i = 0; i < ports.length;) {
    let end = i;
    while (end + 1 < ports.length && ports[end + 1] === ports[end] + 1) end++;
    parts.push(end > i ? ports[i] + '-' + ports[end] : String(ports[i]));
    i = end + 1;
  }
  return parts.join(', ');
}

const changedGroups = new Set();

// groupChanged redraws a group row once, however many of its instances
// change in this task (a list refresh draws every row).
function groupChanged(of) {
  if (!changedGroups.size) {
    queueMicrotask(() => {
      for (const name of changedGroups) { const g = ui.groups.get(name); if (g) drawGroup(g); }
      changedGroups.clear();
    });
  }
  changedGroups.add(of);
}

// filterGroups hides a group row whose instances the filter all hides.
function filterGroups() {
  for (const group of ui.groups.values()) {
    group.tr.hidden = group.members.every((n) => { const r = ui.rows.get(n); return !r || r.tr.hidden; });
  }
}
