// The lab's HTTP/3 client for the QUIC suite, run by a real browser: the URLs of REQUESTS fetched
// up to `parallel` at a time (the browser multiplexes them on its one QUIC connection to the
// origin, which it is told to reach over QUIC only), each body saved as /downloads/<name>.
// multiplexing's 1999 fetches started at once failed in Chromium 156 ("Failed to fetch"; its
// NetLog shows thousands of ERR_CONNECTION_CLOSED and some ERR_QUIC_PROTOCOL_ERROR under them, run
// brq-chromium), so they queue in the page.
'use strict';

async function download(url) {
  const r = await fetch(url, {cache: 'no-store'});
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  const body = new Uint8Array(await r.arrayBuffer());
  await save(new URL(url).pathname.slice(1), body);
}

async function main() {
  const cfg = await (await fetch(driver + '/config')).json();
  log(`${navigator.userAgent}: ${cfg.testcase}, ${cfg.requests.length} URLs`);
  const queue = [...cfg.requests];
  const parallel = 100;
  const worker = async () => {
    for (let url; (url = queue.shift()) !== undefined;) await download(url);
  };
  await Promise.all(Array.from({length: Math.min(parallel, queue.length)}, worker));
}

report(main());
