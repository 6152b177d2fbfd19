import { type FormEvent, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { TableScroll } from '../../components/table-scroll.js';
import { OperatorFrame } from './operator-frame.js';
import { PagedList, usePagedList } from './paged-list.js';

/** An entry's details in one short line. */
function detailsOf(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(
      ([key, value]) =>
        `${key.replace(/_/g, ' ')}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    )
    .join(' · ');
}

/** Every organisation's audit log, newest first, filtered by organisation and action. */
export default function OperatorAuditPage() {
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const orgId = params.get('org_id') ?? '';
  const action = params.get('action') ?? '';
  const [typedOrg, setTypedOrg] = useState(orgId);
  const [typedAction, setTypedAction] = useState(action);
  const entries = usePagedList(['admin', 'audit', orgId, action], (cursor) =>
    api.admin.audit
      .list({ limit: 50, ...(orgId === '' ? {} : { orgId }), ...(action === '' ? {} : { action }) })
      .page(cursor),
  );
  const filter = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (typedOrg.trim() !== '') next.set('org_id', typedOrg.trim());
    if (typedAction.trim() !== '') next.set('action', typedAction.trim());
    navigate(`/operator/audit${next.size > 0 ? `?${next}` : ''}`);
  };
  return (
    <OperatorFrame title="Audit log">
      <form onSubmit={filter} className="inline-form" aria-label="Audit filters">
        <div className="field">
          <label htmlFor="audit-org">Organisation id</label>
          <input
            id="audit-org"
            value={typedOrg}
            onChange={(event) => setTypedOrg(event.target.value)}
            spellCheck={false}
          />
        </div>
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <input
            id="audit-action"
            value={typedAction}
            onChange={(event) => setTypedAction(event.target.value)}
            spellCheck={false}
          />
        </div>
        <button type="submit" className="primary">
          Filter
        </button>
      </form>
      <PagedList list={entries} empty="No entry matches." more="Show older entries">
        {(items) => (
          <TableScroll label="Audit entries of every organisation">
            <table>
              <caption>Audit entries of every organisation, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Organisation</th>
                  <th scope="col">Action</th>
                  <th scope="col">By</th>
                  <th scope="col">On</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {items.map((entry) => (
                  <tr key={`${entry.org_id}:${entry.id}`}>
                    <td>
                      <DateTime value={entry.created_at} />
                    </td>
                    <td>
                      <code>{entry.org_id}</code>
                    </td>
                    <td>
                      <code>{entry.action}</code>
                    </td>
                    <td>{entry.actor}</td>
                    <td>{entry.target}</td>
                    <td>{detailsOf(entry.details)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </PagedList>
    </OperatorFrame>
  );
}
