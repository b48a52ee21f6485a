// The lab's WebTransport client, run by a real browser: the test case from GET /config, the
// upstream file protocol ("GET name"; uni: answer "PUSH name\n"+bytes on a new uni stream; bidi:
// bytes on the same stream; datagram: "PUSH name\n"+bytes), files saved and served through the
// driver (POST /save, GET /www), the verdict posted to /done.
'use strict';

const enc = new TextEncoder();
const dec = new TextDecoder();

async function wwwFile(path) {
  const r = await fetch('/www?path=' + encodeURIComponent(path));
  if (!r.ok) throw new Error(`/www/${path}: ${r.status} ${await r.text()}`);
  return new Uint8Array(await r.arrayBuffer());
}

async function readAll(readable) {
  const reader = readable.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    chunks.push(value);
    n += value.length;
  }
  const out = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

async function writeAll(writable, ...parts) {
  const w = writable.getWriter();
  for (const p of parts) await w.write(p);
  await w.close();
}

// parsePush splits "PUSH name\n"+bytes.
function parsePush(buf) {
  const nl = buf.indexOf(10);
  const head = nl < 0 ? '' : dec.decode(buf.subarray(0, nl));
  if (!head.startsWith('PUSH ')) throw new Error(`not a PUSH (${buf.length} bytes)`);
  return [head.slice(5).trim(), buf.subarray(nl + 1)];
}

function parseGet(buf) {
  const s = dec.decode(buf);
  if (!s.startsWith('GET ')) throw new Error(`not a GET: ${JSON.stringify(s.slice(0, 40))}`);
  return s.slice(4).trim();
}

// sessions groups REQUESTS by endpoint: https://server4:443/<endpoint>[/<file>].
function sessions(requests) {
  const byEndpoint = new Map();
  for (const req of requests) {
    const u = new URL(req);
    const [endpoint, ...rest] = u.pathname.replace(/^\/+/, '').split('/');
    if (!byEndpoint.has(endpoint)) byEndpoint.set(endpoint, {url: `${u.origin}/${endpoint}`, endpoint, files: []});
    if (rest.length && rest.join('/')) byEndpoint.get(endpoint).files.push(rest.join('/'));
  }
  return [...byEndpoint.values()];
}

async function open(cfg, url) {
  const opts = {serverCertificateHashes: [{algorithm: 'sha-256', value: cfg.hash}]};
  if (cfg.protocols.length) opts.protocols = cfg.protocols;
  const wt = new WebTransport(url, opts);
  await wt.ready;
  // Keep datagrams queued rather than dropped when they wait (the browser's default age limit
  // is about a round trip): the lab's peer waits for every answer.
  if ('outgoingMaxAge' in wt.datagrams) wt.datagrams.outgoingMaxAge = 10000;
  if ('incomingMaxAge' in wt.datagrams) wt.datagrams.incomingMaxAge = 10000;
  log(`session ${url} ready` + (wt.protocol !== undefined ? `, protocol ${JSON.stringify(wt.protocol)}` : ''));
  return wt;
}

// close ends the session cleanly (the server waits for it) and waits until it is closed.
async function close(wt) {
  wt.close({closeCode: 0, reason: 'done'});
  await wt.closed.catch(() => {});
}

async function handshake(cfg, s) {
  const wt = await open(cfg, s.url);
  if (cfg.protocols.length && !wt.protocol) {
    throw new Error(wt.protocol === undefined ? 'the browser has no WebTransport.protocol' : 'no protocol negotiated');
  }
  await save('negotiated_protocol.txt', enc.encode(wt.protocol || ''));
  await close(wt);
}

async function uniReceive(cfg, s) {
  const wt = await open(cfg, s.url);
  const want = new Set(s.files);
  const requests = s.files.map(async f => {
    const st = await wt.createUnidirectionalStream();
    await writeAll(st, enc.encode('GET ' + f));
  });
  const answers = (async () => {
    const reader = wt.incomingUnidirectionalStreams.getReader();
    const saves = [];
    for (let i = 0; i < s.files.length; i++) {
      const {value, done} = await reader.read();
      if (done) throw new Error(`the session ended after ${i} of ${s.files.length} pushes`);
      saves.push(readAll(value).then(buf => {
        const [name, body] = parsePush(buf);
        if (!want.delete(name)) throw new Error(`unexpected PUSH ${name}`);
        return save(`${s.endpoint}/${name}`, body);
      }));
    }
    await Promise.all(saves);
  })();
  await Promise.all([...requests, answers]);
  await close(wt);
}

async function bidiReceive(cfg, s) {
  const wt = await open(cfg, s.url);
  await Promise.all(s.files.map(async f => {
    const st = await wt.createBidirectionalStream();
    const [, body] = await Promise.all([writeAll(st.writable, enc.encode('GET ' + f)), readAll(st.readable)]);
    await save(`${s.endpoint}/${f}`, body);
  }));
  await close(wt);
}

async function datagramReceive(cfg, s) {
  const wt = await open(cfg, s.url);
  const want = new Set(s.files);
  const reader = wt.datagrams.readable.getReader();
  const answers = (async () => {
    const saves = [];
    while (want.size) {
      const {value, done} = await reader.read();
      if (done) throw new Error(`the session ended with ${want.size} of ${s.files.length} datagram answers missing`);
      const [name, body] = parsePush(value);
      if (want.delete(name)) saves.push(save(`${s.endpoint}/${name}`, body));
    }
    await Promise.all(saves);
  })();
  const writer = wt.datagrams.writable.getWriter();
  for (const f of s.files) {
    await writer.write(enc.encode('GET ' + f));
    await new Promise(r => setTimeout(r, cfg.datagramGapMs)); // pacing, not synchronization
  }
  // Datagrams may be lost: answers that have not come 10 s after the last GET will not.
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${want.size} of ${s.files.length} datagram answers missing 10 s after the last GET`)), 10000);
  });
  try {
    await Promise.race([answers, late]);
  } finally {
    clearTimeout(timer);
  }
  await close(wt);
}

// transfer answers the server's GETs on all three transports until the server closes the
// session.
async function transfer(cfg, s) {
  const wt = await open(cfg, s.url);
  const dgramWriter = wt.datagrams.writable.getWriter(); // one writer: a stream has one lock
  let answered = 0, failed = 0;
  const answer = p => p.then(() => answered++, e => { failed++; log(`answer failed: ${e}`); });
  const accept = async (streams, handle) => {
    const reader = streams.getReader();
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return;
      answer(handle(value));
    }
  };
  const loops = [
    accept(wt.incomingBidirectionalStreams, async st => {
      const name = parseGet(await readAll(st.readable));
      await writeAll(st.writable, await wwwFile(`${s.endpoint}/${name}`));
    }),
    accept(wt.incomingUnidirectionalStreams, async st => {
      const name = parseGet(await readAll(st));
      const body = await wwwFile(`${s.endpoint}/${name}`);
      await writeAll(await wt.createUnidirectionalStream(), enc.encode(`PUSH ${name}\n`), body);
    }),
    accept(wt.datagrams.readable, async dgram => {
      const name = parseGet(dgram);
      const body = await wwwFile(`${s.endpoint}/${name}`);
      const msg = new Uint8Array(enc.encode(`PUSH ${name}\n`).length + body.length);
      msg.set(enc.encode(`PUSH ${name}\n`));
      msg.set(body, msg.length - body.length);
      await dgramWriter.write(msg);
    }),
  ];
  // Not waited for: when the session closes, Chromium errors the incoming streams, Firefox
  // leaves them pending.
  loops.forEach(l => l.catch(() => {}));
  const how = await wt.closed.then(i => `closed (${JSON.stringify(i)})`, e => `closed with ${e}`);
  log(`session ${how} after ${answered} answers, ${failed} failed`);
}

const cases = {
  'handshake': handshake,
  'transfer': transfer,
  'transfer-unidirectional-receive': uniReceive,
  'transfer-bidirectional-receive': bidiReceive,
  'transfer-datagram-receive': datagramReceive,
};

async function main() {
  const raw = await (await fetch('/config')).json();
  const cfg = {...raw, hash: Uint8Array.from(atob(raw.certHash), c => c.charCodeAt(0))};
  const run = cases[cfg.testcase];
  if (!run) throw new Error(`test case ${cfg.testcase} not implemented`);
  if (typeof WebTransport === 'undefined') throw new Error('this browser has no WebTransport here');
  log(`${navigator.userAgent}: ${cfg.testcase}`);
  // All sessions in parallel (upstream: on one connection, as the browser pools them).
  await Promise.all(sessions(cfg.requests).map(s => run(cfg, s)));
}

report(main());
