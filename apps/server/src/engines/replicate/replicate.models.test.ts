import { describe, expect, it } from 'vitest';
import {
  destinationModelName,
  isTrainedModel,
  parseModelRef,
  predictionFailure,
  progressOfPrediction,
  replicateFailure,
  replicateLoraOf,
  signReplicateWebhook,
  trainingEnding,
  verifyReplicateWebhook,
} from './replicate.models.js';

// The Standard Webhooks test vector Replicate's own client is tested with.
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const timestamp = 1614265330;
const body = '{"test": 2432232314}';
const signature = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

const check = (headers: Record<string, string>, raw = body, now = timestamp) =>
  verifyReplicateWebhook({ headers, rawBody: Buffer.from(raw), secret, nowSeconds: now });
const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };

describe('Replicate webhook signatures', () => {
  it('signs the known test vector exactly', () => {
    expect(`v1,${signReplicateWebhook(secret, id, String(timestamp), body)}`).toBe(signature);
  });
  it('accepts it, also among other signatures (key rotation)', () => {
    expect(check(headers)).toEqual({ ok: true });
    expect(check({ ...headers, 'webhook-signature': `v1,AAAA ${signature}` })).toEqual({ ok: true });
  });
  it('refuses a tampered body, another id, a replay past five minutes, a missing header, another scheme', () => {
    expect(check(headers, body.replace('2432', '9999')).ok).toBe(false);
    expect(check({ ...headers, 'webhook-id': 'msg_other' }).ok).toBe(false);
    expect(check(headers, body, timestamp + 301).ok).toBe(false);
    expect(check(headers, body, timestamp + 300).ok).toBe(true);
    const { 'webhook-signature': _dropped, ...unsigned } = headers;
    expect(check(unsigned).ok).toBe(false);
    expect(check({ ...headers, 'webhook-signature': signature.replace('v1,', 'v2,') }).ok).toBe(false);
  });
});

describe('Replicate answers', () => {
  it('an outage moves on (no answer, 429 with its wait, 5xx, a refused token); bad input and safety do not', () => {
    expect(replicateFailure({ status: null }).code).toBe('engine.unavailable');
    const limited = replicateFailure({ status: 429, retryAfterSeconds: 3 });
    expect([limited.code, limited.retryAfterSeconds]).toEqual(['engine.unavailable', 3]);
    expect(replicateFailure({ status: 503 }).code).toBe('engine.unavailable');
    expect(replicateFailure({ status: 401 }).code).toBe('engine.unavailable');
    const invalid = replicateFailure({
      status: 422,
      body: { title: 'Input validation failed', detail: '- input.prompt' },
    });
    expect([invalid.code, invalid.retryable]).toEqual(['engine.failed', false]);
  });
  it('a prediction failed by the model’s safety checker is a refusal; others a failure', () => {
    expect(
      predictionFailure({ id: 'p', status: 'failed', error: 'NSFW content detected. Try running it again.' })
        .code,
    ).toBe('engine.refused');
    expect(predictionFailure({ id: 'p', status: 'failed', error: 'CUDA out of memory' }).code).toBe(
      'engine.failed',
    );
  });
  it('reads progress from tqdm lines and model references with or without a version', () => {
    expect(
      progressOfPrediction({ status: 'processing', logs: ' 50%|█████     | 14/28 [00:01<00:01]\n' }),
    ).toBe(50);
    expect(progressOfPrediction({ status: 'starting', logs: '' })).toBe(2);
    expect(parseModelRef('black-forest-labs/flux-schnell')).toEqual({
      model: 'black-forest-labs/flux-schnell',
    });
    expect(parseModelRef('cdingram/face-swap:abc')).toEqual({ model: 'cdingram/face-swap', version: 'abc' });
  });
});

describe('Replicate trainings', () => {
  const version = `mirra-test/${destinationModelName('0E8F5C2A-1111-4222-8333-444455556666')}:${'a'.repeat(64)}`;

  it('a succeeded training gives the pushed version; failed, canceled or versionless ones fail', () => {
    expect(trainingEnding({ id: 't', status: 'succeeded', output: { version } }, 2)).toEqual({
      kind: 'done',
      loraUrl: version,
      costUsd: 2,
    });
    expect(
      trainingEnding({ id: 't', status: 'succeeded', output: { weights: 'https://x/w.tar' } }, 2),
    ).toMatchObject({
      kind: 'failed',
      refused: false,
    });
    expect(trainingEnding({ id: 't', status: 'failed', error: 'CUDA out of memory' }, 2)).toEqual({
      kind: 'failed',
      refused: false,
      message: 'CUDA out of memory',
    });
    expect(trainingEnding({ id: 't', status: 'failed', error: 'NSFW content detected' }, 2)).toMatchObject({
      refused: true,
    });
    expect(trainingEnding({ id: 't', status: 'canceled' }, 2)).toMatchObject({
      kind: 'failed',
      refused: false,
    });
  });

  it('the destination is lower-case per model, and recognised as a trained model', () => {
    expect(version.startsWith('mirra-test/mirra-0e8f5c2a-1111-4222-8333-444455556666:')).toBe(true);
    expect(isTrainedModel(version.split(':')[0]!)).toBe(true);
    expect(isTrainedModel('black-forest-labs/flux-schnell')).toBe(false);
  });

  it('a face photo needs a LoRA trained at Replicate; one trained at fal steps aside, saying so', () => {
    const faceModel = (providerLoras?: Record<string, { url: string; triggerWord: string }>) => ({
      uuid: 'm',
      providerLoras,
      profile: {} as never,
      loadReferencePhoto: async () => Buffer.alloc(0),
    });
    expect(replicateLoraOf(faceModel({ replicate: { url: version, triggerWord: 'mirra1' } }))).toEqual({
      version: 'a'.repeat(64),
      triggerWord: 'mirra1',
    });
    const atFal = () =>
      replicateLoraOf(faceModel({ fal: { url: 'https://fal/lora', triggerWord: 'mirra1' } }));
    expect(atFal).toThrow(/trained at fal, not at Replicate/);
    try {
      atFal();
    } catch (error) {
      expect(error).toMatchObject({ code: 'engine.unavailable', retryable: true });
    }
    expect(() => replicateLoraOf(faceModel())).toThrow(/no LoRA trained at Replicate/);
  });
});
