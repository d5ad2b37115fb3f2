import { type InputRequest, inputRequestKind } from '../input/input-requests';
import type { ClientCapabilities } from '../input/input-round';

/**
 * The capabilities `request` needs that `declared` lacks, in the `ClientCapabilities`
 * shape (the `requiredCapabilities` of a -32021 error), or `undefined` when it has them.
 * A bare `elicitation: {}` declares form mode only, as the MCP spec reads it.
 */
export function missingCapability(
  request: InputRequest,
  declared: ClientCapabilities,
): Record<string, object> | undefined {
  switch (inputRequestKind(request)) {
    case 'form_elicitation': {
      const elicitation = declared.elicitation;
      if (elicitation === undefined || elicitation === null) return { elicitation: { form: {} } };
      const declaresModes = 'form' in elicitation || 'url' in elicitation;
      return declaresModes && !('form' in elicitation) ? { elicitation: { form: {} } } : undefined;
    }
    case 'url_elicitation':
      return declared.elicitation?.url === undefined ? { elicitation: { url: {} } } : undefined;
    case 'sampling':
      return declared.sampling === undefined ? { sampling: {} } : undefined;
    case 'roots':
      return declared.roots === undefined ? { roots: {} } : undefined;
  }
}
