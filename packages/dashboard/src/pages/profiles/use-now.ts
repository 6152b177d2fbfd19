import { useEffect, useState } from 'react';

/** How often the time is read again: schedule windows open and close on a minute. */
const CLOCK_TICK_MS = 30_000;

/** The time now, read again every half minute, so that "Active now" follows the clock while a page is open. */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}
