// The look-ups that authenticate a request, shared word for word by the SQLite areas
// (api-keys.ts, member-tokens.ts) and the PostgreSQL ones (postgres/): both dialects run them as
// written, and one text means an authentication rule cannot drift between the two databases.

/** A key by its hash, with its workspace, its creator and the creator's current role (null: no longer a member). */
export const KEY_PRINCIPAL_BY_HASH = `SELECT k.id AS key_id, k.name AS key_name, k.prefix AS key_prefix, k.scopes, k.created_at AS key_created_at,
       k.expires_at, k.revoked_at, k.last_used_at,
       w.id AS workspace_id, w.name AS workspace_name, w.created_at AS workspace_created_at, w.subscription_status,
       u.id AS user_id, u.name AS user_name, u.email AS user_email,
       m.role AS member_role
FROM api_keys k
JOIN workspaces w ON w.id = k.workspace_id
JOIN users u ON u.id = k.created_by
LEFT JOIN memberships m ON m.workspace_id = k.workspace_id AND m.user_id = k.created_by
WHERE k.key_hash = ?`;

/** A member token by its hash, with its workspace, its user and the user's current role (null: no longer a member). */
export const MEMBER_PRINCIPAL_BY_HASH = `SELECT t.id AS token_id, t.revoked_at,
       w.id AS workspace_id, w.name AS workspace_name,
       u.id AS user_id, u.name AS user_name, u.email AS user_email,
       m.role AS member_role
FROM member_tokens t
JOIN workspaces w ON w.id = t.workspace_id
JOIN users u ON u.id = t.user_id
LEFT JOIN memberships m ON m.workspace_id = t.workspace_id AND m.user_id = t.user_id
WHERE t.token_hash = ?`;
