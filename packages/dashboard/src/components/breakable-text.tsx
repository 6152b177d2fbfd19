import { Fragment } from 'react';

/**
 * A URL or host name that may wrap on a narrow screen: a line may break after each `/`, `.` or `-` (a `<wbr>`,
 * which copies and reads as nothing), so `https://dns.example/abc` wraps between its parts, not mid-word.
 */
export function BreakableText({ text }: { text: string }) {
  const parts = text.split(/(?<=[/.\-?&=])/);
  return (
    <>
      {parts.map((part, index) => (
        // The parts of one fixed string never move: their position is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
