import { ChartSpec } from "../../shared/api/agents.ts";

/** Colours that read on light and dark backgrounds. */
const PALETTE = ["#3b82f6", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6", "#14b8a6", "#ec4899", "#84cc16"];

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const WIDTH = 480;
const HEIGHT = 260;
const PAD = { top: 30, right: 12, bottom: 44, left: 44 };

function number(value: number): string {
  return Math.abs(value) >= 1000 ? value.toLocaleString("en") : String(Math.round(value * 100) / 100);
}

function axes(spec: ChartSpec): { max: number; min: number; y: (value: number) => number } {
  const values = spec.data.map((point) => point.value);
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const plot = HEIGHT - PAD.top - PAD.bottom;
  return { max, min, y: (value) => PAD.top + plot - ((value - min) / span) * plot };
}

function barOrLine(spec: ChartSpec): string {
  const { max, min, y } = axes(spec);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const step = plotWidth / spec.data.length;
  const parts: string[] = [
    `<line x1="${PAD.left}" y1="${y(0)}" x2="${WIDTH - PAD.right}" y2="${
      y(0)
    }" stroke="currentColor" stroke-opacity="0.4"/>`,
    `<text x="${PAD.left - 4}" y="${y(max) + 4}" text-anchor="end" font-size="10" fill="currentColor">${
      number(max)
    }</text>`,
  ];
  if (min < 0) {
    parts.push(
      `<text x="${PAD.left - 4}" y="${y(min) + 4}" text-anchor="end" font-size="10" fill="currentColor">${
        number(min)
      }</text>`,
    );
  }
  const points: string[] = [];
  spec.data.forEach((point, index) => {
    const x = PAD.left + step * index;
    const center = x + step / 2;
    if (spec.type === "bar") {
      const top = Math.min(y(point.value), y(0));
      const height = Math.abs(y(point.value) - y(0));
      parts.push(
        `<rect x="${x + step * 0.15}" y="${top}" width="${step * 0.7}" height="${height}" fill="${
          PALETTE[0]
        }"><title>${escapeXml(`${point.label}: ${number(point.value)}`)}</title></rect>`,
      );
    } else {
      points.push(`${center},${y(point.value)}`);
      parts.push(
        `<circle cx="${center}" cy="${y(point.value)}" r="3" fill="${PALETTE[0]}"><title>${
          escapeXml(`${point.label}: ${number(point.value)}`)
        }</title></circle>`,
      );
    }
    parts.push(
      `<text x="${center}" y="${
        HEIGHT - PAD.bottom + 14
      }" text-anchor="middle" font-size="10" fill="currentColor">${
        escapeXml(point.label.slice(0, 14))
      }</text>`,
    );
  });
  if (points.length) {
    parts.unshift(
      `<polyline points="${points.join(" ")}" fill="none" stroke="${PALETTE[0]}" stroke-width="2"/>`,
    );
  }
  return parts.join("");
}

function pie(spec: ChartSpec): string {
  const values = spec.data.map((point) => Math.max(0, point.value));
  const total = values.reduce((sum, value) => sum + value, 0) || 1;
  const cx = 130;
  const cy = HEIGHT / 2 + 8;
  const r = 95;
  let angle = -Math.PI / 2;
  const parts: string[] = [];
  spec.data.forEach((point, index) => {
    const share = values[index] / total;
    const end = angle + share * Math.PI * 2;
    const large = share > 0.5 ? 1 : 0;
    const colour = PALETTE[index % PALETTE.length];
    const [x1, y1, x2, y2] = [
      cx + r * Math.cos(angle),
      cy + r * Math.sin(angle),
      cx + r * Math.cos(end),
      cy + r * Math.sin(end),
    ];
    const shape = share >= 0.9999
      ? `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${colour}">`
      : `<path d="M${cx},${cy} L${x1},${y1} A${r},${r} 0 ${large} 1 ${x2},${y2} Z" fill="${colour}">`;
    parts.push(
      `${shape}<title>${escapeXml(`${point.label}: ${number(point.value)}`)}</title>${
        share >= 0.9999 ? "</circle>" : "</path>"
      }`,
    );
    parts.push(
      `<rect x="260" y="${30 + index * 18}" width="10" height="10" fill="${colour}"/>` +
        `<text x="276" y="${39 + index * 18}" font-size="11" fill="currentColor">${
          escapeXml(`${point.label.slice(0, 24)} (${Math.round(share * 100)}%)`)
        }</text>`,
    );
    angle = end;
  });
  return parts.join("");
}

/**
 * A chart the agent drew (a ```chart block of ChartSpec JSON) as an inline SVG figure; null when the block is
 * not a valid chart, which then shows as code.
 */
export function chartSvg(json: string): string | null {
  let parsed;
  try {
    parsed = ChartSpec.safeParse(JSON.parse(json));
  } catch {
    return null;
  }
  if (!parsed.success) return null;
  const spec = parsed.data;
  const title = escapeXml(spec.title);
  const body = spec.type === "pie" ? pie(spec) : barOrLine(spec);
  return `<figure class="agent-chart" data-chart-type="${spec.type}">` +
    `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${
      title || spec.type
    }" xmlns="http://www.w3.org/2000/svg">` +
    (title
      ? `<text x="${
        WIDTH / 2
      }" y="18" text-anchor="middle" font-size="13" fill="currentColor">${title}</text>`
      : "") +
    body + `</svg></figure>\n`;
}
