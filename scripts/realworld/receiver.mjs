#!/usr/bin/env node
// A stand-in CRM for checking revimport's output: accepts POST /api/revenues with any X-API-KEY,
// answers 200 {}, and appends every record of each body (a JSON array) as one line to a JSON-lines
// file. Prints its base URL on stdout (give it to revimport as baseUrl). node:http and node:fs only.
//
//   node receiver.mjs <out.jsonl> [port]        (port 0 or absent: any free port)
//
// Bodies that are not a JSON array of objects get 400 and are written to <out.jsonl>.rejected.
// Stops on SIGINT/SIGTERM.

import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [outPath, portArg] = process.argv.slice(2);
if (!outPath) {
  process.stderr.write('usage: node receiver.mjs <out.jsonl> [port]\n');
  process.exit(2);
}
writeFileSync(outPath, '');
let requests = 0;
let records = 0;

const server = createServer((req, res) => {
  const path = (req.url ?? '').split('?')[0].replace(/\/+$/, '');
  if (req.method !== 'POST' || !path.endsWith('/api/revenues')) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":"not found"}');
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!Array.isArray(body) || body.some((r) => r === null || typeof r !== 'object' || Array.isArray(r))) {
      appendFileSync(`${outPath}.rejected`, `${text}\n`);
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":"body must be a JSON array of records"}');
      return;
    }
    requests += 1;
    records += body.length;
    if (body.length > 0) appendFileSync(outPath, `${body.map((r) => JSON.stringify(r)).join('\n')}\n`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});

server.listen(Number(portArg ?? 0), '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`http://127.0.0.1:${port}\n`);
});

const stop = () => {
  process.stderr.write(`receiver: ${requests} requests, ${records} records -> ${outPath}\n`);
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
