import { Search } from 'lucide-react';
import { type FormEvent, useState } from 'react';

/**
 * The operator's search box: part of an email or profile name, or an id. `onSearch` receives the trimmed text;
 * an empty search is not sent.
 */
export function SearchForm({
  id,
  label,
  hint,
  initial,
  button,
  onSearch,
}: {
  id: string;
  label: string;
  hint: string;
  initial: string;
  button: string;
  onSearch: (text: string) => void;
}) {
  const [typed, setTyped] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim() !== '') onSearch(typed.trim());
  };
  return (
    <search>
      <form onSubmit={submit} className="search-form" aria-label={label}>
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <p className="hint" id={`${id}-hint`}>
            {hint}
          </p>
          <input
            id={id}
            type="search"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            aria-describedby={`${id}-hint`}
            spellCheck={false}
            autoComplete="off"
          />
        </div>
        <button type="submit" className="primary">
          <Search aria-hidden="true" size={18} />
          {button}
        </button>
      </form>
    </search>
  );
}
