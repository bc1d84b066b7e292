/**
 * Test support: where the third-party E-FLV samples (AV1 + Opus, Apache-2.0, from the Veovera
 * enhanced-rtmp repository) live. They are shared with the project, beside the repository at
 * `../shared/fixtures/eflv`; `AIRWAVE_EFLV_FIXTURES` overrides the folder.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Folder holding testsrc.flv, mptestsrc.flv and bbb.flv. */
export const EFLV_FIXTURES =
  process.env.AIRWAVE_EFLV_FIXTURES ?? fileURLToPath(new URL('../../../../../shared/fixtures/eflv', import.meta.url));

/** Why tests needing the samples skip, or false when they are present. */
export const eflvFixturesMissing: string | false = existsSync(`${EFLV_FIXTURES}/testsrc.flv`)
  ? false
  : `E-FLV samples not found at ${EFLV_FIXTURES} (set AIRWAVE_EFLV_FIXTURES)`;
