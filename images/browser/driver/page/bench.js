// make bench's download, run by a real browser: the one URL of the config fetched (a browser of
// its own per download, so a fresh connection), the whole body read, its SHA-256 reported. The
// driver reads the container's CPU time at the two marks; the times come from the NetLog.
'use strict';

const hex = bytes => Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');

async function main() {
  const cfg = await (await fetch(driver + '/config')).json();
  const url = cfg.requests[0];
  await post('/mark?at=start', '');
  const r = await fetch(url, {cache: 'no-store'});
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  const body = await r.arrayBuffer();
  await post('/mark?at=end', '');
  const digest = await crypto.subtle.digest('SHA-256', body);
  return {size: body.byteLength, sha256: hex(new Uint8Array(digest))};
}

report(main());
