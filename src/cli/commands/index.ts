import type { Command } from '../command.js';
import { workspaceCreate, workspaceSetSubscription } from './workspace.js';
import { userCreate } from './user.js';
import { memberAdd, memberRemove } from './member.js';
import { keyCreate, keyList, keyRevoke, keyUpdate } from './key.js';
import { tokenCreate, tokenList, tokenRevoke } from './token.js';
import { serve } from './serve.js';
import { simulate } from './simulate.js';
import { importFile } from './import.js';
import { contractTest, contractTestWebhooks } from './contract-test.js';
import { storeCopy } from './store.js';
import { consoleLink } from './console.js';
import { auditList, auditPrune } from './audit.js';

export const commands: Command[] = [
  workspaceCreate,
  workspaceSetSubscription,
  userCreate,
  memberAdd,
  memberRemove,
  keyCreate,
  keyRevoke,
  keyUpdate,
  keyList,
  tokenCreate,
  tokenRevoke,
  tokenList,
  auditList,
  auditPrune,
  importFile,
  serve,
  simulate,
  contractTest,
  contractTestWebhooks,
  storeCopy,
  consoleLink,
];
