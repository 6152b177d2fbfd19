import type { ReactNode } from 'react';
import { ProblemDisplay } from '../problems/problem-display.js';
import type { ApiForm } from './use-api-form.js';

/**
 * The failure of a form's last submission, summarised above the form (focus moves to it), its fields named by
 * their labels; after a re-authentication the form is sent again.
 */
export function FormProblem<T>({
  form,
  labels = {},
  names = {},
  children,
}: {
  form: ApiForm<T>;
  labels?: Readonly<Record<string, string>>;
  /** Control names of API fields named otherwise in this form. */
  names?: Readonly<Record<string, string>>;
  children?: ReactNode;
}) {
  if (form.problem === null) return null;
  return (
    <ProblemDisplay
      problem={form.problem}
      fieldLabels={labels}
      fieldNames={names}
      focus
      afterReauth={form.retry}
    >
      {children}
    </ProblemDisplay>
  );
}
