// What both client pages share: the driver's endpoints (log lines, files saved under /downloads,
// the verdict posted to /done).
'use strict';

function log(msg) {
  fetch('/log', {method: 'POST', body: String(msg)});
}

async function post(path, body) {
  const r = await fetch(path, {method: 'POST', body});
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
}

const save = (path, bytes) => post('/save?path=' + encodeURIComponent(path), bytes);

// report posts the outcome of the page's run to the driver.
function report(run) {
  run.then(
    () => post('/done', JSON.stringify({ok: true})),
    e => post('/done', JSON.stringify({ok: false, why: String(e && e.stack ? `${e}` : e)})),
  );
}
