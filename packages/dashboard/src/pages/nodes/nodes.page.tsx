import type { Node, NodeCreated, Profile } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api } from '../../api/client.js';
import { metaQueries } from '../../api/meta.queries.js';
import { nodesKeys, nodesQueries } from '../../api/nodes.queries.js';
import { ConfirmedAction } from '../../components/confirmed-action.js';
import { CopyButton } from '../../components/copy-button.js';
import { DateTime } from '../../components/date-time.js';
import { ResponsiveTable } from '../../components/responsive-table.js';
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
  if (node.state === 'revoked') return t('nodes.state.revoked');
  if (node.state === 'pending') return t('nodes.state.pending');
  return node.connected ? t('nodes.state.connected') : t('nodes.state.offline');
}

/** The code and the command, shown once right after creation. */
function EnrolmentShown({ created, baseUrl }: { created: NodeCreated; baseUrl: string }) {
  const command = enrolmentCommand(baseUrl, created.enrolment_code);
  return (
    <section className="notice" aria-labelledby="enrolment-code">
      <h3 id="enrolment-code">{t('nodes.enrol.title', { name: created.node.name })}</h3>
      <p role="status">{t('nodes.enrol.created', { name: created.node.name })}</p>
      <p>
        {t('nodes.enrol.onceUntil')}
        <DateTime value={created.node.enrolment_expires_at} />
        {t('nodes.enrol.run')}
      </p>
      <pre className="secret">{command}</pre>
      <CopyButton text={command} label={t('nodes.enrol.copyCommand')} />
      <p>
        {t('nodes.enrol.code')}
        <code className="secret">{created.enrolment_code}</code>{' '}
        <CopyButton text={created.enrolment_code} label={t('nodes.enrol.copyCode')} />
      </p>
    </section>
  );
}

/** A node's revocation (asked first), or when it was revoked. */
function RevokeNode({ profileId, node }: { profileId: string; node: Node }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const revoke = useMutation({
    mutationFn: () => api.profiles.nodes.revoke(profileId, node.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: nodesKeys.list(profileId) });
      notify.success(t('nodes.revoked', { name: node.name }));
    },
  });
  if (node.state === 'revoked') return <DateTime value={node.revoked_at} />;
  return (
    <>
      <ConfirmedAction
        label={t('nodes.revoke')}
        ariaLabel={t('nodes.revoke.aria', { name: node.name })}
        confirmLabel={t('nodes.revoke.confirm', { name: node.name })}
        pending={revoke.isPending}
        onConfirm={() => revoke.mutate()}
      />
      {revoke.error !== null && <ProblemDisplay problem={problemOf(revoke.error)} />}
    </>
  );
}

/** The profile's nodes: a table on a wide screen, one card per node on a phone. */
function NodeTable({ profile, nodes }: { profile: Profile; nodes: readonly Node[] }) {
  return (
    <ResponsiveTable
      caption={t('nodes.table', { profile: profile.name })}
      rows={nodes}
      rowKey={(node) => node.id}
      columns={[
        { header: t('nodes.column.name'), cell: (node) => node.name },
        { header: t('nodes.column.link'), cell: linkState },
        { header: t('nodes.column.version'), cell: (node) => node.version ?? '—' },
        {
          header: t('nodes.column.lastSeen'),
          cell: (node) => <DateTime value={node.last_seen_at} fallback={t('nodes.never')} />,
        },
        {
          header: t('nodes.column.revoke'),
          cell: (node) => <RevokeNode profileId={profile.id} node={node} />,
        },
      ]}
    />
  );
}

/** Where this profile's logs go, when a node would receive none of them. */
function DestinationWarning({ profile }: { profile: Profile }) {
  const destination = profile.settings.log_destination;
  if (destination === 'self-hosted' || destination === 'both') return null;
  const where = destination === 'none' ? t('nodes.destination.nowhere') : t('nodes.destination.theCloud');
  return (
    <p className="warning">
      {t('nodes.destination.start', { where })}
      <Link href={`/profiles/${profile.id}/settings`}>{t('nodes.destination.settings')}</Link>
      {t('nodes.destination.end')}
    </p>
  );
}

/** Naming a new node; its enrolment is shown once the API created it. */
function AddNode({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const meta = useQuery(metaQueries.overview());
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
  return (
    <section aria-labelledby="create-node">
      <h2 id="create-node">{t('nodes.add.title')}</h2>
      {create.problem !== null && (
        <ProblemDisplay problem={create.problem} fieldLabels={{ name: t('nodes.add.name') }} focus />
      )}
      {create.result !== undefined && create.problem === null && (
        <EnrolmentShown created={create.result} baseUrl={meta.data?.base_url ?? window.location.origin} />
      )}
      <form onSubmit={create.onSubmit} noValidate>
        <TextField
          name="name"
          label={t('nodes.add.name')}
          hint={t('nodes.add.name.hint')}
          error={create.errorOf('name')}
        />
        <SubmitButton pending={create.pending} busyText={t('nodes.add.busy')}>
          {t('nodes.add.button')}
        </SubmitButton>
      </form>
    </section>
  );
}

function Nodes({ profile }: { profile: Profile }) {
  const nodes = useQuery(nodesQueries.list(profile.id));
  return (
    <>
      <p>{t('nodes.intro')}</p>
      <DestinationWarning profile={profile} />
      {nodes.isPending ? (
        <p aria-busy="true">{t('nodes.loading')}</p>
      ) : nodes.isError ? (
        <ProblemDisplay problem={problemOf(nodes.error)} onRetry={() => void nodes.refetch()} />
      ) : nodes.data.length === 0 ? (
        <p>{t('nodes.none')}</p>
      ) : (
        <NodeTable profile={profile} nodes={nodes.data} />
      )}
      <AddNode profile={profile} />
    </>
  );
}

/** Self-hosted nodes: create one (its enrolment code shown once with the command), link state, revoke. */
export default function NodesPage() {
  return <ProfileFrame title={t('nodes.title')}>{(profile) => <Nodes profile={profile} />}</ProfileFrame>;
}
