import { describe, expect, it } from 'vitest';
import { comfyState, fillWorkflow } from './comfyui.models.js';

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
    ).toEqual({ kind: 'done', image });
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
