import { api } from '../../api/client.js';
import { fieldId } from '../../forms/field-id.js';
import { SubmitButton } from '../../forms/submit-button.js';
import { TextareaField } from '../../forms/textarea-field.js';
import { useApiForm } from '../../forms/use-api-form.js';
import { t } from '../../i18n/t.js';
import { ProblemDisplay } from '../../problems/problem-display.js';

/** The ratings offered, best first, with their words. */
const RATINGS = [
  ['5', 'feedback.rating.5'],
  ['4', 'feedback.rating.4'],
  ['3', 'feedback.rating.3'],
  ['2', 'feedback.rating.2'],
  ['1', 'feedback.rating.1'],
] as const;

/** Sends feedback to the operators, `POST /v1/feedback`. */
export default function FeedbackPage() {
  const labels = { message: t('feedback.message'), rating: t('feedback.rating') };
  const form = useApiForm((values) => {
    const rating = values.optionalText('rating');
    return api.feedback.send({
      message: values.text('message'),
      ...(rating === undefined ? {} : { rating: Number(rating) }),
      url: `${window.location.origin}${window.location.pathname}`,
    });
  });
  return (
    <div className="narrow">
      <h1>{t('feedback.title')}</h1>
      {form.result !== undefined ? (
        <p role="status">{t('feedback.sent')}</p>
      ) : (
        <>
          {form.problem !== null && <ProblemDisplay problem={form.problem} fieldLabels={labels} focus />}
          <form onSubmit={form.onSubmit} noValidate>
            <TextareaField
              name="message"
              label={labels.message}
              hint={t('feedback.message.hint')}
              rows={6}
              error={form.errorOf('message')}
            />
            <div className="field">
              <label htmlFor={fieldId('rating')}>{labels.rating}</label>
              <select id={fieldId('rating')} name="rating" defaultValue="">
                <option value="">{t('feedback.rating.none')}</option>
                {RATINGS.map(([value, key]) => (
                  <option key={value} value={value}>
                    {t(key)}
                  </option>
                ))}
              </select>
            </div>
            <SubmitButton pending={form.pending} busyText={t('feedback.sending')}>
              {t('feedback.send')}
            </SubmitButton>
          </form>
        </>
      )}
    </div>
  );
}
