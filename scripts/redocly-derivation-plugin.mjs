// The Redocly plugin that adds the derived parts of every operation (scripts/operation-derivation.mjs)
// as a preprocessor: Redocly runs preprocessors before linting and before bundling, and resolves
// the references they add, so `redocly lint` checks and `redocly bundle` publishes the operations
// as clients see them, while the path files hold only what is specific to each. Whatever a path
// file writes that is derived is reported as a lint error (`derivation/operation-parts`).
import path from 'node:path';
import { deriveOperationParts } from './operation-derivation.mjs';

function OperationParts() {
  let componentsDir;
  let schemes = {};
  return {
    Root: {
      enter(root, ctx) {
        componentsDir = path.join(path.dirname(ctx.location.source.absoluteRef), 'components');
        schemes = root.components?.securitySchemes ?? {};
      },
    },
    PathItem: {
      enter(pathItem, ctx) {
        const from = path.dirname(ctx.location.source.absoluteRef);
        const ref = (kind, name) => ({ $ref: path.relative(from, path.join(componentsDir, kind, `${name}.yaml`)).split(path.sep).join('/') });
        for (const { where, message } of deriveOperationParts(pathItem, { ref, schemes })) {
          ctx.report({ message, location: ctx.location.child(where).key() });
        }
      },
    },
  };
}

export default function derivationPlugin() {
  return {
    id: 'derivation',
    preprocessors: { oas3: { 'operation-parts': OperationParts } },
  };
}
