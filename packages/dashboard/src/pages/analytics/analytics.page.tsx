import { type AnalyticsShape, type Profile, type QueryResult, queryRecords } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { FormValues } from '../../forms/form-values.js';
import { logViewOf, searchOf } from '../logs/log-filters.js';
import { ProfileFrame } from '../profiles/profile-frame.js';
import { useMeta } from '../profiles/use-capabilities.js';
import { AnalyticsPanel } from './analytics-panel.js';
import { PRESETS, type TimeRange, timeRangeOf } from './time-range.js';
import { TimelineChart } from './timeline-chart.js';
import { TIMELINE_SERIES, timelineData } from './timeline-data.js';
import { type TopItem, TopTable } from './top-table.js';
import './analytics.css';
import { TableScroll } from '../../components/table-scroll.js';

const number = new Intl.NumberFormat();
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const regions = new Intl.DisplayNames(undefined, { type: 'region' });
const bucketTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** Rows of each top list. */
const TOP = 10;

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** One shape of the profile's analytics over the range. */
function useShape(profileId: string, shape: AnalyticsShape, range: TimeRange) {
  return useQuery({
    queryKey: ['profiles', profileId, 'analytics', shape, range.from, range.to, range.bucket],
    queryFn: (): Promise<QueryResult> =>
      api.profiles.analytics.query(profileId, shape, {
        from: range.from,
        to: range.to,
        ...(shape === 'timeline'
          ? { bucket: range.bucket }
          : shape === 'counts_by_status'
            ? {}
            : { limit: TOP }),
      }),
    staleTime: 60_000,
  });
}

/** `YYYY-MM-DDTHH:MM` in local time for a datetime-local input. */
function localInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (part: number) => String(part).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The range picker: presets, or a custom window; it changes the page's address. */
function RangePicker({ path, range, onRefresh }: { path: string; range: TimeRange; onRefresh: () => void }) {
  const [, navigate] = useLocation();
  const [custom, setCustom] = useState(range.key === 'custom');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = new FormValues(new FormData(event.currentTarget));
    const key = values.text('range');
    if (key !== 'custom') {
      navigate(`${path}?range=${key}`);
      return;
    }
    const from = new Date(values.text('from'));
    const to = new Date(values.text('to'));
    const iso = (date: Date, typed: string) => (Number.isNaN(date.getTime()) ? typed : date.toISOString());
    navigate(
      `${path}?${new URLSearchParams({ from: iso(from, values.text('from')), to: iso(to, values.text('to')) })}`,
    );
  };
  return (
    <form
      className="range-picker"
      onSubmit={submit}
      aria-label="Time range"
      key={`${range.key}:${range.from}`}
    >
      <div className="field">
        <label htmlFor="range">Time range</label>
        <select
          id="range"
          name="range"
          defaultValue={range.key}
          onChange={(event) => setCustom(event.target.value === 'custom')}
        >
          {PRESETS.map((preset) => (
            <option key={preset.key} value={preset.key}>
              {preset.label}
            </option>
          ))}
          <option value="custom">Custom range</option>
        </select>
      </div>
      {custom && (
        <>
          <div className="field">
            <label htmlFor="range-from">From</label>
            <input id="range-from" name="from" type="datetime-local" defaultValue={localInput(range.from)} />
          </div>
          <div className="field">
            <label htmlFor="range-to">To</label>
            <input id="range-to" name="to" type="datetime-local" defaultValue={localInput(range.to)} />
          </div>
        </>
      )}
      <div className="actions">
        <button type="submit" className="primary">
          Show
        </button>
        <button type="button" onClick={onRefresh}>
          Refresh
        </button>
      </div>
    </form>
  );
}

/** The numbers behind the chart, as a table, built only when opened. */
function TimelineNumbers({ data }: { data: ReturnType<typeof timelineData> }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>The numbers behind the chart</summary>
      {open && (
        <TableScroll label="The numbers behind the chart">
          <table>
            <thead>
              <tr>
                <th scope="col">From</th>
                {TIMELINE_SERIES.map((status) => (
                  <th scope="col" className="numeric" key={status.key}>
                    {status.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.x.map((start, at) =>
                TIMELINE_SERIES.every((_status, index) => (data.series[index]?.[at] ?? 0) === 0) ? null : (
                  <tr key={start}>
                    <td>{bucketTime.format(start * 1000)}</td>
                    {TIMELINE_SERIES.map((status, index) => (
                      <td className="numeric" key={status.key}>
                        {number.format(data.series[index]?.[at] ?? 0)}
                      </td>
                    ))}
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </TableScroll>
      )}
    </details>
  );
}

function Analytics({ profile }: { profile: Profile }) {
  const search = useSearch();
  const [now, setNow] = useState(() => Date.now());
  const range = useMemo(() => timeRangeOf(search, now), [search, now]);
  const meta = useMeta();
  const pops = useQuery({ queryKey: ['meta', 'pops'], queryFn: () => api.meta.pops(), staleTime: 300_000 });
  const timeline = useShape(profile.id, 'timeline', range);
  const counts = useShape(profile.id, 'counts_by_status', range);
  const domains = useShape(profile.id, 'top_domains', range);
  const blocked = useShape(profile.id, 'top_blocked', range);
  const devices = useShape(profile.id, 'top_devices', range);
  const reasons = useShape(profile.id, 'top_reasons', range);
  const owners = useShape(profile.id, 'top_owners', range);
  const popsUsed = useShape(profile.id, 'top_pops', range);
  const destinations = useShape(profile.id, 'destinations', range);

  /** The logs of this range, searched with `filters` (a query string of the logs page). */
  const logs = (filters: Record<string, string>) => {
    const view = logViewOf(new URLSearchParams(filters).toString());
    return `/profiles/${profile.id}/logs?${searchOf({ ...view, mode: 'search', from: range.from, to: range.to })}`;
  };
  const chart = useMemo(
    () =>
      timeline.data === undefined
        ? undefined
        : timelineData(timeline.data, range.from, range.to, range.bucket),
    [timeline.data, range],
  );
  const top = (result: QueryResult, item: (record: Record<string, unknown>) => TopItem) =>
    queryRecords(result).map((record) => item(record));

  return (
    <>
      <RangePicker
        path={`/profiles/${profile.id}/analytics`}
        range={range}
        onRefresh={() => setNow(Date.now())}
      />
      <p className="hint">{range.label}. Select an item to see its queries in the logs.</p>
      <div className="panels">
        <AnalyticsPanel title="Queries by status" query={counts} wide>
          {(result) => {
            const byStatus = new Map(
              queryRecords(result).map((record) => [text(record.status), Number(record.count ?? 0)]),
            );
            const total = [...byStatus.values()].reduce((sum, value) => sum + value, 0);
            return (
              <dl className="status-counts">
                <div>
                  <dt>All queries</dt>
                  <dd>{number.format(total)}</dd>
                </div>
                {TIMELINE_SERIES.map((status) => {
                  const value = byStatus.get(status.key) ?? 0;
                  return (
                    <div key={status.key}>
                      <dt>
                        <Link href={logs({ status: status.key })}>{status.label}</Link>
                      </dt>
                      <dd>
                        {number.format(value)}
                        {total > 0 && <span className="hint"> ({percent.format(value / total)})</span>}
                      </dd>
                    </div>
                  );
                })}
              </dl>
            );
          }}
        </AnalyticsPanel>
        <AnalyticsPanel title="Queries over time" query={timeline} wide>
          {() =>
            chart === undefined ? null : (
              <>
                <TimelineChart
                  data={chart}
                  label={`Stacked chart of allowed, rewritten, blocked and failed queries, ${range.label.toLowerCase()}`}
                />
                <TimelineNumbers data={chart} />
              </>
            )
          }
        </AnalyticsPanel>
        <AnalyticsPanel title="Top domains" query={domains}>
          {(result) => (
            <TopTable
              caption="Most queried domains"
              itemHeading="Domain"
              items={top(result, (record) => ({
                key: text(record.qname),
                label: text(record.qname),
                count: Number(record.count ?? 0),
                href: logs({ qname: text(record.qname) }),
              }))}
            />
          )}
        </AnalyticsPanel>
        <AnalyticsPanel title="Top blocked domains" query={blocked}>
          {(result) => (
            <TopTable
              caption="Most blocked domains"
              itemHeading="Domain"
              items={top(result, (record) => ({
                key: text(record.qname),
                label: text(record.qname),
                count: Number(record.count ?? 0),
                href: logs({ qname: text(record.qname), status: 'blocked' }),
              }))}
            />
          )}
        </AnalyticsPanel>
        <AnalyticsPanel title="Top devices" query={devices}>
          {(result) => (
            <TopTable
              caption="Devices with the most queries"
              itemHeading="Device"
              items={top(result, (record) => ({
                key: text(record.device_id),
                label: text(record.device_name) || text(record.device_id),
                count: Number(record.count ?? 0),
                href: logs({ device: text(record.device_id) }),
              }))}
            />
          )}
        </AnalyticsPanel>
        <AnalyticsPanel title="Top reasons" query={reasons}>
          {(result) => (
            <TopTable
              caption="What blocked or rewrote queries"
              itemHeading="Reason"
              items={top(result, (record) => {
                const code = text(record.reason_code);
                const listId = text(record.list_id);
                const kind =
                  code === 'list'
                    ? 'list'
                    : code === 'rule'
                      ? 'rule'
                      : code === 'rewrite'
                        ? 'rewrite'
                        : code.startsWith('operator:')
                          ? `operator, ${code.slice('operator:'.length).replace('_', ' ')}`
                          : 'not filtered';
                return {
                  key: `${code}:${listId}:${text(record.reason)}`,
                  label: text(record.reason) || kind,
                  detail: `(${kind})`,
                  count: Number(record.count ?? 0),
                  href:
                    code === 'list' && listId !== ''
                      ? logs({ list: listId, status: 'blocked' })
                      : code === 'rewrite'
                        ? logs({ status: 'rewritten' })
                        : code === 'none'
                          ? undefined
                          : logs({ status: 'blocked' }),
                };
              })}
            />
          )}
        </AnalyticsPanel>
        <AnalyticsPanel title="Top owners" query={owners}>
          {(result) => (
            <TopTable
              caption="Companies behind the queried names"
              itemHeading="Owner"
              items={top(result, (record) => ({
                key: text(record.owner),
                label: text(record.owner).replace(/^./, (first) => first.toUpperCase()),
                count: Number(record.count ?? 0),
              }))}
            />
          )}
        </AnalyticsPanel>
        <AnalyticsPanel title="Points of presence" query={popsUsed}>
          {(result) => (
            <TopTable
              caption="Where the queries were answered"
              itemHeading="PoP"
              items={top(result, (record) => {
                const id = text(record.pop);
                const pop = pops.data?.pops.find((each) => each.id === id);
                return {
                  key: id,
                  label: id === 'node' ? 'Your node' : pop === undefined ? id : `${pop.name} (${id})`,
                  count: Number(record.count ?? 0),
                };
              })}
            />
          )}
        </AnalyticsPanel>
        <AnalyticsPanel title="Destinations" query={destinations} wide>
          {(result) => {
            const rows = queryRecords(result);
            return rows.length === 0 ? (
              <p>Nothing in this range.</p>
            ) : (
              <>
                <TableScroll label="Addresses allowed queries were answered with">
                  <table className="top-table">
                    <caption className="visually-hidden">
                      Addresses allowed queries were answered with
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Address</th>
                        <th scope="col">Country</th>
                        <th scope="col">Owner</th>
                        <th scope="col" className="numeric">
                          Queries
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((record) => {
                        const country = text(record.country);
                        return (
                          <tr key={text(record.ip)}>
                            <td>
                              <code>{text(record.ip)}</code>
                            </td>
                            <td>
                              {country === '' ? 'unknown' : `${regions.of(country) ?? country} (${country})`}
                            </td>
                            <td>{text(record.owner) || '—'}</td>
                            <td className="numeric">{number.format(Number(record.count ?? 0))}</td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </TableScroll>
                {meta.data !== undefined && meta.data.geoip_attribution !== '' && (
                  <p className="attribution">{meta.data.geoip_attribution}</p>
                )}
              </>
            );
          }}
        </AnalyticsPanel>
      </div>
    </>
  );
}

/** The profile's analytics over a time range: timeline, counts, top lists and destinations. */
export default function AnalyticsPage() {
  return <ProfileFrame title="Analytics">{(profile) => <Analytics profile={profile} />}</ProfileFrame>;
}
