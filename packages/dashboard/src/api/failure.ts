/**
 * The error members of every mutation result union, selected once: `...Failure` reads the
 * message of any `Error` type and the field a ValidationError names (shown next to that field).
 */
import { graphql } from '../generated';

/** The fragment; documents spread it as `...Failure` (codegen appends its definition). */
export const FailureFragment = graphql(`
  fragment Failure on Error {
    message
    ... on ValidationError { field }
  }
`);
