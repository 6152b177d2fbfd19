import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { t } from '../i18n/t.js';

/** How a notice reads: a save that worked, a change that failed (and was undone), or plain information. */
export type NoticeTone = 'success' | 'error' | 'info';

interface Notice {
  id: number;
  tone: NoticeTone;
  message: string;
  /** The problem's reference, for an error the person may report. */
  reference?: string;
}

/** Acknowledges what the person just did, where they are looking: in the viewport, announced, focus untouched. */
export interface Notify {
  success(message: string): void;
  info(message: string): void;
  error(message: string, reference?: string): void;
}

const NotifyContext = createContext<Notify | null>(null);

/** How long a success or an information stays on screen; errors stay until dismissed. */
const SHOWN_FOR_MS = 6_000;

/**
 * Holds the notices of the page and shows them in a fixed region of the viewport. The two live regions are
 * always in the document (a region added together with its text is not announced by every screen reader), and
 * carry no role, so that they never compete with a page's own status or alert:
 * successes and information are polite, errors assertive.
 */
export function NotifyProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const next = useRef(1);
  const dismiss = useCallback(
    (id: number) => setNotices((shown) => shown.filter((notice) => notice.id !== id)),
    [],
  );
  const push = useCallback(
    (tone: NoticeTone, message: string, reference?: string) => {
      const id = next.current++;
      setNotices((shown) => [
        ...shown.filter((notice) => notice.message !== message).slice(-3),
        { id, tone, message, ...(reference === undefined ? {} : { reference }) },
      ]);
      if (tone !== 'error') setTimeout(() => dismiss(id), SHOWN_FOR_MS);
    },
    [dismiss],
  );
  const notify = useMemo<Notify>(
    () => ({
      success: (message) => push('success', message),
      info: (message) => push('info', message),
      error: (message, reference) => push('error', message, reference),
    }),
    [push],
  );
  const item = (notice: Notice) => (
    <li key={notice.id} className={`toast ${notice.tone}`}>
      <span>{notice.message}</span>
      {notice.reference === undefined ? null : <small> ({notice.reference})</small>}
      <button
        type="button"
        className="link-button"
        onClick={() => dismiss(notice.id)}
        aria-label={t('common.dismiss')}
      >
        ×
      </button>
    </li>
  );
  return (
    <NotifyContext.Provider value={notify}>
      {children}
      <section className="toasts" aria-label={t('common.notifications')}>
        <div aria-live="polite">
          <NoticeList notices={notices.filter((notice) => notice.tone !== 'error')} render={item} />
        </div>
        <div aria-live="assertive">
          <NoticeList notices={notices.filter((notice) => notice.tone === 'error')} render={item} />
        </div>
      </section>
    </NotifyContext.Provider>
  );
}

/** The notices of one live region, as a list when there are any. */
function NoticeList({ notices, render }: { notices: Notice[]; render: (notice: Notice) => ReactNode }) {
  return notices.length === 0 ? null : <ul className="toast-list">{notices.map(render)}</ul>;
}

/** The page's notifier; outside a provider (a component test that did not add one) it is a no-op. */
export function useNotify(): Notify {
  return useContext(NotifyContext) ?? SILENT;
}

const SILENT: Notify = { success: () => undefined, info: () => undefined, error: () => undefined };
