-- Cited URLs are matched to content-map pages by page address (src/store/page-address.ts: host
-- without `www.`, path without trailing slash, no scheme, fragment or tracking parameters). Both
-- tables keep the address of their URL, indexed, so matching a cited URL and filtering the cited
-- pages by content-map page are one index lookup each; the import writes the address of every row.
--
-- SQLite's file also computes the address of rows written before it, with page_address(), an
-- application function registered on each SQLite connection. That function is WHATWG URL parsing
-- in TypeScript, which PostgreSQL cannot call. It has nothing to do here: a PostgreSQL database
-- gets every file of this folder in its first run, before the service writes any row, so these
-- tables are empty. Should rows exist all the same, the migration stops rather than leave their
-- address empty (which would make their pages never match).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pages) OR EXISTS (SELECT 1 FROM cited_urls) THEN
    RAISE EXCEPTION 'pages or cited_urls hold rows whose page address PostgreSQL cannot compute (page_address is application code); this migration expects both tables empty';
  END IF;
END
$$;

ALTER TABLE pages ADD COLUMN address TEXT COLLATE "C";
CREATE INDEX pages_by_address ON pages (workspace_id, address);
-- Matching by address replaces matching by URL spellings, the only use of this index.
DROP INDEX pages_by_url;

ALTER TABLE cited_urls ADD COLUMN address TEXT COLLATE "C";
CREATE INDEX cited_urls_by_address ON cited_urls (workspace_id, address);
