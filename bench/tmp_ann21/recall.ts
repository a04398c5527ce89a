import { fileURLToPath } from "node:url";
import { embedLexical, NATIVE_DIMENSIONS as D } from "/work/wt-ann21/server/providers/embedders/native.ts";
import { Int8Rows } from "/work/wt-ann21/server/providers/vectors/lancedb/int8_scan.ts";
import { seededRandom as random } from "/work/wt-ann21/server/testing/random.ts";
const CORPUS = "/work/shared/corpus/";
function* walk(dir: string, ext: RegExp): Generator<string> {
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
    const p = `${dir}/${e.name}`; if (e.isDirectory) yield* walk(p, ext); else if (e.isFile && ext.test(e.name)) yield p;
  }
}
const N = 100_000;
const sources = [...walk(`${CORPUS}txt`, /\.txt$/), ...walk(`${CORPUS}md`, /\.md$/)].map((p) => Deno.readTextFileSync(p));
const total = sources.reduce((s, t) => s + t.length, 0);
const length = Math.max(200, Math.min(1000, Math.floor(total / N)));
const texts: string[] = [];
for (const t of sources) { for (let s = 0; s + length / 2 < t.length && texts.length < N; s += length) texts.push(t.slice(s, s + length)); if (texts.length >= N) break; }
const vectors = new Float32Array(N * D);
texts.forEach((t, i) => vectors.set(embedLexical(t), i * D));
const next = random(N);
const queries: number[][] = [];
for (let i = 0; i < 200; i++) { const src = texts[Math.floor(next() * N)]; const st = Math.floor(next() * Math.max(1, src.length - 150)); queries.push(embedLexical(src.slice(st, st + 150))); }
const rows = Int8Rows.create(N, D)!;
rows.append(vectors, 0, N);
const norms = new Float32Array(N); for (let r = 0; r < N; r++) { let s = 0; for (let d = 0; d < D; d++) s += vectors[r*D+d]**2; norms[r] = Math.sqrt(s); }
function exactTop(q: number[], k: number) { // bench's: plain dot, strict >
  const best: { i: number; s: number }[] = [];
  for (let r = 0; r < N; r++) { let s = 0; for (let d = 0; d < D; d++) s += vectors[r*D+d]*q[d]; if (best.length < k || s > best[best.length-1].s) { best.push({i:r,s}); best.sort((a,b)=>b.s-a.s); if (best.length>k) best.pop(); } }
  return best;
}
const exacts = queries.map((q) => exactTop(q, 10));
for (const depth of [10, 20, 30, 40, 60, 100]) {
  let found = 0, tied = 0; const times: number[] = [];
  for (const [i, q] of queries.entries()) {
    const t0 = performance.now();
    const cand = rows.candidates(q, depth);
    times.push(performance.now() - t0);
    const qn = Math.hypot(...q);
    const scored = cand.map((r) => { let s = 0; for (let d = 0; d < D; d++) s += vectors[r*D+d]*q[d]; return { r, s: s / (norms[r] * qn || 1) }; })
      .sort((a, b) => b.s - a.s || a.r - b.r).slice(0, 10);
    const ex = exacts[i].map((e) => e.i);
    found += scored.filter((h) => ex.includes(h.r)).length;
    const tenth = exacts[i][9].s;
    tied += scored.filter((h) => { let s = 0; for (let d = 0; d < D; d++) s += vectors[h.r*D+d]*q[d]; return s >= tenth - 1e-5; }).length;
  }
  times.sort((a, b) => a - b);
  console.log(`depth ${depth}: same ${(found / 2000).toFixed(3)} tied ${(tied / 2000).toFixed(3)} scan p50 ${times[100].toFixed(2)} ms`);
}
