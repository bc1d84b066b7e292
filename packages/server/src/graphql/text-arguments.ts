/**
 * One rule for every string a mutation receives, whatever the mutation: before its resolver runs,
 * each string argument (nested input fields and list items included) is checked, and a string the
 * service could not store and read back identical is refused as a ValidationError naming its
 * argument path (`input.name`, `input.policy.webhook.url`): NUL and other control characters
 * (tab, line feed and carriage return are kept), lone UTF-16 surrogates (PostgreSQL stores UTF-8,
 * which cannot hold them), bidirectional override and isolate controls (they make a name display
 * as another one), surrounding whitespace (services would trim it, so the stored value would
 * differ; passwords and secrets keep theirs), and more than MAX_TEXT_ARGUMENT_LENGTH characters.
 * Services apply their own, smaller limits after this. Query arguments are lookups, nothing is
 * stored: they are refused only for what no lookup can take (control characters, lone
 * surrogates, overlong text), so a search for " show" still searches.
 */
import { type GraphQLResolveInfo, getNamedType, isUnionType } from 'graphql';
import type { IResolvers } from 'mercurius';
import { ValidationError } from '../domain/errors.js';
import { errorMember } from './results.js';

/** Longest string any mutation argument may be (services have smaller limits of their own). */
export const MAX_TEXT_ARGUMENT_LENGTH = 65_536;

/** Argument names whose value is used verbatim: surrounding whitespace is part of it. */
const VERBATIM_NAMES: ReadonlySet<string> = new Set(['password', 'secret']);

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters refused.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
const SURROUNDING_SPACE = /^\s|\s$/;

/** How strictly strings are checked: `stored` for mutations, `lookup` for queries. */
export type TextRule = 'stored' | 'lookup';

/** Why `value` is refused at argument `path`, or undefined when it is acceptable. */
export function textArgumentProblem(
  value: string,
  path: string,
  rule: TextRule = 'stored',
): ValidationError | undefined {
  const name =
    path
      .split('.')
      .at(-1)
      ?.replace(/\[\d+\]$/, '') ?? '';
  if (value.length > MAX_TEXT_ARGUMENT_LENGTH) {
    return new ValidationError(path, 'length', `${path} must be at most ${MAX_TEXT_ARGUMENT_LENGTH} characters`);
  }
  if (CONTROL.test(value)) {
    return new ValidationError(path, 'characters', `${path} must not contain NUL or other control characters`);
  }
  if (!value.isWellFormed()) {
    return new ValidationError(path, 'encoding', `${path} is not valid Unicode (it has a lone surrogate)`);
  }
  if (rule === 'lookup') {
    return undefined;
  }
  if (BIDI_CONTROL.test(value)) {
    return new ValidationError(path, 'characters', `${path} must not contain bidirectional override characters`);
  }
  if (!VERBATIM_NAMES.has(name) && SURROUNDING_SPACE.test(value)) {
    return new ValidationError(path, 'whitespace', `${path} must not begin or end with whitespace`);
  }
  return undefined;
}

/** The first refused string in `value` (walked depth-first), or undefined. */
export function findTextProblem(value: unknown, path: string, rule: TextRule = 'stored'): ValidationError | undefined {
  if (typeof value === 'string') {
    return textArgumentProblem(value, path, rule);
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const problem = findTextProblem(item, `${path}[${index}]`, rule);
      if (problem) {
        return problem;
      }
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const problem = findTextProblem(item, path === '' ? key : `${path}.${key}`, rule);
      if (problem) {
        return problem;
      }
    }
  }
  return undefined;
}

/** Whether the field's result union can carry a ValidationError member. */
function returnsValidationError(info: GraphQLResolveInfo): boolean {
  const type = getNamedType(info.returnType);
  return isUnionType(type) && type.getTypes().some((member) => member.name === 'ValidationError');
}

type Resolver = (parent: unknown, args: Record<string, unknown>, context: unknown, info: GraphQLResolveInfo) => unknown;

/** `resolvers[type]` with each field resolver checking its string arguments by `rule` first. */
function guardType(
  resolvers: IResolvers,
  type: 'Query' | 'Mutation',
  rule: TextRule,
): Record<string, unknown> | undefined {
  const fields = resolvers[type] as Record<string, unknown> | undefined;
  if (!fields) {
    return undefined;
  }
  const guarded: Record<string, unknown> = {};
  for (const [name, resolver] of Object.entries(fields)) {
    if (typeof resolver !== 'function') {
      guarded[name] = resolver;
      continue;
    }
    const resolve = resolver as Resolver;
    guarded[name] = (parent: unknown, args: Record<string, unknown>, context: unknown, info: GraphQLResolveInfo) => {
      const problem = findTextProblem(args, '', rule);
      if (!problem) {
        return resolve(parent, args, context, info);
      }
      if (returnsValidationError(info)) {
        return errorMember(problem);
      }
      throw problem;
    };
  }
  return guarded;
}

/**
 * Wraps every Mutation resolver of `resolvers` with the `stored` check and every Query resolver
 * with the `lookup` check: a refused string answers the ValidationError member when the result
 * union has one, else a top-level VALIDATION_ERROR naming the argument.
 */
export function guardTextArguments(resolvers: IResolvers): IResolvers {
  const query = guardType(resolvers, 'Query', 'lookup');
  const mutation = guardType(resolvers, 'Mutation', 'stored');
  return {
    ...resolvers,
    ...(query ? { Query: query } : {}),
    ...(mutation ? { Mutation: mutation } : {}),
  } as IResolvers;
}
