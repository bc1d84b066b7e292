/**
 * Query depth limit (DESIGN §8), a GraphQL validation rule: the deepest chain of nested fields
 * of an operation (fragments add no level of their own) may be at most QUERY_DEPTH_LIMIT.
 * Introspection (`__schema`, `__type`) is measured on its own, against INTROSPECTION_DEPTH_LIMIT:
 * the standard query of graphql-js `getIntrospectionQuery()`, which GraphiQL, graphql-codegen,
 * Apollo tools, Postman and Insomnia send, is 15 fields deep because type references unwrap
 * `ofType` one level per list or non-null wrapper. Its answer cannot blow up with that depth:
 * `ofType` is a single object, and graphql-js' MaxIntrospectionDepthRule (in the specified rules)
 * refuses more than 3 nested `fields`/`interfaces`/`possibleTypes`/`inputFields` lists.
 */
import {
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** Deepest field nesting of an ordinary operation. */
export const QUERY_DEPTH_LIMIT = 10;
/** Deepest field nesting inside `__schema` / `__type` (the standard introspection query is 15). */
export const INTROSPECTION_DEPTH_LIMIT = 20;

const INTROSPECTION_ROOTS: ReadonlySet<string> = new Set(['__schema', '__type']);

/** Depths of a selection: of its ordinary field chains, and of those inside introspection. */
interface Depths {
  readonly ordinary: number;
  readonly introspection: number;
}

const NONE: Depths = { ordinary: 0, introspection: 0 };

class DepthCounter {
  private readonly memo = new Map<string, Depths>();
  private readonly visiting = new Set<string>();

  constructor(private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>) {}

  selectionDepths(set: SelectionSetNode | undefined): Depths {
    let ordinary = 0;
    let introspection = 0;
    for (const selection of set?.selections ?? []) {
      let depths: Depths;
      if (selection.kind === Kind.FIELD) {
        const inner = this.selectionDepths(selection.selectionSet);
        depths = INTROSPECTION_ROOTS.has(selection.name.value)
          ? { ordinary: 0, introspection: 1 + Math.max(inner.ordinary, inner.introspection) }
          : { ordinary: 1 + inner.ordinary, introspection: inner.introspection > 0 ? 1 + inner.introspection : 0 };
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        depths = this.selectionDepths(selection.selectionSet);
      } else {
        depths = this.fragmentDepths(selection.name.value);
      }
      ordinary = Math.max(ordinary, depths.ordinary);
      introspection = Math.max(introspection, depths.introspection);
    }
    return { ordinary, introspection };
  }

  private fragmentDepths(name: string): Depths {
    const known = this.memo.get(name);
    if (known) {
      return known;
    }
    const fragment = this.fragments.get(name);
    // Unknown and cyclic fragments are refused by graphql-js' own rules; count them as nothing here.
    if (!fragment || this.visiting.has(name)) {
      return NONE;
    }
    this.visiting.add(name);
    const depths = this.selectionDepths(fragment.selectionSet);
    this.visiting.delete(name);
    this.memo.set(name, depths);
    return depths;
  }
}

/** How deep `operation` nests, its ordinary fields and its introspection apart. */
export function operationDepths(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): Depths {
  return new DepthCounter(fragments).selectionDepths(operation.selectionSet);
}

/** A validation rule refusing operations nested deeper than the limits (VALIDATION_ERROR). */
export function depthLimitRule(
  limit: number = QUERY_DEPTH_LIMIT,
  introspectionLimit: number = INTROSPECTION_DEPTH_LIMIT,
): ValidationRule {
  return (context: ValidationContext) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        fragments.set(definition.name.value, definition);
      }
    }
    return {
      OperationDefinition(operation) {
        const depths = operationDepths(operation, fragments);
        const refuse = (what: string, depth: number, max: number) =>
          context.reportError(
            new GraphQLError(`${what} is nested ${depth} levels deep, more than the limit of ${max}`, {
              nodes: operation,
              extensions: { code: 'VALIDATION_ERROR', depth, limit: max },
            }),
          );
        if (depths.ordinary > limit) {
          refuse('query', depths.ordinary, limit);
        }
        if (depths.introspection > introspectionLimit) {
          refuse('introspection query', depths.introspection, introspectionLimit);
        }
      },
    };
  };
}
