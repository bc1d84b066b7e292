/**
 * Query cost limit (DESIGN §8), a GraphQL validation rule: scalar and enum fields cost 0,
 * object fields (and lists of objects, counted once) 1 plus their selection, connection fields
 * (types named `…Connection`) 2 plus `first`/`last` (default 50) times their selection, so
 * `edges { node { … } }` costs 2 per item.
 * Fragments are expanded; every member of a union or interface selection is added.
 * Mercurius validates a document once and caches it, so operations whose page sizes come from
 * variables are checked again, with their values, before each execution (costLimitPlugin).
 */
import type { FastifyInstance } from 'fastify';
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  valueFromASTUntyped,
} from 'graphql';
import { PAGE_DEFAULT } from '../../domain/pagination.js';

/** Largest cost a request may have. */
export const COST_LIMIT = 1000;

type Variables = Readonly<Record<string, unknown>> | null | undefined;

function pageSize(field: FieldNode, variables: Variables): number {
  const vars = (variables ?? {}) as Record<string, unknown>;
  let size: unknown;
  for (const arg of field.arguments ?? []) {
    const value = valueFromASTUntyped(arg.value, vars) as unknown;
    if (arg.name.value === 'first' || arg.name.value === 'last') {
      size = size ?? value;
    } else if (arg.name.value === 'page' && value && typeof value === 'object') {
      const page = value as { first?: unknown; last?: unknown };
      size = page.last ?? page.first;
    }
  }
  return typeof size === 'number' && Number.isFinite(size) && size >= 0 ? size : PAGE_DEFAULT;
}

class CostCounter {
  private readonly expanding = new Set<string>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly variables: Variables,
  ) {}

  selectionCost(set: SelectionSetNode | undefined, parent: GraphQLNamedType | undefined): number {
    let cost = 0;
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        cost += this.fieldCost(selection, parent);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const typeName = selection.typeCondition?.name.value;
        cost += this.selectionCost(selection.selectionSet, typeName ? this.schema.getType(typeName) : parent);
      } else {
        const name = selection.name.value;
        const fragment = this.fragments.get(name);
        if (fragment && !this.expanding.has(name)) {
          this.expanding.add(name);
          cost += this.selectionCost(fragment.selectionSet, this.schema.getType(fragment.typeCondition.name.value));
          this.expanding.delete(name);
        }
      }
    }
    return cost;
  }

  private fieldCost(field: FieldNode, parent: GraphQLNamedType | undefined): number {
    const name = field.name.value;
    let type: GraphQLOutputType | GraphQLNamedType | undefined;
    if (name === '__schema') {
      type = this.schema.getType('__Schema');
    } else if (name === '__type') {
      type = this.schema.getType('__Type');
    } else if (parent && (isObjectType(parent) || isInterfaceType(parent))) {
      type = parent.getFields()[name]?.type;
    }
    if (!type) {
      return 0;
    }
    const named = getNamedType(type);
    if (!isCompositeType(named)) {
      return 0;
    }
    const inner = this.selectionCost(field.selectionSet, named);
    if (named.name.endsWith('Connection')) {
      return 2 + pageSize(field, this.variables) * inner;
    }
    return 1 + inner;
  }
}

/** The cost of one operation of `document`. */
export function operationCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables?: Variables,
): number {
  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  return new CostCounter(schema, fragments, variables).selectionCost(operation.selectionSet, root ?? undefined);
}

/** A validation rule refusing operations costing more than `limit` (VALIDATION_ERROR). */
export function costLimitRule(limit: number = COST_LIMIT, variables?: Variables): ValidationRule {
  return (context: ValidationContext) => {
    const fragments = fragmentsOf(context.getDocument());
    return {
      OperationDefinition(operation) {
        const cost = operationCost(context.getSchema(), operation, fragments, variables);
        if (cost > limit) {
          context.reportError(costError(operation, cost, limit));
        }
      },
    };
  };
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    }
  }
  return fragments;
}

function costError(operation: OperationDefinitionNode, cost: number, limit: number): GraphQLError {
  const name = operation.name ? ` ${operation.name.value}` : '';
  return new GraphQLError(
    `query${name} costs ${cost}, more than the limit of ${limit}; ask for fewer items per page (page.first) or fewer nested fields`,
    { nodes: operation, extensions: { code: 'VALIDATION_ERROR', cost, limit } },
  );
}

/**
 * Mercurius `validationRules` option. Mercurius requires a static list (it caches validated
 * documents), so page sizes given by variables count as the default here; costLimitPlugin
 * checks them with the real values.
 */
export function costLimitValidation(limit: number = COST_LIMIT): ValidationRule[] {
  return [costLimitRule(limit)];
}

/** Registers the per-execution re-check for operations with variables (after mercurius). */
export function costLimitPlugin(limit: number = COST_LIMIT): (app: FastifyInstance) => void {
  return (app) => {
    app.graphql.addHook('preExecution', (schema, document, _context, variables) => {
      const fragments = fragmentsOf(document);
      for (const definition of document.definitions) {
        if (definition.kind === Kind.OPERATION_DEFINITION && (definition.variableDefinitions?.length ?? 0) > 0) {
          const cost = operationCost(schema, definition, fragments, variables);
          if (cost > limit) {
            throw costError(definition, cost, limit);
          }
        }
      }
    });
  };
}
