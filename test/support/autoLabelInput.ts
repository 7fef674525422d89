// The auto-label input the client tests send (startAutoLabel): one project, one labeler, one file
// per request, a model endpoint and its secret key, the secret being what the secret tests look for.
import type { AutoLabelInput } from '../../src/client/index.js';

/**
 * An auto-label input for project p1.
 *
 * @param model - the model's endpoint (https://model.example.com/) and secret key (k3y-k3y-k3y)
 */
export function autoLabelInput(model: { endpoint?: string; secretKey?: string } = {}): AutoLabelInput {
  return {
    projectId: 'p1',
    labelerEmail: 'ann@example.com',
    options: { numberOfFilesPerRequest: 1 },
    targetAPI: { endpoint: model.endpoint ?? 'https://model.example.com/', secretKey: model.secretKey ?? 'k3y-k3y-k3y' },
  };
}
