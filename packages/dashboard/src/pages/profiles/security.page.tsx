import type { Profile } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import { CheckboxField } from '../../forms/checkbox-field.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { ProfileFormOutcome } from './profile-form-outcome.js';
import { ProfileFrame } from './profile-frame.js';
import { useProfilePatchForm } from './use-profile-patch-form.js';

type SecurityToggle = keyof Profile['security'];

/** Each security toggle of spec 2.3 in plain words, in the order shown. */
const TOGGLES: readonly { key: SecurityToggle; label: string; hint: string }[] = [
  {
    key: 'threat_intel',
    label: 'Block threats from intelligence feeds',
    hint: 'Malware, phishing and command-and-control names from the threat feeds below.',
  },
  {
    key: 'nrd',
    label: 'Block newly registered domains',
    hint: 'Names registered in the last few weeks, which phishing and malware favour.',
  },
  {
    key: 'dga',
    label: 'Block algorithm-generated names',
    hint: 'Random-looking names malware makes up to find its servers.',
  },
  {
    key: 'typosquat',
    label: 'Block typo-squatting',
    hint: 'Names one typo away from well-known ones, registered to catch mistakes.',
  },
  {
    key: 'idn_homograph',
    label: 'Block look-alike international names',
    hint: 'Names whose letters imitate others (a Cyrillic “а” in place of a Latin “a”).',
  },
  {
    key: 'rebinding',
    label: 'Block DNS rebinding',
    hint: 'Public names answering with private addresses, a way web pages reach devices on your network.',
  },
  {
    key: 'cryptojacking',
    label: 'Block cryptojacking',
    hint: 'Scripts that mine cryptocurrency in the browser without asking.',
  },
  {
    key: 'csam',
    label: 'Block child sexual abuse material',
    hint: 'Names on the lists of the organisations that track such material.',
  },
];

const LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  TOGGLES.map((toggle) => [`security.${toggle.key}`, toggle.label]),
);

function SecurityForm({ profile }: { profile: Profile }) {
  const form = useProfilePatchForm(profile, (values) => ({
    security: Object.fromEntries(
      TOGGLES.map((toggle) => [toggle.key, values.checked(`security.${toggle.key}`)]),
    ),
  }));
  // The catalogue says which lists back each toggle: shown so that people see what a toggle turns on.
  const catalogue = useQuery({ queryKey: ['catalogue', 'lists'], queryFn: () => api.catalogue.lists() });
  const backing = (key: SecurityToggle) =>
    (catalogue.data?.lists ?? [])
      .filter((list) => list.toggle === `security.${key}`)
      .map((list) => list.name);
  return (
    <>
      <ProfileFormOutcome form={form} profile={profile} fieldLabels={LABELS} />
      <form onSubmit={form.onSubmit} noValidate key={profile.version}>
        <fieldset>
          <legend>Protection</legend>
          {TOGGLES.map((toggle) => {
            const lists = backing(toggle.key);
            return (
              <CheckboxField
                key={toggle.key}
                name={`security.${toggle.key}`}
                label={toggle.label}
                hint={lists.length === 0 ? toggle.hint : `${toggle.hint} Lists: ${lists.join(', ')}.`}
                defaultChecked={profile.security[toggle.key]}
                error={form.errorOf(`security.${toggle.key}`)}
              />
            );
          })}
        </fieldset>
        <SubmitButton pending={form.pending} busyText="Saving…">
          Save security settings
        </SubmitButton>
      </form>
    </>
  );
}

/** The profile's security toggles (spec 2.3 `security`). */
export default function SecurityPage() {
  return <ProfileFrame title="Security">{(profile) => <SecurityForm profile={profile} />}</ProfileFrame>;
}
