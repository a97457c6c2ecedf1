import { html, type Html } from './html.js';

export interface DayCount {
  date: string;
  requests: number;
}

const WIDTH = 720;
const HEIGHT = 220;
const LEFT = 48;
const BOTTOM = 28;
const TOP = 12;

/** A round number at or above `max` for the top of the axis (1, 2 or 5 times a power of ten). */
function axisTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/**
 * Requests per day as bars, drawn on the server as SVG (no script, no inline style: its colours
 * come from the console's stylesheet), with its figures in words for screen readers: the `<title>`
 * and `<desc>` name what it shows, and a list beside it holds every day's count.
 */
export function usageChart(days: readonly DayCount[]): Html {
  const max = Math.max(0, ...days.map((d) => d.requests));
  const top = axisTop(max);
  const total = days.reduce((sum, d) => sum + d.requests, 0);
  const busiest = days.reduce<DayCount | undefined>((best, d) => (best === undefined || d.requests > best.requests ? d : best), undefined);
  const plotWidth = WIDTH - LEFT - 8;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = days.length === 0 ? plotWidth : plotWidth / days.length;
  const bars = days.map((d, i) => {
    const h = Math.round((d.requests / top) * plotHeight);
    const x = LEFT + i * slot + slot * 0.15;
    return html`<rect class="bar" x="${x.toFixed(1)}" y="${TOP + plotHeight - h}" width="${(slot * 0.7).toFixed(1)}" height="${h}"><title>${d.date}: ${d.requests} requests</title></rect>`;
  });
  const first = days[0]?.date ?? '';
  const last = days[days.length - 1]?.date ?? '';
  const summary = days.length === 0
    ? 'No days to show.'
    : `${total} requests from ${first} to ${last}; the busiest day was ${busiest?.date ?? ''} with ${busiest?.requests ?? 0}.`;
  return html`<figure class="usage">
<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="usage-title usage-desc" xmlns="http://www.w3.org/2000/svg">
<title id="usage-title">Read API requests per day, last ${days.length} days</title>
<desc id="usage-desc">${summary}</desc>
<line class="axis" x1="${LEFT}" y1="${TOP + plotHeight}" x2="${WIDTH - 8}" y2="${TOP + plotHeight}"></line>
<line class="axis" x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${TOP + plotHeight}"></line>
<text class="label" x="${LEFT - 6}" y="${TOP + 10}" text-anchor="end">${top}</text>
<text class="label" x="${LEFT - 6}" y="${TOP + plotHeight}" text-anchor="end">0</text>
<text class="label" x="${LEFT}" y="${HEIGHT - 8}">${first}</text>
<text class="label" x="${WIDTH - 8}" y="${HEIGHT - 8}" text-anchor="end">${last}</text>
${bars}
</svg>
<figcaption>${summary}</figcaption>
<details><summary>Every day's count</summary>
<ul class="day-counts">${days.map((d) => html`<li>${d.date}: ${d.requests}</li>`)}</ul>
</details>
</figure>`;
}
