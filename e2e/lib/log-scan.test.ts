import { describe, expect, it } from 'vitest';
import { scanLog } from './log-scan.js';

const clean = [
  '{"level":40,"time":1,"reqId":"a1","msg":"payment event for no known order; ignored"}',
  '{"level":30,"req":{"method":"GET","url":"/api/generations/1b2c/","headers":{"authorization":"[redacted]"}}}',
  '{"level":30,"msg":"scores","values":[0.1,0.2,0.3]}',
].join('\n');

describe('scanLog', () => {
  it('passes a log with nothing secret in it', () => {
    expect(scanLog('server.log', clean, ['s3cr3t-jwt-key-of-the-run'])).toEqual([]);
  });

  it.each([
    ['a secret or password of the run', '{"msg":"config","jwt":"s3cr3t-jwt-key-of-the-run"}'],
    ['a secret or password of the run', '{"body":{"password":"Violet-Lantern-42"}}'],
    ['a JWT', '{"token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXZhbHVl"}'],
    ['a Bearer token', '{"headers":{"authorization":"Bearer 8f14e45fceea167a5a36dedd4bea2543"}}'],
    ['Telegram init data', `{"init":"query_id=AA&user=%7B%7D&auth_date=1&hash=${'ab'.repeat(32)}"}`],
    ['Telegram init data', `{"init":"auth_date=1&signature=${'A'.repeat(86)}"}`],
    ['image data', '{"photo":"data:image/jpeg;base64,/9j/4AAQ"}'],
    ['image data', `{"b64_json":"iVBORw0KGgoAAAANSUhEUgAA${'A'.repeat(80)}"}`],
    ['face data', `{"face":[${Array.from({ length: 68 }, (_, i) => i * 1.5).join(',')}]}`],
    ['face data', '{"landmarks":[[1,2],[3,4]]}'],
  ])('finds %s on a planted line and names the line', (what, planted) => {
    const findings = scanLog('server.log', `${clean}\n${planted}\n`, [
      's3cr3t-jwt-key-of-the-run',
      'Violet-Lantern-42',
    ]);
    expect(findings).toEqual([expect.objectContaining({ file: 'server.log', line: 4, what })]);
    expect(findings[0]!.text).not.toContain('s3cr3t-jwt-key-of-the-run');
  });
});
