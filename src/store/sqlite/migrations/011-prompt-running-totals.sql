-- A prompt's analytics read a fixed number of rows whatever the density of its answers: running
-- totals (the sums of every day up to and including a row's day) turn a period's sum into the
-- difference of two index seeks, and the per-day row of all platforms together gives the trend.
-- These replace prompt_daily and prompt_competitor_daily, which held one row per (day, platform)
-- or (day, competitor) and made a window's cost grow with the answers in it.
--
-- A row exists for every day that has answers; the row of a day whose answers all moved away is
-- deleted (its running totals equal its predecessor's). "The running total at day d" is the row
-- with the greatest day <= d, or zero when there is none.

CREATE TABLE prompt_day_totals (
  prompt_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  total INTEGER NOT NULL,         -- that day, every platform
  mentioned INTEGER NOT NULL,
  cited INTEGER NOT NULL,
  run_total INTEGER NOT NULL,     -- every day up to and including this one
  run_mentioned INTEGER NOT NULL,
  run_cited INTEGER NOT NULL,
  PRIMARY KEY (prompt_id, day)
) STRICT, WITHOUT ROWID;

CREATE TABLE prompt_platform_running (
  prompt_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  day INTEGER NOT NULL,
  run_total INTEGER NOT NULL,
  run_mentioned INTEGER NOT NULL,
  run_cited INTEGER NOT NULL,
  PRIMARY KEY (prompt_id, platform, day)
) STRICT, WITHOUT ROWID;

CREATE TABLE prompt_competitor_running (
  prompt_id TEXT NOT NULL,
  competitor_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  run_mentions INTEGER NOT NULL,
  PRIMARY KEY (prompt_id, competitor_id, day)
) STRICT, WITHOUT ROWID;

INSERT INTO prompt_day_totals (prompt_id, day, total, mentioned, cited, run_total, run_mentioned, run_cited)
SELECT prompt_id, day, total, mentioned, cited,
  sum(total) OVER w, sum(mentioned) OVER w, sum(cited) OVER w
FROM (
  SELECT prompt_id, day, sum(total) AS total, sum(mentioned) AS mentioned, sum(cited) AS cited
  FROM prompt_daily GROUP BY prompt_id, day HAVING sum(total) > 0
)
WINDOW w AS (PARTITION BY prompt_id ORDER BY day);

INSERT INTO prompt_platform_running (prompt_id, platform, day, run_total, run_mentioned, run_cited)
SELECT prompt_id, platform, day, sum(total) OVER w, sum(mentioned) OVER w, sum(cited) OVER w
FROM prompt_daily WHERE total > 0
WINDOW w AS (PARTITION BY prompt_id, platform ORDER BY day);

INSERT INTO prompt_competitor_running (prompt_id, competitor_id, day, run_mentions)
SELECT prompt_id, competitor_id, day, sum(mentions) OVER w
FROM prompt_competitor_daily WHERE mentions > 0
WINDOW w AS (PARTITION BY prompt_id, competitor_id ORDER BY day);

DROP TABLE prompt_daily;
DROP TABLE prompt_competitor_daily;
