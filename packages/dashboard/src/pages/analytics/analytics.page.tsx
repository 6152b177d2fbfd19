import type { Profile } from '@svc/sdk';
import { useMemo, useState } from 'react';
import { useSearch } from 'wouter';
import { t } from '../../i18n/t.js';
import { logViewOf, searchOf } from '../logs/log-filters.js';
import { ProfileFrame } from '../profiles/profile-frame.js';
import { DestinationsPanel } from './panels/destinations.panel.js';
import type { PanelProps } from './panels/panel-props.js';
import { StatusCountsPanel } from './panels/status-counts.panel.js';
import { TimelinePanel } from './panels/timeline.panel.js';
import { TopDevicesPanel } from './panels/top-devices.panel.js';
import { TopDomainsPanel } from './panels/top-domains.panel.js';
import { TopOwnersPanel } from './panels/top-owners.panel.js';
import { TopPopsPanel } from './panels/top-pops.panel.js';
import { TopReasonsPanel } from './panels/top-reasons.panel.js';
import { RangePicker } from './range-picker.js';
import { timeRangeOf } from './time-range.js';
import './analytics.css';

/** The panels over the range in the address; each asks for its own shape and shows its own problem. */
function Analytics({ profile }: { profile: Profile }) {
  const search = useSearch();
  const [now, setNow] = useState(() => Date.now());
  const range = useMemo(() => timeRangeOf(search, now), [search, now]);
  const panel: PanelProps = {
    profileId: profile.id,
    range,
    logs: (filters) => {
      const view = logViewOf(new URLSearchParams(filters).toString());
      return `/profiles/${profile.id}/logs?${searchOf({ ...view, mode: 'search', from: range.from, to: range.to })}`;
    },
  };
  return (
    <>
      <RangePicker
        path={`/profiles/${profile.id}/analytics`}
        range={range}
        onRefresh={() => setNow(Date.now())}
      />
      <p className="hint">{t('analytics.hint', { range: range.label })}</p>
      <div className="panels">
        <StatusCountsPanel {...panel} />
        <TimelinePanel {...panel} />
        <TopDomainsPanel {...panel} />
        <TopDomainsPanel {...panel} blocked />
        <TopDevicesPanel {...panel} />
        <TopReasonsPanel {...panel} />
        <TopOwnersPanel {...panel} />
        <TopPopsPanel {...panel} />
        <DestinationsPanel {...panel} />
      </div>
    </>
  );
}

/** The profile's analytics over a time range: timeline, counts, top lists and destinations. */
export default function AnalyticsPage() {
  return (
    <ProfileFrame title={t('analytics.title')}>{(profile) => <Analytics profile={profile} />}</ProfileFrame>
  );
}
