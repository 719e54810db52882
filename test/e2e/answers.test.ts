// Answers that are not the CRM's, through the real CLI (issue #13): a firewall's HTML 400 to every
// request, a captive portal's 200 login page, an empty 200, and a 429 asking to wait. The receiver's
// store is the oracle: after a second run against a good server, every record exactly once.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ScriptedResponse } from '../../src/testing/receiver.js';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { acceptedIds, range, writeExport } from '../helpers/exports.js';

const key = 'e2e-answers-key-51f0';

const wafPage: ScriptedResponse = {
  status: 400,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: '<!DOCTYPE html><html><head><title>Request Rejected</title></head><body><p>The requested URL was rejected. Your support ID is: 9184467121</p></body></html>',
};
const loginPage: ScriptedResponse = {
  status: 200,
  headers: { 'content-type': 'text/html' },
  body: '<html><head><title>Guest Wi-Fi &ndash; Sign in</title></head><body><form action="/login"><input name="user"></form></body></html>',
};

/** What stands before the receiver while set (a firewall, a portal); unset, requests reach it. */
let interceptor: ScriptedResponse | undefined;
const e2e = useE2E({ key, startFirst: true, receiver: { intercept: () => interceptor } });

beforeEach(() => {
  interceptor = undefined;
});

function push(file: string, ...flags: string[]) {
  return runCli(['push', file, '-c', e2e.config, '--json', ...flags], {
    cwd: e2e.work,
    env: e2e.env(),
  });
}

describe('HTML and other non-JSON answers', () => {
  it('a WAF answering HTML 400 to everything: 2 requests, exit 4, nothing rejected; the next push delivers all', async () => {
    const r = e2e.receiver;
    const file = writeExport(e2e.work, 'big.csv', { to: 2000 });
    interceptor = wafPage;
    const blocked = await push(file);
    expect(blocked.code).toBe(4);
    expect(blocked.stderr).toContain(
      '/api/revenues answered HTTP 400 (text/html, title "Request Rejected") instead of JSON, even to one record sent alone',
    );
    expect(blocked.stderr).toContain('stay pending in the ledger');
    expect(blocked.stderr).not.toMatch(/<html|<title|support ID/i);
    const s1 = JSON.parse(blocked.stdout);
    expect([s1.sent, s1.rejected, s1.requests]).toEqual([0, 0, 2]);
    expect(s1.error.message).toContain('"Request Rejected"');
    // Before the fix: 3,996 requests (bisection down to single records), all 2,000 marked rejected.
    expect(r.requests.length).toBe(2);

    interceptor = undefined;
    const after = await push(file);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout).rejected).toBe(0);
    expect(acceptedIds(r.accepted)).toEqual(range(1, 2000));
  });

  it('a 200 login page is not a delivery: exit 4, the records stay outstanding and a re-run sends them', async () => {
    const r = e2e.receiver;
    const file = writeExport(e2e.work, 'a.csv', { to: 120 });
    r.script(loginPage);
    const portal = await push(file, '--batch-size', '50');
    expect(portal.code).toBe(4);
    expect(portal.stderr).toContain(
      'answered HTTP 200 (text/html, title "Guest Wi-Fi – Sign in") instead of JSON: no proof the records were stored',
    );
    expect(portal.stderr).not.toMatch(/<form|<html/);
    expect(JSON.parse(portal.stdout).sent).toBe(0);
    expect(r.requests).toHaveLength(1);
    expect(r.accepted).toHaveLength(0);

    // Before the fix the first 50 counted as delivered, and this run skipped them.
    const again = await push(file, '--batch-size', '50');
    expect(again.code).toBe(0);
    const s = JSON.parse(again.stdout);
    // Resent first (counted apart: issue 20), then the file's rows find them delivered.
    expect([s.retried, s.retriedSent, s.sent, s.alreadySent]).toEqual([120, 120, 0, 120]);
    expect(acceptedIds(r.accepted)).toEqual(range(1, 120));
  });

  it('an empty 200 stays a delivery (documented): exit 0, and a re-run finds everything alreadySent', async () => {
    const file = writeExport(e2e.work, 'a.csv', { to: 30 });
    interceptor = { status: 200, body: '' };
    const first = await push(file);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).sent).toBe(30);
    interceptor = undefined;
    const again = await push(file);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).alreadySent).toBe(30);
  });
});

describe('waits the server asks for', () => {
  it('a 429 with Retry-After: 3 is announced on stderr without --verbose; stdout stays one JSON object', async () => {
    const r = e2e.receiver;
    r.script({ status: 429, headers: { 'retry-after': '3' }, body: '{"error":"slow down"}' });
    const result = await push(writeExport(e2e.work, 'a.csv', { to: 10 }));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('server asked to wait 3 s (429 Too Many Requests); waiting');
    const s = JSON.parse(result.stdout);
    expect([s.sent, s.requests]).toEqual([10, 2]);
    expect(result.stdout).not.toContain('server asked');
    expect(acceptedIds(r.accepted)).toEqual(range(1, 10));
  });
});
