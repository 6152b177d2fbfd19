import type { Blocklist } from '@svc/sdk';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { formatDateTime, formatNumber, formatRelative } from '../../i18n/format.js';
import { t } from '../../i18n/t.js';

type SourceFetch = Blocklist['sources'][number]['last_fetch'];

/** The latest fetch among a list's sources: the list is as fresh as its last download. */
function lastFetchOf(list: Blocklist): NonNullable<SourceFetch> | undefined {
  let latest: NonNullable<SourceFetch> | undefined;
  for (const source of list.sources) {
    if (source.last_fetch !== null && (latest === undefined || source.last_fetch.at > latest.at))
      latest = source.last_fetch;
  }
  return latest;
}

/** A fetch's outcome in words. */
function fetchState(fetch: NonNullable<SourceFetch>): string {
  if (fetch.status === 'failed')
    return t('profiles.blocklists.fetchFailed', { when: formatRelative(fetch.at) });
  if (fetch.status === 'not_modified')
    return t('profiles.blocklists.fetchUnchanged', { when: formatRelative(fetch.at) });
  return t('profiles.blocklists.fetchOk', { when: formatRelative(fetch.at) });
}

/**
 * What a list holds and how fresh it is: its entries and when the version in force was built, the last
 * download and its outcome; a list never compiled says so rather than showing zeros as if they were facts.
 */
export function BlocklistFacts({ list }: { list: Blocklist }) {
  const fetch = lastFetchOf(list);
  const failed = list.sources.filter((source) => source.last_fetch?.status === 'failed');
  if (list.built_at === null)
    return (
      <p className="hint list-state list-state-empty">
        {fetch === undefined ? t('profiles.blocklists.neverFetched') : t('profiles.blocklists.neverBuilt')}
        {fetch !== undefined && ` ${fetchState(fetch)}`}
      </p>
    );
  return (
    <dl className="list-facts">
      <div>
        <dt>{t('profiles.blocklists.entries')}</dt>
        <dd>{formatNumber(list.entries)}</dd>
      </div>
      <div>
        <dt>{t('profiles.blocklists.builtAt')}</dt>
        <dd>
          <time dateTime={list.built_at}>{formatDateTime(list.built_at)}</time>
        </dd>
      </div>
      <div>
        <dt>{t('profiles.blocklists.lastFetch')}</dt>
        <dd className={failed.length > 0 ? 'list-state-failed' : undefined}>
          {fetch === undefined ? t('profiles.blocklists.noFetchYet') : fetchState(fetch)}
          {failed.length > 0 &&
            ` ${t('profiles.blocklists.keptLastGood', { sources: failed.map((source) => source.name) })}`}
        </dd>
      </div>
    </dl>
  );
}

/** A list's sources with their licences, what each last fetch found, and the credit they ask for. */
export function BlocklistSources({ list }: { list: Blocklist }) {
  const title = t('profiles.blocklists.sourcesOf', { name: list.name });
  return (
    <details>
      <summary>{title}</summary>
      <ResponsiveTable
        caption={title}
        captionHidden
        rows={list.sources}
        rowKey={(source) => String(source.id)}
        columns={[
          {
            header: t('profiles.blocklists.source'),
            cell: (source) =>
              /^https?:/.test(source.url) ? <a href={source.url}>{source.name}</a> : source.name,
          },
          {
            header: t('profiles.blocklists.licence'),
            cell: (source) => <a href={source.licence_url}>{source.licence}</a>,
          },
          {
            header: t('profiles.blocklists.entries'),
            numeric: true,
            cell: (source) => formatNumber(source.entries),
          },
          {
            header: t('profiles.blocklists.lastFetch'),
            cell: (source) => (
              <>
                {source.last_fetch === null
                  ? t('profiles.blocklists.noFetchYet')
                  : fetchState(source.last_fetch)}
                {source.last_fetch?.error != null && <span className="hint"> {source.last_fetch.error}</span>}
              </>
            ),
          },
        ]}
      />
      {list.attribution !== '' && <p className="attribution">{list.attribution}</p>}
    </details>
  );
}
