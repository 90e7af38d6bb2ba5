import { afterEach, describe, expect, it, vi } from 'vitest';
import { EngineError } from './engine.types.js';
import { providerPrompt, sendWaitingOutRateLimit } from './provider-calls.js';

const limited = (seconds: number | null) =>
  new EngineError('engine.unavailable', 'rate-limited', true, null, seconds);

describe('sendWaitingOutRateLimit', () => {
  afterEach(() => vi.useRealTimers());

  it('waits out a short Retry-After once and sends again', async () => {
    vi.useFakeTimers();
    const send = vi.fn().mockRejectedValueOnce(limited(2)).mockResolvedValueOnce('ok');
    const result = sendWaitingOutRateLimit(send, new AbortController().signal, 'fal');
    await vi.advanceTimersByTimeAsync(1999);
    expect(send).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe('ok');
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('does not wait for a long Retry-After, an error without one, or a second 429', async () => {
    const long = vi.fn().mockRejectedValue(limited(31));
    await expect(sendWaitingOutRateLimit(long, new AbortController().signal, 'fal')).rejects.toThrow();
    expect(long).toHaveBeenCalledTimes(1);
    const plain = vi.fn().mockRejectedValue(new EngineError('engine.failed', 'bad input', false));
    await expect(sendWaitingOutRateLimit(plain, new AbortController().signal, 'fal')).rejects.toThrow(
      'bad input',
    );
    expect(plain).toHaveBeenCalledTimes(1);
    const twice = vi.fn().mockRejectedValue(limited(0));
    await expect(sendWaitingOutRateLimit(twice, new AbortController().signal, 'fal')).rejects.toThrow(
      'rate-limited',
    );
    expect(twice).toHaveBeenCalledTimes(2);
  });

  it('ends the wait as a timeout when the job is aborted, without sending again', async () => {
    vi.useFakeTimers();
    const send = vi.fn().mockRejectedValueOnce(limited(20)).mockResolvedValueOnce('late');
    const abort = new AbortController();
    const result = sendWaitingOutRateLimit(send, abort.signal, 'OpenAI');
    const settled = expect(result).rejects.toMatchObject({ code: 'engine.timeout' });
    await vi.advanceTimersByTimeAsync(1000);
    abort.abort();
    await settled;
    expect(send).toHaveBeenCalledTimes(1);
  });
});

describe('providerPrompt', () => {
  it('puts the style’s words before the user’s for styling, and leaves other modes’ prompt alone', () => {
    expect(providerPrompt({ mode: 'styling', style: 'oil', prompt: 'warmer' })).toBe(
      'Repaint this picture as an oil painting with visible brush strokes. warmer',
    );
    expect(providerPrompt({ mode: 'styling', style: null, prompt: '' })).toBe('Restyle this picture');
    expect(providerPrompt({ mode: 'editing', style: 'oil', prompt: 'make it pink' })).toBe('make it pink');
  });
});
