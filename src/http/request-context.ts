import type { Response } from 'express';
import type { KeyPrincipalRow } from '../store/api-keys.js';

/** What authentication established about the caller, kept on `res.locals`. */
export interface ApiKeyCaller {
  kind: 'api_key';
  principal: KeyPrincipalRow;
}

export function setCaller(res: Response, caller: ApiKeyCaller): void {
  res.locals.caller = caller;
}

export function getApiKeyCaller(res: Response): ApiKeyCaller {
  const caller = res.locals.caller as ApiKeyCaller | undefined;
  if (caller?.kind !== 'api_key') throw new Error('no authenticated API key on this request');
  return caller;
}
