import type { ScheduleAssignment } from '@svc/sdk';
import { useQuery } from '@tanstack/react-query';
import { catalogueQueries } from '../../api/catalogue.queries.js';
import { t } from '../../i18n/t.js';

/** One thing an assignment can scope, by its catalogue id (or pattern) and its name in words. */
export interface ItemChoice {
  value: string;
  label: string;
}

/** The kinds of item a schedule limits or lifts. */
export type ItemKind = ScheduleAssignment['target']['kind'];

/** The parental services, categories and lists by name, from the catalogue (empty while it loads). */
export function useItemChoices(): Record<Exclude<ItemKind, 'deny'>, ItemChoice[]> {
  const services = useQuery(catalogueQueries.parentalServices());
  const categories = useQuery(catalogueQueries.parentalCategories());
  const lists = useQuery(catalogueQueries.lists());
  return {
    service: (services.data ?? []).map((each) => ({ value: each.id, label: each.name })),
    category: (categories.data?.categories ?? []).map((each) => ({ value: each.id, label: each.name })),
    list: (lists.data?.lists ?? []).map((each) => ({ value: String(each.id), label: each.name })),
  };
}

/** The item an assignment scopes, in words: "Service YouTube", "Blocklist StevenBlack", "Deny rule x.example". */
export function itemText(
  target: ScheduleAssignment['target'],
  choices: Record<Exclude<ItemKind, 'deny'>, ItemChoice[]>,
): string {
  if (target.kind === 'deny') return t('limits.item.deny', { name: target.pattern });
  const id = String(target.id);
  const name = choices[target.kind].find((each) => each.value === id)?.label ?? id;
  return t(`limits.item.${target.kind}`, { name });
}

/** "only during homework" or "blocked except during homework". */
export function modeText(assignment: Pick<ScheduleAssignment, 'mode' | 'schedule'>): string {
  return assignment.mode === 'only_during'
    ? t('limits.onlyDuring', { schedule: assignment.schedule })
    : t('limits.exceptDuring', { schedule: assignment.schedule });
}
