/** A labelled form field whose error (a ValidationError naming it) sits right below it. */
import { type InputHTMLAttributes, useId } from 'react';

/** Props of a text field. */
export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  readonly label: string;
  readonly error?: string | undefined;
  readonly hint?: string;
}

/** <label> + <input> + hint + error, wired with aria-describedby and aria-invalid. */
export function Field({ label, error, hint, id, ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const described = [hint ? `${inputId}-hint` : '', error ? `${inputId}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        {...input}
      />
      {hint && (
        <small id={`${inputId}-hint`} className="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${inputId}-error`} className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}

/** A typed mutation failure: `field` names the input it is about, when known. */
export interface FieldFailure {
  readonly message: string;
  readonly field?: string | null;
}

/** The message for `name` when `failure` names that field (or ends with `.name`). */
export function errorFor(failure: FieldFailure | undefined, name: string): string | undefined {
  const field = failure?.field;
  if (!failure || !field) {
    return undefined;
  }
  return field === name || field.endsWith(`.${name}`) ? failure.message : undefined;
}

/** The message of `failure` when it names none of `fields` (shown above the form). */
export function formError(failure: FieldFailure | undefined, fields: readonly string[]): string | undefined {
  if (!failure) {
    return undefined;
  }
  return fields.some((name) => errorFor(failure, name)) ? undefined : failure.message;
}
