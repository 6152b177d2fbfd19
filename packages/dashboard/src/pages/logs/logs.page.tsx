import type { Profile } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { catalogueQueries } from '../../api/catalogue.queries.js';
import { profilesQueries } from '../../api/profiles.queries.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { type DisplayProblem, problemOf } from '../../problems/problem-of.js';
import { ProfileFrame } from '../profiles/profile-frame.js';
import { FILTER_LABELS, LogFilterForm } from './log-filter-form.js';
import { filtersOf, type LogView, logViewOf, searchOf } from './log-filters.js';
import { partialLabel } from './log-labels.js';
import type { LogRow } from './log-row.js';
import { LogRowDetails } from './log-row-details.js';
import { LogTable } from './log-table.js';
import { useLiveTail } from './use-live-tail.js';
import { useLogSearch } from './use-log-search.js';
import './logs.css';

/** The API's message for filter `name` (`qtype.0` belongs to `qtype`). */
function errorFinder(problem: DisplayProblem | null) {
  return (name: string) =>
    problem?.fieldErrors.find((error) => error.field === name || error.field.startsWith(`${name}.`))?.message;
}

function Logs({ profile }: { profile: Profile }) {
  const [, navigate] = useLocation();
  const search = useSearch();
  const view = useMemo(() => logViewOf(search), [search]);
  const filterKey = searchOf(view);
  const filters = useMemo(() => filtersOf(view), [view]);
  const [atTop, setAtTop] = useState(true);
  const [holding, setHolding] = useState(false);
  const [toTop, setToTop] = useState(0);
  const [selected, setSelected] = useState<LogRow | undefined>(undefined);
  const live = view.mode === 'live';
  const tail = useLiveTail(profile.id, filters, filterKey, live, live && (holding || !atTop));
  const found = useLogSearch(profile.id, filters, filterKey, !live);
  const devices = useQuery(profilesQueries.devices(profile.id));
  const catalogue = useQuery(catalogueQueries.lists());

  const rows = live ? tail.rows : found.rows;
  const problem = live ? tail.problem : found.search.isError ? problemOf(found.search.error) : null;
  const noLogs = live ? tail.noLogs : found.noLogs;
  const selectedIndex = selected === undefined ? undefined : rows.indexOf(selected);
  const { canLoadMore } = found;
  const { isFetchingNextPage, fetchNextPage } = found.search;
  const loadMore = useCallback(() => {
    if (canLoadMore && !isFetchingNextPage) void fetchNextPage();
  }, [canLoadMore, isFetchingNextPage, fetchNextPage]);
  const select = useCallback((index: number) => setSelected(rows[index]), [rows]);
  const apply = (next: LogView) => {
    setSelected(undefined);
    setHolding(false);
    setAtTop(true);
    const query = searchOf(next);
    navigate(`/profiles/${profile.id}/logs${query === '' ? '' : `?${query}`}`);
  };

  return (
    <>
      <details className="filters" open={filterKey !== '' || undefined}>
        <summary>{t('logs.filters')}</summary>
        <LogFilterForm
          view={view}
          devices={devices.data ?? []}
          lists={catalogue.data?.lists ?? []}
          errorOf={errorFinder(problem)}
          onApply={apply}
          onClear={() => apply({ ...logViewOf(''), mode: view.mode })}
        />
      </details>
      {problem !== null && (
        <ProblemDisplay
          problem={problem}
          fieldLabels={FILTER_LABELS}
          onRetry={() => (live ? tail.restart() : void found.search.refetch())}
        />
      )}
      {noLogs && (
        <p className="warning">
          This profile keeps no per-query logs:{' '}
          <Link href={`/profiles/${profile.id}/settings`}>Where logs go</Link> is “nowhere”.{' '}
          <Link href={`/profiles/${profile.id}/analytics`}>Analytics</Link> still count every query.
        </p>
      )}
      <div className="log-status-bar">
        {live ? (
          <>
            <p role="status" className={`tail-state tail-${tail.state}`}>
              {tail.state === 'connecting'
                ? t('logs.tail.connecting')
                : tail.state === 'reconnecting'
                  ? t('logs.tail.reconnecting')
                  : tail.state === 'ended'
                    ? t('logs.tail.ended')
                    : holding || !atTop
                      ? t('logs.tail.paused')
                      : t('logs.tail.live')}
            </p>
            {tail.notice !== null && <p className="hint">{tail.notice}</p>}
            {tail.state === 'ended' ? (
              <button type="button" onClick={tail.restart}>
                {t('logs.tail.restart')}
              </button>
            ) : (
              <button type="button" aria-pressed={holding} onClick={() => setHolding((value) => !value)}>
                {holding ? t('logs.tail.resume') : t('logs.tail.pause')}
              </button>
            )}
            {tail.held > 0 && (
              <button
                type="button"
                className="primary"
                onClick={() => {
                  setHolding(false);
                  setAtTop(true);
                  setToTop((value) => value + 1);
                  tail.release();
                }}
              >
                {t('logs.tail.showNew', { count: tail.held })}
              </button>
            )}
          </>
        ) : (
          <>
            <p role="status">
              {found.search.isPending
                ? t('logs.search.pending')
                : t('logs.search.found', { count: rows.length, more: found.canLoadMore })}
            </p>
            {found.partialReason !== undefined && (
              <p className="warning">{t('logs.partial', { why: partialLabel(found.partialReason) })}</p>
            )}
            {found.capped && <p className="hint">{t('logs.search.capped', { count: rows.length })}</p>}
          </>
        )}
      </div>
      {rows.length === 0 &&
      !(live ? tail.state === 'connecting' : found.search.isPending) &&
      problem === null ? (
        <p>{live ? t('logs.tail.empty') : t('logs.search.empty')}</p>
      ) : (
        <LogTable
          rows={rows}
          label={live ? t('logs.tail.table') : t('logs.search.table')}
          selected={selectedIndex === -1 ? undefined : selectedIndex}
          onSelect={select}
          onAtTop={live ? setAtTop : undefined}
          toTop={toTop}
          onNearEnd={live ? undefined : loadMore}
        />
      )}
      {!live && found.canLoadMore && (
        <button type="button" onClick={loadMore} disabled={isFetchingNextPage} aria-busy={isFetchingNextPage}>
          {isFetchingNextPage ? t('logs.search.loadingOlder') : t('logs.search.loadOlder')}
        </button>
      )}
      {selected !== undefined && (
        <LogRowDetails
          key={`${selected.ts}:${selected.qname}`}
          profileId={profile.id}
          row={selected}
          onClose={() => setSelected(undefined)}
        />
      )}
    </>
  );
}

/** The profile's query log: live tail, search with every filter, a query's details and what to do about it. */
export default function LogsPage() {
  return <ProfileFrame title={t('logs.title')}>{(profile) => <Logs profile={profile} />}</ProfileFrame>;
}
