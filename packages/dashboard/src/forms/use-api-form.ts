import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef } from 'react';
import { type DisplayProblem, problemOf } from '../problems/problem-of.js';
import { FormValues } from './form-values.js';

/** A form whose submission is one API call, and whose failures come back at its fields. */
export interface ApiForm<T> {
  /** Give to `<form onSubmit>`. */
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** True while the call is in flight (the submit button says so and is disabled). */
  pending: boolean;
  /** The last failure, or null. */
  problem: DisplayProblem | null;
  /** The last success's answer. */
  result: T | undefined;
  /** The API's message for field `name` from the last 422, if any. */
  errorOf: (name: string) => string | undefined;
  /** Sends the last submitted values again (after re-authenticating, for example). */
  retry: () => void;
  /** Forgets the last answer or failure. */
  reset: () => void;
}

/**
 * The dashboard's form helper: reads the form's values on submit, sends them with `submit` (an SDK call), and
 * keeps the problem of a failure so that {@link ProblemDisplay} summarises it and each field shows its own
 * message from the API's 422 field errors. Validation is the API's: the form does not repeat its rules.
 */
export function useApiForm<T>(
  submit: (values: FormValues) => Promise<T>,
  options: {
    onSuccess?: (result: T, values: FormValues) => void;
    /**
     * Empties the form once its call succeeds: a form that creates something (a token, a node, a block) left
     * filled in invites creating it twice.
     */
    resetOnSuccess?: boolean;
  } = {},
): ApiForm<T> {
  const form = useRef<HTMLFormElement | null>(null);
  const mutation = useMutation({
    mutationFn: submit,
    onSuccess: (result, values) => {
      if (options.resetOnSuccess === true) form.current?.reset();
      options.onSuccess?.(result, values);
    },
  });
  const last = useRef<FormValues | undefined>(undefined);
  const problem = mutation.error === null ? null : problemOf(mutation.error);
  return {
    onSubmit: (event) => {
      event.preventDefault();
      if (mutation.isPending) return;
      form.current = event.currentTarget;
      last.current = new FormValues(new FormData(event.currentTarget));
      mutation.mutate(last.current);
    },
    pending: mutation.isPending,
    problem,
    result: mutation.data,
    errorOf: (name) => problem?.fieldErrors.find((error) => error.field === name)?.message,
    retry: () => {
      if (last.current !== undefined) mutation.mutate(last.current);
    },
    reset: () => mutation.reset(),
  };
}
