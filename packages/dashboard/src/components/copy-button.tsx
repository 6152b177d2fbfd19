import { useState } from 'react';

/** Copies `text` to the clipboard, and says so (or that it could not) where screen readers hear it. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <span className="copy">
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setState('copied');
          } catch {
            setState('failed');
          }
        }}
      >
        {label}
      </button>
      <span role="status" className="copy-status">
        {state === 'copied'
          ? 'Copied'
          : state === 'failed'
            ? 'Could not copy: select the text and copy it'
            : ''}
      </span>
    </span>
  );
}
