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
import { type LiveTail, useLiveTail } from './use-live-tail.js';
import { type LogSearch, useLogSearch } from './use-log-search.js';
import './logs.css';

/** The API's message for filter `name` (`qtype.0` belongs to `qtype`). */
function errorFinder(problem: DisplayProblem | null) {
  return (name: string) =>
    problem?.fieldErrors.find((error) => error.field === name || error.field.startsWith(`${name}.`))?.message;
}

/** Why the table stays empty when the profile's logs go nowhere, with the way to change it. */
function NoLogsWarning({ profileId }: { profileId: string }) {
  return (
    <p className="warning">
      {t('logs.noLogs.start')}
      <Link href={`/profiles/${profileId}/settings`}>{t('logs.noLogs.settings')}</Link>
      {t('logs.noLogs.middle')}
      <Link href={`/profiles/${profileId}/analytics`}>{t('logs.noLogs.analytics')}</Link>
      {t('logs.noLogs.end')}
    </p>
  );
}

/** The live tail's state in words. */
function tailStateText(tail: LiveTail, paused: boolean): string {
  if (tail.state === 'connecting') return t('logs.tail.connecting');
  if (tail.state === 'reconnecting') return t('logs.tail.reconnecting');
  if (tail.state === 'ended') return t('logs.tail.ended');
  return paused ? t('logs.tail.paused') : t('logs.tail.live');
}

/** The live tail's state, its notice, pause or restart, and the rows held while paused. */
function TailStatus({
  tail,
  paused,
  holding,
  onHold,
  onShowHeld,
}: {
  tail: LiveTail;
  paused: boolean;
  holding: boolean;
  onHold: () => void;
  onShowHeld: () => void;
}) {
  return (
    <>
      <p role="status" className={`tail-state tail-${tail.state}`}>
        {tailStateText(tail, paused)}
      </p>
      {tail.notice !== null && <p className="hint">{tail.notice}</p>}
      {tail.state === 'ended' ? (
        <button type="button" onClick={tail.restart}>
          {t('logs.tail.restart')}
        </button>
      ) : (
        <button type="button" aria-pressed={holding} onClick={onHold}>
          {holding ? t('logs.tail.resume') : t('logs.tail.pause')}
        </button>
      )}
      {tail.held > 0 && (
        <button type="button" className="primary" onClick={onShowHeld}>
          {t('logs.tail.showNew', { count: tail.held })}
        </button>
      )}
    </>
  );
}

/** How many rows a search found, and whether the answer is partial or capped. */
function SearchStatus({ found, count }: { found: LogSearch; count: number }) {
  return (
    <>
      <p role="status">
        {found.search.isPending
          ? t('logs.search.pending')
          : t('logs.search.found', { count, more: found.canLoadMore })}
      </p>
      {found.partialReason !== undefined && (
        <p className="warning">{t('logs.partial', { why: partialLabel(found.partialReason) })}</p>
      )}
      {found.capped && <p className="hint">{t('logs.search.capped', { count })}</p>}
    </>
  );
}

/** The filters, folded away until some are set; the devices and lists are offered by their names. */
function Filters({
  profileId,
  view,
  problem,
  onApply,
}: {
  profileId: string;
  view: LogView;
  problem: DisplayProblem | null;
  onApply: (view: LogView) => void;
}) {
  const devices = useQuery(profilesQueries.devices(profileId));
  const catalogue = useQuery(catalogueQueries.lists());
  return (
    <details className="filters" open={searchOf(view) !== '' || undefined}>
      <summary>{t('logs.filters')}</summary>
      <LogFilterForm
        view={view}
        devices={devices.data ?? []}
        lists={catalogue.data?.lists ?? []}
        errorOf={errorFinder(problem)}
        onApply={onApply}
        onClear={() => onApply({ ...logViewOf(''), mode: view.mode })}
      />
    </details>
  );
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
      <Filters profileId={profile.id} view={view} problem={problem} onApply={apply} />
      {problem !== null && (
        <ProblemDisplay
          problem={problem}
          fieldLabels={FILTER_LABELS}
          onRetry={() => (live ? tail.restart() : void found.search.refetch())}
        />
      )}
      {noLogs && <NoLogsWarning profileId={profile.id} />}
      <div className="log-status-bar">
        {live ? (
          <TailStatus
            tail={tail}
            paused={holding || !atTop}
            holding={holding}
            onHold={() => setHolding((value) => !value)}
            onShowHeld={() => {
              setHolding(false);
              setAtTop(true);
              setToTop((value) => value + 1);
              tail.release();
            }}
          />
        ) : (
          <SearchStatus found={found} count={rows.length} />
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
