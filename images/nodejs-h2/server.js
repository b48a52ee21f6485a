'use strict';
// The h2 suite's node server: node's built-in http2 module with its defaults (no settings passed),
// TLS on TCP 443 with ALPN h2 and http/1.1 on the same port (allowHTTP1). Serves /www by path;
// POST/PUT /upload answers the number of body bytes received. Keys go to SSLKEYLOGFILE.
const fs = require('node:fs');
const http2 = require('node:http2');
const path = require('node:path');

const WWW = '/www';

const server = http2.createSecureServer({
  key: fs.readFileSync('/certs/priv.key'),
  cert: fs.readFileSync('/certs/cert.pem'), // leaf + CA: node sends the whole chain
  allowHTTP1: true,
});

if (process.env.SSLKEYLOGFILE) {
  const keylog = fs.createWriteStream(process.env.SSLKEYLOGFILE, { flags: 'a' });
  server.on('keylog', (line) => keylog.write(line));
}

// The compatibility API gives h2 and http/1.1 requests the same (req, res) shape.
server.on('request', (req, res) => {
  console.error(`${req.method} ${req.url} HTTP/${req.httpVersion} from ${req.socket.remoteAddress}`);
  let urlPath;
  try {
    urlPath = decodeURIComponent(new URL(req.url, 'https://server').pathname);
  } catch {
    return reply(res, 400, 'bad path\n');
  }
  if (urlPath === '/upload' && (req.method === 'POST' || req.method === 'PUT')) {
    return count(req, res);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return reply(res, 405, 'method not allowed\n');
  }
  sendFile(req, res, urlPath);
});

// count consumes the body as it arrives (each chunk read frees flow-control window) and answers
// the byte total once the client has ended the stream.
function count(req, res) {
  let n = 0;
  req.on('data', (chunk) => { n += chunk.length; });
  req.on('end', () => reply(res, 200, String(n)));
  req.on('error', (err) => console.error(`upload: ${err.message}`));
}

function sendFile(req, res, urlPath) {
  // path.join resolves "..": anything that ends up outside WWW is refused.
  const file = path.join(WWW, urlPath.endsWith('/') ? urlPath + 'index.html' : urlPath);
  if (!file.startsWith(WWW + '/')) return reply(res, 404, 'not found\n');
  fs.stat(file, (err, st) => {
    if (err || !st.isFile()) return reply(res, 404, 'not found\n');
    res.writeHead(200, {
      'content-type': file.endsWith('.html') ? 'text/html' : 'application/octet-stream',
      'content-length': st.size,
    });
    if (req.method === 'HEAD') return res.end();
    const stream = fs.createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  });
}

function reply(res, status, body) {
  res.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

// No host: node listens on "::" (dual-stack) where the container has IPv6, else on 0.0.0.0.
server.listen(443, () => {
  console.error(`nodejs-h2: node ${process.version}, serving ${WWW} on ${JSON.stringify(server.address())} (h2, http/1.1)`);
});
