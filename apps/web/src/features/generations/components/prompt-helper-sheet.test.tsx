import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { i18n as I18n } from 'i18next';
import type { TPromptHelperResult } from '../../../lib/api-types';
import { createTestI18n } from '../../../test/i18n';
import { SHEET_CLOSE_MS } from '../../../components/ui/sheet';
import { generationsApi } from '../api/generations.api';
import { PromptHelperSheet } from './prompt-helper-sheet';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function deferredReply() {
  let resolve!: (result: TPromptHelperResult) => void;
  const promise = new Promise<TPromptHelperResult>((done) => (resolve = done));
  vi.spyOn(generationsApi, 'writePrompt').mockReturnValue(promise);
  return (prompt: string) => act(async () => resolve({ prompt, source: 'offline' } as TPromptHelperResult));
}

function renderSheet(onPrompt: (result: TPromptHelperResult) => void, onClose = vi.fn()) {
  render(
    <I18nextProvider i18n={i18n}>
      <PromptHelperSheet open mode="simple" initialText="Рыжий кот" onClose={onClose} onPrompt={onPrompt} />
    </I18nextProvider>,
  );
  return onClose;
}

describe('prompt helper sheet', () => {
  it('hands the English prompt to the form', async () => {
    const reply = deferredReply();
    const onPrompt = vi.fn();
    renderSheet(onPrompt);
    fireEvent.click(screen.getByTestId('helper-submit'));
    await reply('A ginger cat');
    expect(onPrompt).toHaveBeenCalledWith({ prompt: 'A ginger cat', source: 'offline' });
  });

  it('drops a reply that arrives after the sheet was closed: what was typed since stays', async () => {
    const reply = deferredReply();
    const onPrompt = vi.fn();
    const onClose = renderSheet(onPrompt);
    fireEvent.click(screen.getByTestId('helper-submit'));
    fireEvent.click(screen.getByLabelText('Close'));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1), { timeout: SHEET_CLOSE_MS * 5 });
    await reply('A ginger cat');
    expect(onPrompt).not.toHaveBeenCalled();
  });
});
