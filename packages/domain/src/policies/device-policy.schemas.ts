import { z } from 'zod';
import { RulePattern } from '../rules/rules.schemas.js';
import { ScheduleAssignment, ScheduleName } from './schedule-assignment.schemas.js';

/** The most deny plus allow rules a device adds to its profile's. */
export const MAX_DEVICE_RULES = 200;

const CatalogueIds = z.array(z.string().regex(/^[a-z0-9-]{1,64}$/, 'must match ^[a-z0-9-]{1,64}$'));

/**
 * What a device overrides of its profile (issue 38), field by field: a field that is absent is inherited.
 * - `rules`: deny and allow rules added to the profile's (the device's allow rules win over the profile's deny
 *   rules and lists, as the profile's own allow rules do);
 * - `parental`: `"off"` (no parental blocking for the device) or the device's own services and categories,
 *   replacing the profile's;
 * - `bedtime`: one of the profile's schedules as the device's bedtime, or null for none;
 * - `assignments`: replace the profile's schedule assignments for this device.
 * The device's timed pause is not written here: POST/DELETE /v1/profiles/{id}/devices/{device}/pause.
 */
export const DevicePolicy = z
  .object({
    rules: z
      .object({
        deny: z.array(RulePattern).max(MAX_DEVICE_RULES).default([]),
        allow: z.array(RulePattern).max(MAX_DEVICE_RULES).default([]),
      })
      .strict()
      .optional(),
    parental: z
      .union([
        z.literal('off'),
        z
          .object({
            services: CatalogueIds.max(500).default([]),
            categories: CatalogueIds.max(100).default([]),
          })
          .strict(),
      ])
      .optional(),
    bedtime: ScheduleName.nullable().optional(),
    assignments: z.array(ScheduleAssignment).max(500).optional(),
  })
  .strict()
  .meta({ id: 'DevicePolicy' });
export type DevicePolicy = z.infer<typeof DevicePolicy>;

/** A device's overrides as profile documents carry them, with its own pause. */
export const DocumentDevicePolicy = DevicePolicy.extend({
  paused_until: z.iso.datetime().nullable().optional(),
});
export type DocumentDevicePolicy = z.infer<typeof DocumentDevicePolicy>;
