// What the client pages share: the driver's endpoints (log lines, files saved under /downloads,
// the verdict posted to /done).
'use strict';

// The driver's origin: the page's own (''), or the driver's address where these scripts run in
// Firefox's extension (its driver.js sets it; images/browser/driver/extension.go says why).
const driver = self.wirelabDriver || '';

function log(msg) {
  fetch(driver + '/log', {method: 'POST', body: String(msg)});
}

async function post(path, body) {
  const r = await fetch(driver + path, {method: 'POST', body});
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
}

const save = (path, bytes) => post('/save?path=' + encodeURIComponent(path), bytes);

// report posts the outcome of the page's run to the driver (with what the run returned).
function report(run) {
  run.then(
    v => post('/done', JSON.stringify(Object.assign({ok: true}, v || {}))),
    e => post('/done', JSON.stringify({ok: false, why: String(e && e.stack ? `${e}` : e)})),
  );
}
