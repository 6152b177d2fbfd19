import { api } from '../../api/client.js';
import { fieldId } from '../../forms/field-id.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { ProblemDisplay } from '../../problems/problem-display.js';

const LABELS = { message: 'Your feedback', rating: 'How would you rate svc?' };

/** Sends feedback to the operators, `POST /v1/feedback`. */
export default function FeedbackPage() {
  const form = useApiForm((values) => {
    const rating = values.optionalText('rating');
    return api.feedback.send({
      message: values.text('message'),
      ...(rating === undefined ? {} : { rating: Number(rating) }),
      url: `${window.location.origin}${window.location.pathname}`,
    });
  });
  const messageError = form.errorOf('message');
  return (
    <div className="narrow">
      <h1>Send feedback</h1>
      {form.result !== undefined ? (
        <p role="status">Thank you: your feedback reached the team.</p>
      ) : (
        <>
          {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={LABELS} focus />}
          <form onSubmit={form.onSubmit} noValidate>
            <div className={messageError === undefined ? 'field' : 'field field-invalid'}>
              <label htmlFor={fieldId('message')}>{LABELS.message}</label>
              <p className="hint" id={`${fieldId('message')}-hint`}>
                What works, what does not, what you miss. Do not include passwords.
              </p>
              {messageError !== undefined && (
                <p className="field-error" id={`${fieldId('message')}-error`}>
                  <span className="visually-hidden">Error: </span>
                  {LABELS.message} {messageError}
                </p>
              )}
              <textarea
                id={fieldId('message')}
                name="message"
                rows={6}
                aria-invalid={messageError === undefined ? undefined : true}
                aria-describedby={`${fieldId('message')}-hint${messageError === undefined ? '' : ` ${fieldId('message')}-error`}`}
              />
            </div>
            <div className="field">
              <label htmlFor={fieldId('rating')}>{LABELS.rating}</label>
              <select id={fieldId('rating')} name="rating" defaultValue="">
                <option value="">No rating</option>
                <option value="5">5 – excellent</option>
                <option value="4">4 – good</option>
                <option value="3">3 – fair</option>
                <option value="2">2 – poor</option>
                <option value="1">1 – very poor</option>
              </select>
            </div>
            <SubmitButton pending={form.pending}>Send feedback</SubmitButton>
          </form>
        </>
      )}
    </div>
  );
}
