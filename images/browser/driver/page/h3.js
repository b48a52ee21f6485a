// The lab's HTTP/3 client for the QUIC suite, run by a real browser: every URL of REQUESTS
// fetched at once (the browser multiplexes them on its one QUIC connection to the origin, which
// it is told to reach over QUIC only), each body saved as /downloads/<name>.
'use strict';

async function download(url) {
  const r = await fetch(url, {cache: 'no-store'});
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  const body = new Uint8Array(await r.arrayBuffer());
  await save(new URL(url).pathname.slice(1), body);
}

async function main() {
  const cfg = await (await fetch('/config')).json();
  log(`${navigator.userAgent}: ${cfg.testcase}, ${cfg.requests.length} URLs`);
  await Promise.all(cfg.requests.map(download));
}

report(main());
