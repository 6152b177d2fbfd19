import { BreakableText } from '../../components/breakable-text.js';
import { CopyButton } from '../../components/copy-button.js';
import { t } from '../../i18n/t.js';

/** A value to type into a device (a DNS address, a URL) with a button copying it; `name` says what it is. */
export function CopyableValue({ name, value }: { name: string; value: string }) {
  return (
    <div className="copyable">
      <code className="secret">
        <BreakableText text={value} />
      </code>{' '}
      <CopyButton text={value} label={t('profiles.copy', { name })} />
    </div>
  );
}
