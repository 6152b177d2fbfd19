import { findParentalCategory } from '../catalogue/parental-categories.catalogue.js';
import { findParentalService } from '../catalogue/parental-services.catalogue.js';
import type { FieldError } from '../shared/domain-error.js';
import type { DevicePolicy } from './device-policy.schemas.js';
import { unknownAssignmentTargets } from './policy-references.js';

/**
 * Field errors of a device policy whose references the profile or the catalogues do not know: a bedtime or
 * assignment naming a schedule the profile does not have, a parental service or category not in GET
 * /v1/parental/…, an assignment's list not in GET /v1/lists.
 */
export function unknownDevicePolicyReferences(
  policy: DevicePolicy,
  scheduleNames: ReadonlySet<string>,
  isCataloguedList: (listId: number) => boolean,
): FieldError[] {
  const errors: FieldError[] = [];
  const notASchedule = 'must name one of the profile’s schedules';
  if (typeof policy.bedtime === 'string' && !scheduleNames.has(policy.bedtime))
    errors.push({ field: 'bedtime', message: notASchedule });
  (policy.assignments ?? []).forEach((assignment, index) => {
    if (!scheduleNames.has(assignment.schedule))
      errors.push({ field: `assignments.${index}.schedule`, message: notASchedule });
  });
  errors.push(...unknownAssignmentTargets(policy.assignments ?? [], isCataloguedList));
  if (policy.parental !== undefined && policy.parental !== 'off') {
    policy.parental.services.forEach((service, index) => {
      if (findParentalService(service) === undefined)
        errors.push({
          field: `parental.services.${index}`,
          message: 'is not a service of GET /v1/parental/services',
        });
    });
    policy.parental.categories.forEach((category, index) => {
      if (findParentalCategory(category) === undefined)
        errors.push({
          field: `parental.categories.${index}`,
          message: 'is not a category of GET /v1/parental/categories',
        });
    });
  }
  return errors;
}

/** The schedules a device policy names (its bedtime and its assignments' schedules). */
export function schedulesNamedBy(policy: DevicePolicy): Set<string> {
  const names = new Set<string>();
  if (typeof policy.bedtime === 'string') names.add(policy.bedtime);
  for (const assignment of policy.assignments ?? []) names.add(assignment.schedule);
  return names;
}
