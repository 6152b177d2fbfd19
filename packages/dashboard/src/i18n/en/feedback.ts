/** The feedback page: a message to the operators, with an optional rating. */
export const feedback = {
  'feedback.title': 'Send feedback',
  'feedback.sent': 'Thank you: your feedback reached the team.',
  'feedback.message': 'Your feedback',
  'feedback.message.hint': 'What works, what does not, what you miss. Do not include passwords.',
  'feedback.rating': 'How would you rate svc?',
  'feedback.rating.none': 'No rating',
  'feedback.rating.5': '5 – excellent',
  'feedback.rating.4': '4 – good',
  'feedback.rating.3': '3 – fair',
  'feedback.rating.2': '2 – poor',
  'feedback.rating.1': '1 – very poor',
  'feedback.send': 'Send feedback',
  'feedback.sending': 'Sending…',
} as const;
