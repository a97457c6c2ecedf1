import { Codes } from '../errors/codes.js';
import type { OperationHandler } from '../operations/handler-types.js';
import { parseStoredScopes } from '../keys/scopes.js';

export const getMe: OperationHandler<'getMe'> = ({ caller }) => {
  const p = caller.principal;
  return {
    status: 200,
    body: {
      code: Codes.ME_OK,
      messages: 'OK',
      data: {
        key: {
          id: p.key_id,
          name: p.key_name,
          prefix: p.key_prefix,
          scopes: parseStoredScopes(p.scopes),
          created_at: p.key_created_at,
          expires_at: p.expires_at,
          last_used_at: p.last_used_at,
        },
        workspace: { id: p.workspace_id, name: p.workspace_name },
        user: { id: p.user_id, name: p.user_name, email: p.user_email },
      },
    },
  };
};
