/**
 * Runs a mutation from a button or form: tracks busy, turns a typed failure (ValidationError,
 * NotFoundError, …) or a thrown ApiError into a FieldFailure, and calls `after` (a reload) either way.
 */
import { useState } from 'react';
import type { FieldFailure } from '../ui/field';
import { ApiError } from './client';

/** A mutation result: a success type, or an error type with a message (and maybe the field it names). */
export interface MutationOutcome {
  readonly __typename: string;
  readonly message?: string;
  readonly field?: string | null;
}

/** State and runner of a panel's mutations. */
export interface ActionState {
  readonly busy: boolean;
  readonly failure: FieldFailure | undefined;
  run<T extends MutationOutcome>(action: () => Promise<T>): Promise<T | undefined>;
}

/** The hook; `after` runs once each mutation settles. */
export function useAction(after: () => void): ActionState {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FieldFailure>();
  const run = async <T extends MutationOutcome>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setFailure(undefined);
    try {
      const result = await action();
      if (result.message !== undefined) {
        setFailure({ message: result.message, field: result.field ?? null });
      }
      return result;
    } catch (error) {
      setFailure({ message: error instanceof ApiError ? error.message : String(error) });
      return undefined;
    } finally {
      setBusy(false);
      after();
    }
  };
  return { busy, failure, run };
}
