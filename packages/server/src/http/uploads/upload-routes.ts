/**
 * The local backend's part uploads on Airwave's HTTP port (issue 18): `PUT
 * /uploads/<uploadId>/<partNumber>?expires=…&signature=…` stores one part and answers its ETag,
 * the way S3 answers a presigned UploadPart; refusals answer S3-style XML errors (403 for a bad
 * signature or an expired URL, 404 for an unknown upload). CORS lets a browser on any origin PUT
 * and read the ETag. Request logs are off for these URLs (they carry a signature).
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { type LocalMultipartUploads, PartRefused } from '../../storage/local-multipart.js';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag',
};

function xmlError(code: string, message: string): string {
  const escaped = (text: string) => text.replace(/[<>&]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'));
  return `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${escaped(message)}</Message></Error>`;
}

/** Registers the part upload route of the local multipart backend. */
export function uploadRoutes(uploads: LocalMultipartUploads): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
      scope.options('/uploads/:uploadId/:partNumber', { logLevel: 'warn' }, async (_request, reply) =>
        reply
          .status(204)
          .headers({
            ...CORS,
            'access-control-allow-methods': 'PUT',
            'access-control-allow-headers': '*',
            'access-control-max-age': '3600',
          })
          .send(),
      );
      scope.put<{ Params: { uploadId: string; partNumber: string }; Querystring: Record<string, string> }>(
        '/uploads/:uploadId/:partNumber',
        { logLevel: 'warn' },
        async (request, reply) => {
          void reply.headers(CORS);
          try {
            const body = (request.body as Readable | undefined) ?? request.raw;
            const etag = await uploads.acceptPart(
              request.params.uploadId,
              request.params.partNumber,
              request.query,
              body,
            );
            return reply.status(200).header('etag', etag).send();
          } catch (error) {
            if (error instanceof PartRefused) {
              request.raw.resume();
              return reply
                .status(error.status)
                .header('content-type', 'application/xml')
                .send(xmlError(error.code, error.message));
            }
            throw error;
          }
        },
      );
    });
  };
}
