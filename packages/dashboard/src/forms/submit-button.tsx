/** The form's submit button: says what it does, and that it is working while the call is in flight. */
export function SubmitButton({
  pending,
  children,
  busyText,
}: {
  pending: boolean;
  children: string;
  busyText?: string;
}) {
  return (
    <button type="submit" className="primary" disabled={pending} aria-busy={pending}>
      {pending ? (busyText ?? `${children}…`) : children}
    </button>
  );
}
