import { describe, expect, it } from 'vitest';
import {
  applySocketMessage,
  comfyState,
  decodeComfyJob,
  encodeComfyJob,
  fillWorkflow,
  initialSocketState,
  workflowProblems,
  type ComfySocketState,
} from './comfyui.models.js';

describe('fillWorkflow', () => {
  it('replaces whole-string placeholders by their values, numbers staying numbers, links untouched', () => {
    const filled = fillWorkflow(
      {
        '3': { class_type: 'KSampler', inputs: { seed: '{{seed}}', model: ['4', 0], steps: 4 } },
        '6': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}', note: 'a {{prompt}} inside' } },
      },
      { seed: 7, prompt: 'a fox' },
    );
    expect(filled['3']!.inputs).toEqual({ seed: 7, model: ['4', 0], steps: 4 });
    expect(filled['6']!.inputs).toEqual({ text: 'a fox', note: 'a {{prompt}} inside' });
  });
  it('refuses a workflow that asks for a value the request has not', () => {
    expect(() =>
      fillWorkflow({ '1': { class_type: 'LoadImage', inputs: { image: '{{image}}' } } }, {}),
    ).toThrow(/\{\{image\}\}/);
  });
});

describe('comfyState', () => {
  const image = { filename: 'mirra_00001_.png', subfolder: '', type: 'output' };
  it('waiting: the jobs ahead, the running one included; running; done with its first output image', () => {
    const queue = {
      queue_running: [[4, 'other'] as [number, string]],
      queue_pending: [[6, 'mine'] as [number, string], [5, 'before'] as [number, string]],
    };
    expect(comfyState('mine', undefined, queue)).toEqual({ kind: 'waiting', queuePosition: 2 });
    expect(comfyState('other', undefined, queue)).toEqual({ kind: 'running' });
    expect(
      comfyState(
        'mine',
        { outputs: { '9': { images: [image] } }, status: { status_str: 'success', completed: true } },
        {},
      ),
    ).toEqual({ kind: 'done', file: image, isVideo: false });
  });
  it('a saved video (core SaveVideo, or VideoHelperSuite gifs) is the result before any preview picture', () => {
    const video = { filename: 'mirra_00002_.mp4', subfolder: 'video', type: 'output' };
    const preview = { filename: 'ComfyUI_temp_0001.png', subfolder: '', type: 'temp' };
    const done = (outputs: object) =>
      comfyState('mine', { outputs, status: { status_str: 'success', completed: true } } as never, {});
    expect(done({ '12': { images: [preview] }, '13': { images: [video], animated: [true] } })).toEqual({
      kind: 'done',
      file: video,
      isVideo: true,
    });
    expect(done({ '20': { gifs: [{ ...video, format: 'video/h264-mp4' }] } })).toMatchObject({
      isVideo: true,
    });
    expect(done({ '9': {} })).toEqual({ kind: 'failed', message: 'The workflow finished without an image.' });
  });
  it('an error is final even though not completed, with the exception’s message; a lost prompt is unknown', () => {
    const entry = {
      outputs: {},
      status: {
        status_str: 'error',
        completed: false,
        messages: [['execution_error', { exception_message: 'CUDA out of memory' }]] as Array<
          [string, Record<string, unknown>]
        >,
      },
    };
    expect(comfyState('mine', entry, {})).toEqual({ kind: 'failed', message: 'CUDA out of memory' });
    expect(comfyState('mine', undefined, { queue_running: [], queue_pending: [] })).toEqual({
      kind: 'unknown',
    });
  });
});

describe('the stored job', () => {
  it('keeps the prompt id, workflow, server and socket client id; older jobs without a client id still read', () => {
    const job = { promptId: 'p1', mode: 'face_photo', server: 'http://gpu-1:8188', clientId: 'c1' };
    expect(decodeComfyJob(encodeComfyJob(job))).toEqual(job);
    expect(decodeComfyJob('p1 simple http://gpu-1:8188')).toEqual({ ...job, mode: 'simple', clientId: null });
  });
});

describe('workflowProblems', () => {
  const node = (inputs: Record<string, unknown>) => ({ class_type: 'X', inputs });
  it('names a missing required placeholder and one the workflow never gets', () => {
    expect(workflowProblems('video', { '1': node({ image: '{{image}}', length: '{{frames}}' }) })).toEqual(
      [],
    );
    expect(workflowProblems('face_photo', { '1': node({ text: '{{prompt}}' }) })).toEqual([
      'face_photo.json has no {{lora}} placeholder.',
    ]);
    expect(
      workflowProblems('simple', { '1': node({ text: '{{prompt}}', seed: '{{seed}}', x: '{{image}}' }) }),
    ).toEqual([expect.stringMatching(/^simple\.json uses \{\{image\}\}, which is never filled/)]);
  });
  it('refuses what is not an API-format graph (the UI’s own save format has nodes and links arrays)', () => {
    expect(workflowProblems('simple', { nodes: [], links: [] })).toEqual([
      'simple.json is not an API-format workflow (export it with "Save (API)").',
    ]);
    expect(workflowProblems('simple', [])).toHaveLength(1);
  });
});

describe('applySocketMessage', () => {
  const run = (messages: Array<{ type: string; data: Record<string, unknown> }>) =>
    messages.reduce<ComfySocketState>((state, m) => applySocketMessage(state, 'mine', m), initialSocketState);
  it('turns the sampler’s steps into progress that never goes back, and ends on executing null', () => {
    const state = run([
      { type: 'status', data: { status: { exec_info: { queue_remaining: 1 } } } },
      { type: 'execution_start', data: { prompt_id: 'mine' } },
      { type: 'executing', data: { node: '3', prompt_id: 'mine' } },
      { type: 'progress', data: { value: 2, max: 4, node: '3', prompt_id: 'mine' } },
      { type: 'progress', data: { value: 1, max: 10, node: '8', prompt_id: 'mine' } },
      { type: 'progress', data: { value: 9, max: 9, node: '3', prompt_id: 'other' } },
    ]);
    expect(state).toEqual({ started: true, ended: false, progress: 50, node: '3' });
    expect(run([{ type: 'executing', data: { node: null, prompt_id: 'mine' } }]).ended).toBe(true);
    expect(run([{ type: 'execution_error', data: { prompt_id: 'mine' } }]).ended).toBe(true);
    expect(run([{ type: 'executing', data: { node: null, prompt_id: 'other' } }])).toBe(initialSocketState);
  });
});
