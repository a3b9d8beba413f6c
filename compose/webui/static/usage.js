// What each process uses: the CPU and MEM cells, and a sparkline of the
// CPU of the last five minutes per process, from GET /v1/usage. procs
// measures only while someone looks; this page looks while it is visible,
// asking every interval procs measures at (2 s), and stops when hidden.
'use strict';

const USAGE_POINTS = 150; // as procs keeps: five minutes at 2 s
const SPARK_W = 80;
const SPARK_H = 16;
const SVG_NS = 'http://www.w3.org/2000/svg';

const usage = {
  seq: 0, // the last measure received; the next ask is for later ones
  history: new Map(), // name -> [{seq, cpu, mem}], oldest first
  timer: null,
  busy: false,
};

// pollUsage asks for the measures since the last one, updates the
// processes' usage and redraws the usage cells.
function pollUsage() {
  usage.timer = null;
  if (document.hidden || usage.busy) { scheduleUsage(); return; }
  usage.busy = true;
  api('GET', '/v1/usage?after=' + usage.seq).then((h) => {
    usage.seq = h.seq;
    for (const [name, points] of Object.entries(h.procs || {})) {
      const kept = usage.history.get(name) || [];
      kept.push(...points);
      if (kept.length > USAGE_POINTS) kept.splice(0, kept.length - USAGE_POINTS);
      usage.history.set(name, kept);
      const last = points[points.length - 1];
      const p = ui.procs.get(name);
      // A point of the latest measure is the process's usage now.
      if (p && last.seq === h.seq && p.pid) { p.cpuPercent = last.cpu; p.memoryBytes = last.mem; }
    }
    for (const name of usage.history.keys()) if (!ui.procs.has(name)) usage.history.delete(name);
    for (const name of ui.order) { const row = ui.rows.get(name); const p = ui.procs.get(name); if (row && p) drawUsage(row, p); }
  }).catch(() => {}).finally(() => { usage.busy = false; scheduleUsage(); });
}

function scheduleUsage() {
  if (!usage.timer) usage.timer = setTimeout(pollUsage, 2000);
}

document.addEventListener('visibilitychange', () => {
  if (!document.hidden && !usage.busy) { clearTimeout(usage.timer); pollUsage(); }
});

// drawUsage fills the CPU, MEM and sparkline cells of a process's row: "-"
// when procs does not know (the process does not run), never 0.
function drawUsage(row, p) {
  const known = !!p.pid;
  set(row, 'cpu', known && p.cpuPercent !== undefined ? p.cpuPercent.toFixed(1) + '%' : '-');
  set(row, 'mem', known && p.memoryBytes ? formatBytes(p.memoryBytes) : '-',
    known && p.memoryPeakBytes ? 'peak ' + formatBytes(p.memoryPeakBytes) : '');
  drawSpark(row, usage.history.get(p.name) || []);
}

// drawGroupUsage sums the instances of a replicated process in its row.
function drawGroupUsage(group, members) {
  let cpu, mem = 0;
  for (const p of members) {
    if (!p.pid) continue;
    if (p.cpuPercent !== undefined) cpu = (cpu || 0) + p.cpuPercent;
    mem += p.memoryBytes || 0;
  }
  set(group, 'cpu', cpu === undefined ? '-' : cpu.toFixed(1) + '%');
  set(group, 'mem', mem ? formatBytes(mem) : '-');
}

// drawSpark draws the CPU of the points as a line, time running to the
// right edge, 100 % (or the highest, when above) at the top.
function drawSpark(row, points) {
  const key = points.length ? points.length + ':' + points[points.length - 1].seq : '';
  if (row.key.spark === key) return;
  row.key.spark = key;
  const td = row.cells.spark;
  td.textContent = '';
  if (points.length < 2) return;
  const top = Math.max(100, ...points.map((q) => q.cpu));
  const step = SPARK_W / (USAGE_POINTS - 1);
  const x0 = SPARK_W - (points.length - 1) * step;
  const d = points.map((q, i) => (i ? 'L' : 'M') + (x0 + i * step).toFixed(1) + ' ' +
    (SPARK_H - 1 - (q.cpu / top) * (SPARK_H - 2)).toFixed(1)).join('');
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'spark');
  svg.setAttribute('width', SPARK_W);
  svg.setAttribute('height', SPARK_H);
  svg.setAttribute('viewBox', '0 0 ' + SPARK_W + ' ' + SPARK_H);
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('d', d);
  svg.appendChild(path);
  td.appendChild(svg);
  const cpus = points.map((q) => q.cpu);
  td.title = 'CPU over the last ' + Math.round(points.length * 2 / 60) + ' min: ' +
    Math.min(...cpus).toFixed(1) + '–' + Math.max(...cpus).toFixed(1) + '%';
}

// formatBytes writes a size as procs status does: "840K", "212M", "1.2G".
function formatBytes(n) {
  const units = 'BKMGTPE';
  let value = n, unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1024; unit++; }
  if (value < 10 && unit > 0) return value.toFixed(1) + units[unit];
  return Math.round(value) + units[unit];
}
