import { Link } from 'wouter';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { formatNumber } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';

/** One line of a top list: what, how many, and where clicking it leads (a filtered log), if anywhere. */
export interface TopItem {
  key: string;
  label: string;
  detail?: string | undefined;
  count: number;
  /** The logs filtered to this item, or undefined when the logs cannot be filtered by it. */
  href?: string | undefined;
}

/** A top list as a table (a list of cards on a phone): the item (a link to its queries when there is a filter for it) and its count. */
export function TopTable({
  items,
  itemHeading,
  caption,
}: {
  items: readonly TopItem[];
  itemHeading: string;
  caption: string;
}) {
  if (items.length === 0) return <p>{t('analytics.nothing')}</p>;
  const max = Math.max(...items.map((item) => item.count), 1);
  return (
    <ResponsiveTable
      caption={caption}
      captionHidden
      className="top-table"
      rows={items}
      rowKey={(item) => item.key}
      columns={[
        {
          header: itemHeading,
          cell: (item) => (
            <>
              {item.href === undefined ? item.label : <Link href={item.href}>{item.label}</Link>}
              {item.detail !== undefined && <span className="hint"> {item.detail}</span>}
              <span className="bar" aria-hidden="true" style={{ width: `${(item.count / max) * 100}%` }} />
            </>
          ),
        },
        { header: t('analytics.queries'), numeric: true, cell: (item) => formatNumber(item.count) },
      ]}
    />
  );
}
