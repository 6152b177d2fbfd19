import type { Invitation, InvitationCreate, Member } from '@svc/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '../../api/account.queries.js';
import { api } from '../../api/client.js';
import { membersKeys, membersQueries } from '../../api/members.queries.js';
import { DateTime } from '../../components/date-time.js';
import { ResponsiveTable } from '../../components/responsive-table.js';
import { useNotify } from '../../feedback/notify.js';
import { ChoiceField } from '../../forms/choice-field.js';
import { FormProblem } from '../../forms/form-problem.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextField } from '../../forms/text-field.js';
import { type ApiForm, useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { useAccount } from '../../session/use-account.js';
import { AccountTabs } from './account-tabs.js';
import { OrganisationSwitcher } from './organisation-switcher.js';

/** The roles that can be given (ownership is transferred, never given), most powerful first. */
const ASSIGNABLE = ['admin', 'editor', 'viewer'] as const;
type AssignableRole = (typeof ASSIGNABLE)[number];

const roleLabel = (role: string) => t(`members.role.${role}` as 'members.role.viewer');
const isAssignable = (value: string): value is AssignableRole => ASSIGNABLE.some((role) => role === value);
const LABELS = { email: t('members.inviteEmail'), role: t('members.inviteRole') };

/** Inviting someone by email with a role. */
function InviteForm({ invite }: { invite: ApiForm<Invitation> }) {
  return (
    <section aria-labelledby="invite-title">
      <h2 id="invite-title">{t('members.invite')}</h2>
      <FormProblem form={invite} labels={LABELS} />
      <form onSubmit={invite.onSubmit} noValidate>
        <TextField name="email" label={LABELS.email} type="email" error={invite.errorOf('email')} />
        <ChoiceField
          name="role"
          legend={LABELS.role}
          defaultValue="viewer"
          choices={ASSIGNABLE.map((role) => ({ value: role, label: roleLabel(role) }))}
          error={invite.errorOf('role')}
        />
        <SubmitButton pending={invite.pending}>{t('members.inviteSubmit')}</SubmitButton>
      </form>
    </section>
  );
}

/** The members, with a role menu and a Remove button each for those who manage them. */
function MembersTable({ members, manage }: { members: readonly Member[]; manage: boolean }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: membersKeys.members() });
  const change = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: AssignableRole }) =>
      api.org.members.updateRole(member.id, role),
    onSuccess: (member) => {
      refresh();
      notify.success(t('members.roleChanged', { email: member.email, role: roleLabel(member.role) }));
    },
  });
  const remove = useMutation({
    mutationFn: (member: Member) => api.org.members.remove(member.id),
    onSuccess: (_, member) => {
      refresh();
      notify.success(t('members.removed', { email: member.email }));
    },
  });
  const roleCell = (member: Member) =>
    !manage || member.role === 'owner' ? (
      roleLabel(member.role)
    ) : (
      <select
        aria-label={t('members.roleOf', { email: member.email })}
        value={member.role}
        disabled={change.isPending}
        onChange={(event) => {
          const role = event.currentTarget.value;
          if (isAssignable(role)) change.mutate({ member, role });
        }}
      >
        {ASSIGNABLE.map((role) => (
          <option key={role} value={role}>
            {roleLabel(role)}
          </option>
        ))}
      </select>
    );
  return (
    <>
      {change.isError && <ProblemDisplay problem={problemOf(change.error)} />}
      {remove.isError && <ProblemDisplay problem={problemOf(remove.error)} />}
      <ResponsiveTable
        caption={t('members.caption')}
        rows={members}
        rowKey={(member) => member.id}
        columns={[
          { header: t('members.email'), cell: (member) => member.email },
          { header: t('members.role'), cell: roleCell },
          { header: t('members.joined'), cell: (member) => <DateTime value={member.joined_at} /> },
          ...(manage
            ? [
                {
                  header: t('members.action'),
                  cell: (member: Member) =>
                    member.role === 'owner' ? null : (
                      <button
                        type="button"
                        className="danger"
                        disabled={remove.isPending}
                        onClick={() => remove.mutate(member)}
                        aria-label={t('members.removeNamed', { email: member.email })}
                      >
                        {t('members.remove')}
                      </button>
                    ),
                },
              ]
            : []),
        ]}
      />
    </>
  );
}

/** Invitations waiting to be accepted, each with its Revoke button. */
function PendingInvitations() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const invitations = useQuery(membersQueries.invitations());
  const revoke = useMutation({
    mutationFn: (invitation: Invitation) => api.org.invitations.revoke(invitation.id),
    onSuccess: (_, invitation) => {
      void queryClient.invalidateQueries({ queryKey: membersKeys.invitations() });
      notify.success(t('members.revoked', { email: invitation.email }));
    },
  });
  return (
    <section aria-labelledby="pending-title">
      <h2 id="pending-title">{t('members.pending')}</h2>
      {invitations.isError && <ProblemDisplay problem={problemOf(invitations.error)} />}
      {revoke.isError && <ProblemDisplay problem={problemOf(revoke.error)} />}
      {invitations.data !== undefined &&
        (invitations.data.length === 0 ? (
          <p>{t('members.noPending')}</p>
        ) : (
          <ResponsiveTable
            caption={t('members.pendingCaption')}
            rows={invitations.data}
            rowKey={(invitation) => invitation.id}
            columns={[
              { header: t('members.email'), cell: (invitation) => invitation.email },
              { header: t('members.role'), cell: (invitation) => roleLabel(invitation.role) },
              {
                header: t('members.expires'),
                cell: (invitation) => <DateTime value={invitation.expires_at} />,
              },
              {
                header: t('members.action'),
                cell: (invitation) => (
                  <button
                    type="button"
                    className="danger"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(invitation)}
                    aria-label={t('members.revokeNamed', { email: invitation.email })}
                  >
                    {t('members.revoke')}
                  </button>
                ),
              },
            ]}
          />
        ))}
    </section>
  );
}

/** Members of the organisation the session acts in: list, invite, change a role, remove (issue 39). */
export default function MembersPage() {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const account = useAccount();
  const members = useQuery(membersQueries.members());
  const manage = account.data?.role === 'owner' || account.data?.role === 'admin';
  const invite = useApiForm(
    (values) => {
      const role = values.text('role');
      const request: InvitationCreate = {
        email: values.text('email'),
        role: isAssignable(role) ? role : 'viewer',
      };
      return api.org.invitations.create(request);
    },
    {
      onSuccess: (invitation) => {
        void queryClient.invalidateQueries({ queryKey: membersKeys.invitations() });
        notify.success(t('members.invited', { email: invitation.email }));
      },
      resetOnSuccess: true,
    },
  );
  return (
    <>
      <h1>{t('members.title')}</h1>
      <AccountTabs />
      <OrganisationSwitcher
        onSwitched={() => void queryClient.invalidateQueries({ queryKey: accountKeys.me() })}
      />
      <p>{t('members.intro')}</p>
      {members.isError && (
        <ProblemDisplay problem={problemOf(members.error)} onRetry={() => void members.refetch()} />
      )}
      {members.data !== undefined && <MembersTable members={members.data} manage={manage} />}
      {manage && <InviteForm invite={invite} />}
      {manage && <PendingInvitations />}
    </>
  );
}
