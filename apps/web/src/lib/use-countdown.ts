import { useCallback, useEffect, useRef, useState } from 'react';
import { secondsLeft } from './countdown';

/**
 * A countdown in whole seconds: `start(n)` runs it, `left` ticks down (null when stopped), and
 * `onDone` is called once when it reaches zero. The deadline is wall-clock, so a throttled
 * background tab still ends on time.
 */
export function useCountdown(onDone: () => void) {
  const [deadline, setDeadline] = useState<number | null>(null);
  const [left, setLeft] = useState<number | null>(null);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });
  const start = useCallback((seconds: number) => {
    setDeadline(Date.now() + seconds * 1000);
    setLeft(Math.max(0, Math.ceil(seconds)));
  }, []);
  const stop = useCallback(() => {
    setDeadline(null);
    setLeft(null);
  }, []);
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => {
      const remaining = secondsLeft(deadline, Date.now());
      if (remaining > 0) {
        setLeft(remaining);
        return;
      }
      clearInterval(timer);
      setDeadline(null);
      setLeft(null);
      done.current();
    }, 250);
    return () => clearInterval(timer);
  }, [deadline]);
  return { left, start, stop };
}
