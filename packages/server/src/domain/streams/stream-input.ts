/**
 * Rules for stream input fields: trimming, required fields and lengths.
 */
import { ValidationError } from '../errors.js';

/** Longest stream name. */
export const NAME_MAX_LENGTH = 255;
/** Longest stream description. */
export const DESCRIPTION_MAX_LENGTH = 2000;
/** Longest source location. */
export const SOURCE_LOCATION_MAX_LENGTH = 255;
/** Longest stream key name. */
export const KEY_NAME_MAX_LENGTH = 100;

/** A trimmed required text of 1..max characters. */
export function requiredText(value: string | null | undefined, field: string, max: number): string {
  const trimmed = (value ?? '').trim();
  if (trimmed === '') {
    throw new ValidationError(field, 'required', `${field} is required`);
  }
  if (trimmed.length > max) {
    throw new ValidationError(field, 'length', `${field} must be at most ${max} characters`);
  }
  return trimmed;
}

/** A trimmed optional text of at most max characters; empty becomes null. */
export function optionalText(value: string | null | undefined, field: string, max: number): string | null {
  const trimmed = (value ?? '').trim();
  if (trimmed.length > max) {
    throw new ValidationError(field, 'length', `${field} must be at most ${max} characters`);
  }
  return trimmed === '' ? null : trimmed;
}
