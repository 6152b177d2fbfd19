import type { Profile, ProfileRules } from '@svc/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { profilesKeys, type VersionedRules } from '../../api/profiles.queries.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { problemOf } from '../../problems/problem-of.js';
import { ProfileFrame } from './profile-frame.js';
import { lineRange, type RuleList } from './rule-lines.js';
import { additionText, sizeOf, useRuleAddition } from './use-rule-addition.js';
import { useReplaceRules, useRules } from './use-rules.js';

const LISTS: readonly { list: RuleList; title: string; intro: string; example: string }[] = [
  {
    list: 'deny',
    title: t('profiles.rules.deny'),
    intro: t('profiles.rules.denyIntro'),
    example: 'ads.example.com\n=exactly.example.com\n*.only-under.example.com',
  },
  {
    list: 'allow',
    title: t('profiles.rules.allow'),
    intro: t('profiles.rules.allowIntro'),
    example: 'needed.example.com',
  },
  {
    list: 'rewrites',
    title: t('profiles.rules.rewrites'),
    intro: t('profiles.rules.rewritesIntro'),
    example: 'nas.home.example 192.168.1.20\nalias.example.com other.example.com',
  },
];

/** The text of one rule of `list` at `index`, as shown and searched. */
function ruleText(rules: ProfileRules, list: RuleList, index: number): string {
  if (list === 'rewrites') {
    const rule = rules.rewrites[index];
    return rule === undefined ? '' : `${rule.pattern} → ${rule.answer}`;
  }
  return rules[list][index] ?? '';
}

/** `rules` without entry `index` of `list`. */
function without(rules: ProfileRules, list: RuleList, index: number): ProfileRules {
  if (list === 'rewrites') return { ...rules, rewrites: rules.rewrites.filter((_rule, at) => at !== index) };
  return { ...rules, [list]: rules[list].filter((_rule, at) => at !== index) };
}

/** The shown rules of one list, each with its remove button. */
function RuleItems({
  items,
  title,
  busy,
  onRemove,
}: {
  items: { index: number; text: string }[];
  title: string;
  busy: boolean;
  onRemove(index: number): void;
}) {
  return (
    <ul className="rule-list" aria-label={title}>
      {items.map(({ index, text }) => (
        <li key={`${index}:${text}`}>
          <code>{text}</code>{' '}
          <button
            type="button"
            className="link-button"
            disabled={busy}
            aria-label={t('profiles.rules.removeOne', { rule: text })}
            onClick={() => onRemove(index)}
          >
            {t('profiles.rules.remove')}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** One list: its rules (filtered by the search), a remove button each, and a box to paste more. */
function RuleListSection({
  profileId,
  current,
  list,
  title,
  intro,
  example,
  search,
}: {
  profileId: string;
  current: VersionedRules;
  list: RuleList;
  title: string;
  intro: string;
  example: string;
  search: string;
}) {
  const queryClient = useQueryClient();
  const remove = useReplaceRules(profileId);
  const addition = useRuleAddition(profileId, current, list);
  const { text, setText, problem, errors, added, box } = addition;
  const id = useId();
  const count = sizeOf(current.rules, list);
  const needle = search.trim().toLowerCase();
  const shown = Array.from({ length: count }, (_value, index) => index).filter((index) =>
    ruleText(current.rules, list, index).toLowerCase().includes(needle),
  );

  const select = (line: number) => {
    const range = lineRange(text, line);
    box.current?.focus();
    box.current?.setSelectionRange(range[0], range[1]);
  };

  const stale = problem?.code === 'version_mismatch' || problemOf(remove.error).code === 'version_mismatch';
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        {title} <span className="count">({count})</span>
      </h2>
      <p>{intro}</p>
      {remove.error !== null && <ProblemDisplay problem={problemOf(remove.error)} />}
      {count === 0 ? (
        <p>{t('profiles.rules.none')}</p>
      ) : shown.length === 0 ? (
        <p>{t('profiles.rules.noMatch')}</p>
      ) : (
        <RuleItems
          items={shown.map((index) => ({ index, text: ruleText(current.rules, list, index) }))}
          title={title}
          busy={remove.isPending}
          onRemove={(index) =>
            remove.mutate({ rules: without(current.rules, list, index), etag: current.etag })
          }
        />
      )}
      <form onSubmit={addition.add} noValidate>
        {problem !== null && <ProblemDisplay problem={problem} />}
        {stale && (
          <button
            type="button"
            onClick={() => void queryClient.invalidateQueries({ queryKey: profilesKeys.rules(profileId) })}
          >
            {t('profiles.rules.loadLatest')}
          </button>
        )}
        {added !== undefined && (
          <p className="notice" role="status">
            {additionText(added)}
          </p>
        )}
        <div className={errors.length === 0 ? 'field' : 'field field-invalid'}>
          <label htmlFor={`${id}-add`}>{t('profiles.rules.addTo', { list: title })}</label>
          <p className="hint" id={`${id}-hint`}>
            {t('profiles.rules.pasteHint')} {list === 'rewrites' ? t('profiles.rules.rewriteHint') : ''}{' '}
            {t('profiles.rules.forExample')} <code className="example">{example}</code>
          </p>
          {errors.length > 0 && (
            <ul
              className="field-error line-errors"
              id={`${id}-errors`}
              aria-label={t('profiles.rules.linesToCorrect', { list: title })}
            >
              {errors.map((error) => (
                <li key={`${error.line}:${error.message}`}>
                  <button type="button" className="link-button" onClick={() => select(error.line)}>
                    {t('profiles.rules.line', { line: error.line })}
                  </button>{' '}
                  (<code>{error.text}</code>): {error.message}
                </li>
              ))}
            </ul>
          )}
          <textarea
            ref={box}
            id={`${id}-add`}
            rows={4}
            value={text}
            onChange={(event) => setText(event.target.value)}
            spellCheck={false}
            aria-invalid={errors.length > 0 ? true : undefined}
            aria-describedby={`${id}-hint${errors.length > 0 ? ` ${id}-errors` : ''}`}
          />
        </div>
        <SubmitButton pending={addition.pending} busyText={t('profiles.rules.adding')}>
          {t('profiles.rules.addTo', { list: title })}
        </SubmitButton>
      </form>
    </section>
  );
}

function RulesEditor({ profile }: { profile: Profile }) {
  const rules = useRules(profile.id);
  const [search, setSearch] = useState('');
  if (rules.isPending) return <p aria-busy="true">{t('profiles.rules.loading')}</p>;
  if (rules.isError)
    return <ProblemDisplay problem={problemOf(rules.error)} onRetry={() => void rules.refetch()} />;
  return (
    <>
      <p className="rule-syntax">
        {t('profiles.rules.syntaxDomain')} (<code>example.com</code>), {t('profiles.rules.syntaxExact')} (
        <code>=example.com</code>) {t('profiles.rules.syntaxUnder')} (<code>*.example.com</code>).
      </p>
      <div className="field">
        <label htmlFor="rule-search">{t('profiles.rules.search')}</label>
        <input
          id="rule-search"
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      {LISTS.map((section) => (
        <RuleListSection
          key={section.list}
          profileId={profile.id}
          current={rules.data}
          search={search}
          {...section}
        />
      ))}
    </>
  );
}

/** Deny, allow and rewrite rules: searchable lists, bulk paste, errors shown at the pasted line. */
export default function RulesPage() {
  return (
    <ProfileFrame title={t('profiles.rules.title')}>
      {(profile) => <RulesEditor profile={profile} />}
    </ProfileFrame>
  );
}
