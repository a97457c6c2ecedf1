-- Cited URLs are matched to content-map pages by page address (src/visibility/page-address.ts:
-- host without `www.`, path without trailing slash, no scheme, fragment or tracking parameters).
-- Both tables keep the address of their URL, indexed, so matching a cited URL and filtering the
-- cited pages by content-map page are one index lookup each. page_address() is that same function,
-- registered on every connection by openDatabase (src/store/database.ts), so rows written before
-- this migration get their address here and later rows get it from the import.
ALTER TABLE pages ADD COLUMN address TEXT;
UPDATE pages SET address = page_address(url);
CREATE INDEX pages_by_address ON pages (workspace_id, address);
-- Matching by address replaces matching by URL spellings, the only use of this index.
DROP INDEX pages_by_url;

ALTER TABLE cited_urls ADD COLUMN address TEXT;
UPDATE cited_urls SET address = page_address(url);
CREATE INDEX cited_urls_by_address ON cited_urls (workspace_id, address);
