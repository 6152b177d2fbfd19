import type { ParentalService, Profile } from '@svc/sdk';
import { useState } from 'react';
import { Switch } from '../../components/switch.js';
import { t } from '../../i18n/t.js';
import { ServiceMark } from './service-mark.js';

/** Whether `service` matches what was typed in the search box: its name, or the name of one of its categories. */
function matches(service: ParentalService, search: string, categoryName: (id: string) => string): boolean {
  const text = search.trim().toLowerCase();
  if (text === '') return true;
  return [service.name, ...service.categories.map(categoryName)].some((part) =>
    part.toLowerCase().includes(text),
  );
}

/** How a service stands in the profile: blocked by itself, blocked through a blocked category, or allowed. */
function stateOf(
  service: ParentalService,
  parental: Profile['parental'],
  categoryName: (id: string) => string,
): { tone: 'blocked' | 'by-category' | 'allowed'; text: string } {
  const byCategories = service.categories.filter((id) => parental.categories.includes(id)).map(categoryName);
  if (parental.services.includes(service.id))
    return { tone: 'blocked', text: t('profiles.parental.serviceBlocked') };
  if (byCategories.length > 0)
    return {
      tone: 'by-category',
      text: t('profiles.parental.serviceBlockedByCategory', { categories: byCategories }),
    };
  return { tone: 'allowed', text: t('profiles.parental.serviceAllowed') };
}

/**
 * The parental services as a grid of cards, each with its logo, a switch blocking it on its own, and its state
 * (which says when a blocked category blocks it already). A search narrows the grid by name or category.
 */
export function ServiceGrid({
  services,
  parental,
  categoryName,
  onSwitch,
}: {
  services: readonly ParentalService[];
  parental: Profile['parental'];
  categoryName: (id: string) => string;
  onSwitch: (service: ParentalService, block: boolean) => void;
}) {
  const [search, setSearch] = useState('');
  const shown = services.filter((service) => matches(service, search, categoryName));
  return (
    <>
      <div className="field">
        <label htmlFor="service-search">{t('profiles.parental.findService')}</label>
        <input
          id="service-search"
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          aria-controls="service-list"
        />
        <p className="hint" role="status">
          {shown.length === services.length
            ? t('profiles.parental.serviceCount', { count: services.length })
            : t('profiles.parental.serviceMatches', { shown: shown.length, count: services.length })}
        </p>
      </div>
      <ul id="service-list" className="service-grid" aria-label={t('profiles.parental.servicesLegend')}>
        {shown.map((service) => {
          const state = stateOf(service, parental, categoryName);
          return (
            <li key={service.id}>
              <div className={`service ${state.tone}`}>
                <ServiceMark id={service.id} name={service.name} />
                <Switch
                  label={<span className="service-name">{service.name}</span>}
                  hint={<span className="service-state">{state.text}</span>}
                  checked={parental.services.includes(service.id)}
                  onChange={(block) => onSwitch(service, block)}
                />
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}
