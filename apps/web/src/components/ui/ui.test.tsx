import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { createTestI18n } from '../../test/i18n';
import { useAppStore } from '../../lib/app-store';
import { ProgressBar } from './progress-bar';
import { SegmentedChoice } from './segmented-choice';
import { Sheet, SHEET_CLOSE_MS } from './sheet';
import { TextInput, formatInputError } from './text-input';
import { TopNotification } from './top-notification';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
// Every test unmounts what it rendered: ids from useId are unique within one root, and each
// render() is a root of its own, so a page left behind could answer for the next test's id.
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const wrap = (node: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);

describe('text input', () => {
  it('joins a list of errors with ", "', () => {
    expect(formatInputError(['Too short.', 'Too common.'])).toBe('Too short., Too common.');
    expect(formatInputError('One.')).toBe('One.');
    expect(formatInputError(null)).toBe('');
    wrap(<TextInput title="Password" value="" onValueChange={() => undefined} error={['A', 'B']} />);
    expect(screen.getByRole('alert').textContent).toBe('A, B');
  });

  it('says when the maximum length is reached', () => {
    wrap(<TextInput value="abcd" onValueChange={() => undefined} maxLength={4} />);
    expect(screen.getByText('Maximum number of characters - 4')).toBeTruthy();
  });

  it('has themes and a search mode with a clear button', () => {
    const onChange = vi.fn();
    const { container } = wrap(<TextInput value="cats" onValueChange={onChange} search theme="glass" />);
    expect(container.querySelector('.field--glass.field--search input[type=search]')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Clear'));
    expect(onChange).toHaveBeenCalledWith('');
  });
});

describe('sheet', () => {
  it('hides and emits close 200 ms after closing', () => {
    vi.useFakeTimers();
    const onClose = vi.fn();
    wrap(
      <Sheet open onClose={onClose} from="top" title="Title">
        body
      </Sheet>,
    );
    expect(document.querySelector('.sheet--top')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Close'));
    expect(document.querySelector('.sheet--closing')).toBeTruthy();
    act(() => vi.advanceTimersByTime(SHEET_CLOSE_MS - 1));
    expect(onClose).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(document.querySelector('.sheet')).toBeNull();
  });

  it('closes on time while the page behind re-renders with a new onClose each time (upload progress)', () => {
    vi.useFakeTimers();
    const closed = vi.fn();
    const view = (progress: number) => (
      <I18nextProvider i18n={i18n}>
        <p>{progress}%</p>
        <Sheet open onClose={() => closed(progress)} title="Helper">
          body
        </Sheet>
      </I18nextProvider>
    );
    const { rerender } = render(view(0));
    fireEvent.click(screen.getByLabelText('Close'));
    for (let progress = 10; progress <= 30; progress += 10) {
      act(() => vi.advanceTimersByTime(50));
      rerender(view(progress));
    }
    act(() => vi.advanceTimersByTime(SHEET_CLOSE_MS - 3 * 50 - 1));
    expect(closed).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(closed).toHaveBeenCalledTimes(1);
    expect(closed).toHaveBeenCalledWith(30);
    expect(document.querySelector('.sheet')).toBeNull();
  });

  it("keeps a form sent inside it from also submitting the page's form it was opened from", () => {
    const submitPage = vi.fn((event: React.FormEvent) => event.preventDefault());
    const submitSheet = vi.fn((event: React.FormEvent) => event.preventDefault());
    wrap(
      <form onSubmit={submitPage} data-testid="page-form">
        <Sheet open onClose={() => undefined} title="Helper">
          <form onSubmit={submitSheet} data-testid="sheet-form">
            <button type="submit">Send</button>
          </form>
        </Sheet>
      </form>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(submitSheet).toHaveBeenCalledTimes(1);
    expect(submitPage).not.toHaveBeenCalled();
    fireEvent.submit(screen.getByTestId('page-form'));
    expect(submitPage).toHaveBeenCalledTimes(1);
  });
});

describe('progress bar', () => {
  it('fills to value of max, held within the range, and reads out its label and numbers', () => {
    wrap(
      <>
        <ProgressBar value={12} max={15} label="Good photos" />
        <ProgressBar value={140} label="Uploading" size="lg" />
      </>,
    );
    const [photos, upload] = screen.getAllByRole('progressbar');
    expect(photos!.getAttribute('aria-label')).toBe('Good photos');
    expect(photos!.getAttribute('aria-valuenow')).toBe('12');
    expect(photos!.getAttribute('aria-valuemax')).toBe('15');
    expect((photos!.firstChild as HTMLElement).style.width).toBe('80%');
    expect(upload!.getAttribute('aria-valuenow')).toBe('100');
    expect((upload!.firstChild as HTMLElement).style.width).toBe('100%');
    expect(upload!.className).toBe('progress progress--lg');
  });
});

describe('top notification', () => {
  it('shows a success icon and text, and clears after 2000 ms', () => {
    vi.useFakeTimers();
    wrap(<TopNotification />);
    act(() => useAppStore.getState().showTopinfo('success', 'Saved'));
    expect(screen.getByRole('status').textContent).toContain('Saved');
    act(() => vi.advanceTimersByTime(1999));
    expect(screen.queryByRole('status')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('sheets over sheets', () => {
  it('Escape closes only the top one', () => {
    vi.useFakeTimers();
    const closeBottom = vi.fn();
    const closeTop = vi.fn();
    wrap(
      <>
        <Sheet open onClose={closeBottom} title="Dialog">
          dialog
        </Sheet>
        <Sheet open onClose={closeTop} title="History">
          history
        </Sheet>
      </>,
    );
    fireEvent.keyDown(document, { key: 'Escape' });
    act(() => vi.advanceTimersByTime(SHEET_CLOSE_MS));
    expect(closeTop).toHaveBeenCalledTimes(1);
    expect(closeBottom).not.toHaveBeenCalled();
    expect(document.body.classList.contains('has-sheet')).toBe(true);
    fireEvent.keyDown(document, { key: 'Escape' });
    act(() => vi.advanceTimersByTime(SHEET_CLOSE_MS));
    expect(closeBottom).toHaveBeenCalledTimes(1);
  });
});

describe('segmented choice', () => {
  afterEach(cleanup);
  const options = [
    { value: undefined, label: 'All' },
    { value: 'true', label: 'Paid', testId: 'paid' },
    { value: 'false', label: 'Not paid' },
  ] as const;

  it('is a radio group titled by its field title, with the current value checked', () => {
    render(<SegmentedChoice title="Who" value={'true'} onChange={() => {}} options={options} />);
    const group = screen.getByRole('radiogroup', { name: 'Who' });
    expect(group).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Paid' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('radio', { name: 'All' }).getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('paid').className).toBe('segmented__item is-active');
  });

  it('answers the value of the segment pressed, undefined included', () => {
    const onChange = vi.fn();
    render(<SegmentedChoice label="Who" value={'true'} onChange={onChange} options={options} />);
    fireEvent.click(screen.getByRole('radio', { name: 'All' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Not paid' }));
    expect(onChange.mock.calls).toEqual([[undefined], ['false']]);
    expect(screen.getByRole('radiogroup', { name: 'Who' })).toBeTruthy();
  });
});
