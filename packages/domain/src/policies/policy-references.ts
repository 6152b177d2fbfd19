import { findParentalCategory } from '../catalogue/parental-categories.catalogue.js';
import { findParentalService } from '../catalogue/parental-services.catalogue.js';
import type { FieldError } from '../shared/domain-error.js';
import type { ScheduleAssignment } from './schedule-assignment.schemas.js';

/**
 * Field errors for schedule assignments whose item the catalogues do not know: a parental service or category
 * not in GET /v1/parental/…, a list not in GET /v1/lists. Deny patterns are checked by the schema alone: an
 * assignment of a pattern the profile does not deny has no effect, as for any item it does not block.
 */
export function unknownAssignmentTargets(
  assignments: readonly ScheduleAssignment[],
  isCataloguedList: (listId: number) => boolean,
  path = 'assignments',
): FieldError[] {
  const errors: FieldError[] = [];
  assignments.forEach(({ target }, index) => {
    const field = `${path}.${index}.target.id`;
    if (target.kind === 'service' && findParentalService(target.id) === undefined)
      errors.push({ field, message: 'is not a service of GET /v1/parental/services' });
    if (target.kind === 'category' && findParentalCategory(target.id) === undefined)
      errors.push({ field, message: 'is not a category of GET /v1/parental/categories' });
    if (target.kind === 'list' && !isCataloguedList(target.id))
      errors.push({ field, message: 'is not a list of GET /v1/lists' });
  });
  return errors;
}

/** A field error when an allowance's service is not in GET /v1/parental/services. */
export function unknownAllowanceService(service: string | undefined): FieldError[] {
  return service === undefined || findParentalService(service) !== undefined
    ? []
    : [{ field: 'service', message: 'is not a service of GET /v1/parental/services' }];
}
