import type { Node, NodeCreated, Profile } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api } from '../../api/client.js';
import { metaQueries } from '../../api/meta.queries.js';
import { nodesKeys, nodesQueries } from '../../api/nodes.queries.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { CopyButton } from '../../components/copy-button.js';
import { DateTime } from '../../components/date-time.js';
import { TableScroll } from '../../components/table-scroll.js';
import { useNotify } from '../../feedback/notify.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { ProfileFrame } from '../profiles/profile-frame.js';
import { enrolmentCommand } from './enrolment-command.js';

/** The node's link as a person reads it. */
function linkState(node: Node): string {
  if (node.state === 'revoked') return 'Revoked';
  if (node.state === 'pending') return 'Waiting for enrolment';
  return node.connected ? 'Connected' : 'Offline';
}

/** The code and the command, shown once right after creation. */
function EnrolmentShown({ created, baseUrl }: { created: NodeCreated; baseUrl: string }) {
  const command = enrolmentCommand(baseUrl, created.enrolment_code);
  return (
    <section className="notice" aria-labelledby="enrolment-code">
      <h3 id="enrolment-code">Enrol {created.node.name}</h3>
      <p role="status">Node {created.node.name} created: enrol it within 24 hours.</p>
      <p>
        This code is shown only now and works once, until{' '}
        <DateTime value={created.node.enrolment_expires_at} />. On the machine that will run the node, in a
        checkout of svc, run:
      </p>
      <pre className="secret">{command}</pre>
      <CopyButton text={command} label="Copy the command" />
      <p>
        Enrolment code: <code className="secret">{created.enrolment_code}</code>{' '}
        <CopyButton text={created.enrolment_code} label="Copy the enrolment code" />
      </p>
    </section>
  );
}

function NodeRow({ profileId, node }: { profileId: string; node: Node }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const revoke = useMutation({
    mutationFn: () => api.profiles.nodes.revoke(profileId, node.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: nodesKeys.list(profileId) });
      notify.success(t('nodes.revoked', { name: node.name }));
    },
  });
  return (
    <tr>
      <th scope="row">{node.name}</th>
      <td>{linkState(node)}</td>
      <td>{node.version ?? '—'}</td>
      <td>
        <DateTime value={node.last_seen_at} fallback="never" />
      </td>
      <td>
        {node.state === 'revoked' ? (
          <DateTime value={node.revoked_at} />
        ) : (
          <ConfirmedAction
            label="Revoke"
            ariaLabel={`Revoke ${node.name}`}
            confirmLabel={`Yes, revoke ${node.name}`}
            pending={revoke.isPending}
            onConfirm={() => revoke.mutate()}
          />
        )}
        {revoke.error !== null && <ProblemDisplay problem={problemOf(revoke.error)} />}
      </td>
    </tr>
  );
}

function Nodes({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const meta = useQuery(metaQueries.overview());
  const nodes = useQuery(nodesQueries.list(profile.id));
  const create = useApiForm(
    (values) => api.profiles.nodes.create(profile.id, { name: values.text('name').trim() }),
    {
      onSuccess: (created) => {
        void queryClient.invalidateQueries({ queryKey: nodesKeys.list(profile.id) });
        notify.success(t('nodes.created', { name: created.node.name }));
      },
      resetOnSuccess: true,
    },
  );
  const destination = profile.settings.log_destination;
  return (
    <>
      <p>
        A self-hosted node keeps this profile’s query logs on your own network and answers the dashboard’s log
        and analytics questions over its link.
      </p>
      {destination !== 'self-hosted' && destination !== 'both' && (
        <p className="warning">
          Logs of this profile go to {destination === 'none' ? 'nowhere' : 'the cloud'}: a node receives them
          when <Link href={`/profiles/${profile.id}/settings`}>Where logs go</Link> is “self-hosted” or
          “both”.
        </p>
      )}
      {nodes.isPending ? (
        <p aria-busy="true">Loading the nodes…</p>
      ) : nodes.isError ? (
        <ProblemDisplay problem={problemOf(nodes.error)} onRetry={() => void nodes.refetch()} />
      ) : nodes.data.length === 0 ? (
        <p>No node yet.</p>
      ) : (
        <TableScroll label={`Nodes of ${profile.name}`}>
          <table>
            <caption>Nodes of {profile.name}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Link</th>
                <th scope="col">Version</th>
                <th scope="col">Last seen</th>
                <th scope="col">Revoke</th>
              </tr>
            </thead>
            <tbody>
              {nodes.data.map((node) => (
                <NodeRow key={node.id} profileId={profile.id} node={node} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <section aria-labelledby="create-node">
        <h2 id="create-node">Add a node</h2>
        {create.problem !== null && (
          <ProblemDisplay problem={create.problem} fieldLabels={{ name: 'Node name' }} focus />
        )}
        {create.result !== undefined && create.problem === null && (
          <EnrolmentShown created={create.result} baseUrl={meta.data?.base_url ?? window.location.origin} />
        )}
        <form onSubmit={create.onSubmit} noValidate>
          <TextField
            name="name"
            label="Node name"
            hint="For example home-rack."
            error={create.errorOf('name')}
          />
          <SubmitButton pending={create.pending} busyText="Creating…">
            Create node
          </SubmitButton>
        </form>
      </section>
    </>
  );
}

/** Self-hosted nodes: create one (its enrolment code shown once with the command), link state, revoke. */
export default function NodesPage() {
  return <ProfileFrame title={t('nodes.title')}>{(profile) => <Nodes profile={profile} />}</ProfileFrame>;
}
