import type { components } from '../../../generated/openapi.js';
import type { RecordPage } from './list-pages.js';
import type { SaveResult } from './saved-rows.js';

export type IqRecord = components['schemas']['IqRecord'];
export type IqRecordType = components['schemas']['IqRecordType'];
export type IqStage = components['schemas']['IqStage'];
export type IqMetadata = components['schemas']['IqMetadata'];

/** What an import writes for a brand-intelligence record (snake_case columns). */
export interface IqRecordInput {
  id: string;
  workspace_id: string;
  type: IqRecordType;
  title: string;
  description: string | null;
  content: string | null;
  metadata: IqMetadata;
  product_id: string | null;
  product_urls: string[] | null;
  voice_sample_urls: string[] | null;
  content_sample_urls: string[] | null;
  images_urls: string[] | null;
  is_default: boolean;
  stage: IqStage;
  created_at: string;
  updated_at: string;
}

/** Brand-intelligence records of a workspace (products, personas, brand voice, content types, visual guidelines). */
export interface IqStore {
  /**
   * The record if it belongs to the workspace and, when `type` is given, is of that kind: a
   * persona's id read as a product is as absent as an unknown id.
   */
  get(workspaceId: string, id: string, type?: IqRecordType): Promise<IqRecord | undefined>;
  typeOf(workspaceId: string, id: string): Promise<IqRecordType | undefined>;
  /** One page of records of one kind in creation or update order. */
  list(filters: { workspaceId: string; type: IqRecordType; stage?: IqStage | undefined }, page: RecordPage): Promise<IqRecord[]>;
  /**
   * Writes a record (insert or full replace). A record that becomes its kind's default takes the
   * flag from the previous default, so each kind keeps at most one.
   */
  save(input: IqRecordInput): Promise<SaveResult<IqStage>>;
  stageOf(id: string): Promise<IqStage | undefined>;
}
