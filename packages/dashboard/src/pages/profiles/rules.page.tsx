import type { Profile, ProfileRules } from '@svc/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { profilesKeys, type VersionedRules } from '../../api/profiles.queries.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';
import { type DisplayProblem, problemOf } from '../../problems/problem-of.js';
import { ProfileFrame } from './profile-frame.js';
import {
  type LineError,
  lineErrors,
  lineRange,
  pastedRules,
  type RuleList,
  withPasted,
} from './rule-lines.js';
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

/** How many rules `list` holds. */
function sizeOf(rules: ProfileRules, list: RuleList): number {
  return list === 'rewrites' ? rules.rewrites.length : rules[list].length;
}

/** What an addition did: rules the API stored anew, and pasted ones it already had (it keeps one of each). */
interface Addition {
  added: number;
  already: number;
  /** The one pasted rule, named when it alone was sent. */
  single: string | undefined;
}

/** The acknowledgement of an addition, in words: a rule that was already there is not "added". */
function additionText({ added, already, single }: Addition): string {
  if (added === 0) {
    return single !== undefined
      ? t('profiles.rules.singleAlready', { rule: single })
      : t('profiles.rules.allAlready', { count: already });
  }
  if (already === 0) return t('profiles.rules.added', { count: added });
  return t('profiles.rules.addedSome', { count: added, already });
}

/** `rules` without entry `index` of `list`. */
function without(rules: ProfileRules, list: RuleList, index: number): ProfileRules {
  if (list === 'rewrites') return { ...rules, rewrites: rules.rewrites.filter((_rule, at) => at !== index) };
  return { ...rules, [list]: rules[list].filter((_rule, at) => at !== index) };
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
  const replace = useReplaceRules(profileId);
  const remove = useReplaceRules(profileId);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<DisplayProblem | null>(null);
  const [errors, setErrors] = useState<LineError[]>([]);
  const [added, setAdded] = useState<Addition | undefined>(undefined);
  const box = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const count = sizeOf(current.rules, list);
  const needle = search.trim().toLowerCase();
  const shown = Array.from({ length: count }, (_value, index) => index).filter((index) =>
    ruleText(current.rules, list, index).toLowerCase().includes(needle),
  );

  const add = (event: FormEvent) => {
    event.preventDefault();
    const pasted = pastedRules(text, list);
    setAdded(undefined);
    if (pasted.length === 0) {
      setErrors([]);
      setProblem({
        ...problemOf(null),
        code: 'nothing_to_add',
        title: t('profiles.rules.nothingToAdd'),
        advice: t('profiles.rules.nothingToAddAdvice'),
      });
      return;
    }
    replace.mutate(
      { rules: withPasted(current.rules, list, pasted), etag: current.etag },
      {
        onSuccess: (stored) => {
          setText('');
          setErrors([]);
          setProblem(null);
          const fresh = Math.max(0, sizeOf(stored.rules, list) - count);
          setAdded({
            added: fresh,
            already: pasted.length - fresh,
            single: pasted.length === 1 ? pasted[0]?.text : undefined,
          });
        },
        onError: (error) => {
          const shownProblem = problemOf(error);
          const mapped = lineErrors(shownProblem.fieldErrors, list, count, pasted);
          setErrors(mapped.lines);
          setProblem({ ...shownProblem, fieldErrors: mapped.others });
          box.current?.focus();
        },
      },
    );
  };

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
        <ul className="rule-list" aria-label={title}>
          {shown.map((index) => {
            const textOfRule = ruleText(current.rules, list, index);
            return (
              <li key={`${index}:${textOfRule}`}>
                <code>{textOfRule}</code>{' '}
                <button
                  type="button"
                  className="link-button"
                  disabled={remove.isPending}
                  aria-label={t('profiles.rules.removeOne', { rule: textOfRule })}
                  onClick={() =>
                    remove.mutate({ rules: without(current.rules, list, index), etag: current.etag })
                  }
                >
                  {t('profiles.rules.remove')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form onSubmit={add} noValidate>
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
        <SubmitButton pending={replace.isPending} busyText={t('profiles.rules.adding')}>
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
