import { quoted, type RequestRefusal, refuse } from './refusal';

const jsonMediaType = /^application\/(?:[a-z0-9.+-]+\+)?json$/;

/**
 * Refuses a body that is not JSON in UTF-8 (415): the media type must be
 * `application/json` or `application/*+json`; parameters are allowed, and a `charset`
 * parameter must be `utf-8`. A missing `Content-Type` is refused too.
 */
export function checkJsonContentType(
  header: string | null | undefined,
): RequestRefusal | undefined {
  // What nearly every client sends, without splitting it.
  if (header === 'application/json' || header === 'application/json; charset=utf-8')
    return undefined;
  const [type = '', ...parameters] = (header ?? '').split(';');
  const mediaType = type.trim().toLowerCase();
  const charset = parameters
    .map((parameter) => parameter.trim().toLowerCase())
    .find((parameter) => parameter.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"|"$/g, '');
  if (jsonMediaType.test(mediaType) && (charset === undefined || charset === 'utf-8'))
    return undefined;
  return refuse(
    'unsupported_media_type',
    `Request bodies must be JSON in UTF-8 (Content-Type: application/json or application/*+json), not ${header ? quoted(header, 100) : 'a body without Content-Type'}.`,
  );
}
