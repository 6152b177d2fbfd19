import { type FieldError, findParentalCategory, findParentalService, type ProfileRecord } from '@svc/domain';

/** Field errors for parental category and service ids the catalogues do not know (or have retired). */
export function checkParentalReferences(parental: ProfileRecord['parental']): FieldError[] {
  const errors: FieldError[] = [];
  parental.categories.forEach((id, index) => {
    if (findParentalCategory(id) === undefined) {
      errors.push({
        field: `parental.categories.${index}`,
        message: `is not a category of GET /v1/parental/categories`,
      });
    }
  });
  parental.services.forEach((id, index) => {
    if (findParentalService(id) === undefined) {
      errors.push({
        field: `parental.services.${index}`,
        message: `is not a service of GET /v1/parental/services`,
      });
    }
  });
  return errors;
}
