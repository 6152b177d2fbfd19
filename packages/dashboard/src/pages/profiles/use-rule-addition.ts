import type { ProfileRules } from '@svc/sdk';
import { type FormEvent, type RefObject, useRef, useState } from 'react';
import type { VersionedRules } from '../../api/profiles.queries.js';
import { t } from '../../i18n/t.js';
import { type DisplayProblem, problemOf } from '../../problems/problem-of.js';
import { type LineError, lineErrors, pastedRules, type RuleList, withPasted } from './rule-lines.js';
import { useReplaceRules } from './use-rules.js';

/** How many rules `list` holds. */
export function sizeOf(rules: ProfileRules, list: RuleList): number {
  return list === 'rewrites' ? rules.rewrites.length : rules[list].length;
}

/** What an addition did: rules the API stored anew, and pasted ones it already had (it keeps one of each). */
export interface Addition {
  added: number;
  already: number;
  /** The one pasted rule, named when it alone was sent. */
  single: string | undefined;
}

/** The acknowledgement of an addition, in words: a rule that was already there is not "added". */
export function additionText({ added, already, single }: Addition): string {
  if (added === 0) {
    return single !== undefined
      ? t('profiles.rules.singleAlready', { rule: single })
      : t('profiles.rules.allAlready', { count: already });
  }
  if (already === 0) return t('profiles.rules.added', { count: added });
  return t('profiles.rules.addedSome', { count: added, already });
}

/** The paste box of one rule list: its text, what the last addition did, and its errors by pasted line. */
export interface RuleAddition {
  text: string;
  setText(text: string): void;
  problem: DisplayProblem | null;
  errors: LineError[];
  added: Addition | undefined;
  box: RefObject<HTMLTextAreaElement | null>;
  pending: boolean;
  add(event: FormEvent): void;
}

/**
 * Adds the pasted rules to `list` with the version the page holds: on success the box empties and says what
 * was new; on a refusal the errors are mapped back to the pasted lines and the box keeps the text.
 */
export function useRuleAddition(profileId: string, current: VersionedRules, list: RuleList): RuleAddition {
  const replace = useReplaceRules(profileId);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<DisplayProblem | null>(null);
  const [errors, setErrors] = useState<LineError[]>([]);
  const [added, setAdded] = useState<Addition | undefined>(undefined);
  const box = useRef<HTMLTextAreaElement>(null);
  const count = sizeOf(current.rules, list);

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

  return { text, setText, problem, errors, added, box, pending: replace.isPending, add };
}
