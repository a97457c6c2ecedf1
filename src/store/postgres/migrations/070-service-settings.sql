-- Values the whole service shares, whichever instance reads them: the first instance to start
-- writes each one (the secret cursors are signed with, when CURSOR_SECRET is not set), and every
-- other instance reads the row it wrote.
CREATE TABLE service_settings (
  name TEXT COLLATE "C" PRIMARY KEY,
  value TEXT COLLATE "C" NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL
);
