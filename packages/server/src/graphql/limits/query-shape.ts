/**
 * A GraphQL request's `query` is GraphQL source text (GraphQL over HTTP, "Request Parameters").
 * When it does not parse, Mercurius tries it as a JSON-encoded syntax tree, so `5`, `{}` or
 * `[1]` reached graphql-js validation as a "document" and failed there as INTERNAL; a hand-made
 * tree would skip the parser altogether. Only documents our parser made (they carry a `Location`)
 * go on; anything else gets the parser's syntax error as VALIDATION_ERROR.
 */
import type { FastifyInstance } from 'fastify';
import { type DocumentNode, Location, parse } from 'graphql';
import { ValidationError } from '../../domain/errors.js';

/** The syntax error of `source`, or a general message when it has none to give. */
function syntaxErrorOf(source: unknown): string {
  try {
    parse(String(source));
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return 'query must be GraphQL source text';
}

/** The query text of the request: the POST body's `query`, or GET's `?query=`. */
function sourceOf(request: { body?: unknown; query?: unknown }): unknown {
  const from = (value: unknown) =>
    typeof value === 'object' && value !== null ? (value as { query?: unknown }).query : undefined;
  return from(request.body) ?? from(request.query);
}

/** Registers the check (after mercurius). */
export function queryShapePlugin(app: FastifyInstance): void {
  app.graphql.addHook('preValidation', (_schema, document: DocumentNode, context) => {
    if (!(document.loc instanceof Location)) {
      throw new ValidationError('query', 'syntax', syntaxErrorOf(sourceOf(context.reply.request)));
    }
  });
}
