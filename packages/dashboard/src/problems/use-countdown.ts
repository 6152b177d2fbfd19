import { useEffect, useState } from 'react';

/** Whole seconds left of `seconds`, counting down once a second from when it was given; 0 when over. */
export function useCountdown(seconds: number | undefined): number {
  const [left, setLeft] = useState(() => Math.ceil(seconds ?? 0));
  useEffect(() => {
    if (seconds === undefined || seconds <= 0) {
      setLeft(0);
      return;
    }
    const until = Date.now() + seconds * 1000;
    setLeft(Math.ceil(seconds));
    const timer = setInterval(() => {
      const remaining = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      setLeft(remaining);
      if (remaining === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  return left;
}
