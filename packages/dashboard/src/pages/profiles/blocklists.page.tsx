import type { Blocklist, Profile } from '@svc/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api } from '../../api/client.js';
import { DateTime } from '../../components/date-time.js';
import { TableScroll } from '../../components/table-scroll.js';
import { CheckboxField } from '../../forms/checkbox-field.js';
import { fieldId } from '../../forms/field-id.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { ProfileFrame } from './profile-frame.js';
import { profileKey } from './use-profile.js';

const count = new Intl.NumberFormat();

/** Cache key of a profile's enabled lists. */
function listsKey(id: string) {
  return [...profileKey(id), 'lists'] as const;
}

/** Where a list backed by a setting is turned on, as a link to that setting's page. */
function BackedBy({ profileId, toggle }: { profileId: string; toggle: string }) {
  const [section] = toggle.split(/[.:]/);
  const page = section === 'security' ? 'security' : 'parental';
  return (
    <p className="hint">
      Turned on with{' '}
      <Link href={`/profiles/${profileId}/${page}`}>
        {page === 'security' ? 'Security' : 'Parental controls'}
      </Link>{' '}
      (<code>{toggle}</code>).
    </p>
  );
}

/** A list's sources with their licences and the credit they ask for. */
function Sources({ list }: { list: Blocklist }) {
  return (
    <details>
      <summary>Sources and licences of {list.name}</summary>
      <TableScroll label={`Sources and licences of ${list.name}`}>
        <table>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Licence</th>
              <th scope="col">Entries</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.sources.map((source) => (
              <tr key={source.id}>
                <td>{/^https?:/.test(source.url) ? <a href={source.url}>{source.name}</a> : source.name}</td>
                <td>
                  <a href={source.licence_url}>{source.licence}</a>
                </td>
                <td>{count.format(source.entries)}</td>
                <td>
                  <DateTime value={source.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {list.attribution !== '' && <p className="attribution">{list.attribution}</p>}
    </details>
  );
}

function Blocklists({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const catalogue = useQuery({ queryKey: ['catalogue', 'lists'], queryFn: () => api.catalogue.lists() });
  const enabled = useQuery({
    queryKey: listsKey(profile.id),
    queryFn: async () => {
      const answer = await api.profiles.lists.get(profile.id).withResponse();
      return { lists: answer.data, etag: answer.etag };
    },
  });
  const form = useApiForm(
    async (values) => {
      const answer = await api.profiles.lists
        .replace(profile.id, values.all('lists').map(Number), { ifMatch: enabled.data?.etag })
        .withResponse();
      return { lists: answer.data, etag: answer.etag };
    },
    {
      onSuccess: (stored) => {
        queryClient.setQueryData(listsKey(profile.id), stored);
        void queryClient.invalidateQueries({ queryKey: profileKey(profile.id), exact: true });
      },
    },
  );
  if (catalogue.isError || enabled.isError)
    return (
      <ProblemDisplay
        problem={problemOf(catalogue.error ?? enabled.error)}
        onRetry={() => {
          void catalogue.refetch();
          void enabled.refetch();
        }}
      />
    );
  if (catalogue.data === undefined || enabled.data === undefined)
    return <p aria-busy="true">Loading the catalogue…</p>;
  const byId = catalogue.data.lists.filter((list) => list.toggle === '');
  const bySetting = catalogue.data.lists.filter((list) => list.toggle !== '');
  return (
    <>
      <p>
        Blocklists maintained by others, compiled by the service (catalogue version {catalogue.data.version},{' '}
        <DateTime value={catalogue.data.updated_at} />
        ). Your own rules and allowed names always win.
      </p>
      {form.problem !== null && (
        <ProblemDisplay problem={form.problem} fieldLabels={{ lists: 'Blocklists' }} focus>
          {form.problem.code === 'version_mismatch' && (
            <button
              type="button"
              onClick={() => {
                form.reset();
                void enabled.refetch();
              }}
            >
              Load the latest version
            </button>
          )}
        </ProblemDisplay>
      )}
      {form.result !== undefined && form.problem === null && (
        <p className="notice" role="status">
          Saved: {form.result.lists.length} list{form.result.lists.length === 1 ? '' : 's'} on.
        </p>
      )}
      <form onSubmit={form.onSubmit} noValidate key={enabled.data.etag}>
        <fieldset id={fieldId('lists')}>
          <legend>Lists you turn on here</legend>
          {byId.map((list) => (
            <div key={list.id} className="blocklist">
              <CheckboxField
                id={`${fieldId('lists')}-${list.id}`}
                name="lists"
                value={String(list.id)}
                label={list.name}
                hint={list.description}
                defaultChecked={enabled.data.lists.includes(list.id)}
              />
              <Sources list={list} />
            </div>
          ))}
        </fieldset>
        <SubmitButton pending={form.pending} busyText="Saving…">
          Save blocklists
        </SubmitButton>
      </form>
      <h2>Lists behind security and parental settings</h2>
      <ul className="blocklist-backed">
        {bySetting.map((list) => (
          <li key={list.id} className="blocklist">
            <strong>{list.name}</strong>
            <p className="hint">{list.description}</p>
            <BackedBy profileId={profile.id} toggle={list.toggle} />
            <Sources list={list} />
          </li>
        ))}
      </ul>
    </>
  );
}

/** The blocklist catalogue with its licences, and which lists this profile turns on. */
export default function BlocklistsPage() {
  return <ProfileFrame title="Blocklists">{(profile) => <Blocklists profile={profile} />}</ProfileFrame>;
}
