import { describe, expect, it } from 'vitest';
import {
  decideMetricsAccess,
  isAcceptableRequestId,
  isLoopbackAddress,
  requestIdFor,
  statusClass,
  summarizeReadiness,
  unknownEngines,
} from './ops.models.js';

describe('request ids', () => {
  it.each([
    ['abc-123', true],
    ['0f1e2d3c-aaaa-bbbb-cccc-000011112222', true],
    ['lb.trace:42_x', true],
    ['', false],
    ['a'.repeat(65), false],
    ['has space', false],
    ['new\nline', false],
    ['{"json":1}', false],
    ['ünïcode', false],
  ])('accepts %j from a caller: %s', (value, accepted) => {
    expect(isAcceptableRequestId(value)).toBe(accepted);
    expect(requestIdFor(value) === value).toBe(accepted);
  });

  it('makes a fresh uuid when there is none or several', () => {
    expect(requestIdFor(undefined)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFor(['a', 'b'])).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFor(undefined)).not.toBe(requestIdFor(undefined));
  });
});

describe('metrics labels', () => {
  it.each([
    [200, '2xx'],
    [204, '2xx'],
    [304, '3xx'],
    [404, '4xx'],
    [503, '5xx'],
  ])('puts status %i in class %s', (status, expected) => {
    expect(statusClass(status)).toBe(expected);
  });
});

describe('who may read /metrics', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.1', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.5', false],
    ['::ffff:10.0.0.5', false],
    ['1127.0.0.1', false],
    [undefined, false],
  ])('treats %s as loopback: %s', (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });

  it('without a token, only this machine', () => {
    const decide = (peerAddress: string, authorization?: string) =>
      decideMetricsAccess({ token: undefined, authorization, peerAddress });
    expect(decide('127.0.0.1')).toBe('allowed');
    expect(decide('192.168.1.7', 'Bearer anything')).toBe('not_loopback');
  });

  it('with a token, whoever sends it, and nobody else (not even this machine)', () => {
    const decide = (peerAddress: string, authorization?: string) =>
      decideMetricsAccess({ token: 's3cret-token', authorization, peerAddress });
    expect(decide('192.168.1.7', 'Bearer s3cret-token')).toBe('allowed');
    expect(decide('127.0.0.1')).toBe('bad_token');
    expect(decide('127.0.0.1', 'Bearer s3cret-tokem')).toBe('bad_token');
    expect(decide('127.0.0.1', 's3cret-token')).toBe('bad_token');
  });
});

describe('readiness', () => {
  it('is ready only when every check passed, and names those that failed', () => {
    expect(summarizeReadiness({ database: 'ok', queue: 'ok', storage: 'ok', engines: 'ok' })).toEqual({
      isReady: true,
      failed: [],
    });
    expect(summarizeReadiness({ database: 'failed', queue: 'failed', storage: 'ok', engines: 'ok' })).toEqual(
      { isReady: false, failed: ['database', 'queue'] },
    );
  });

  it('finds configured engine names this build does not have', () => {
    expect(unknownEngines({ simple: ['local'], video: ['local'] }, ['local'])).toEqual([]);
    expect(
      unknownEngines({ simple: ['fal', 'local'], video: ['fal'], editing: ['comfyui'] }, ['local', 'fal']),
    ).toEqual(['comfyui']);
  });
});
