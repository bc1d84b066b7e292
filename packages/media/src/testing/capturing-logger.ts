/** Test-only Logger (the ports.ts port) that keeps every record, with its child bindings, for assertions. */
import type { Logger } from '../ports.js';

/** Severity of a captured record. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One captured log call: its level, message and fields (child bindings merged under the call's object). */
export interface LogRecord {
  readonly level: LogLevel;
  readonly msg: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** A Logger whose children all append to one shared `records` list. */
export class CapturingLogger implements Logger {
  constructor(
    /** Every record written through this logger or any of its children, oldest first. */
    readonly records: LogRecord[] = [],
    private readonly bindings: Readonly<Record<string, unknown>> = {},
  ) {}

  /** Records a debug line. */
  debug(obj: object, msg?: string): void {
    this.push('debug', obj, msg);
  }

  /** Records an info line. */
  info(obj: object, msg?: string): void {
    this.push('info', obj, msg);
  }

  /** Records a warn line. */
  warn(obj: object, msg?: string): void {
    this.push('warn', obj, msg);
  }

  /** Records an error line. */
  error(obj: object, msg?: string): void {
    this.push('error', obj, msg);
  }

  /** A logger adding `bindings` to every record, writing into the same list. */
  child(bindings: object): Logger {
    return new CapturingLogger(this.records, { ...this.bindings, ...bindings });
  }

  /** The records written since index `from` (use `records.length` as a mark). */
  since(from: number): LogRecord[] {
    return this.records.slice(from);
  }

  private push(level: LogLevel, obj: object, msg: string | undefined): void {
    this.records.push({ level, msg: msg ?? '', fields: { ...this.bindings, ...obj } });
  }
}
