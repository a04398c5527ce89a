import { Int8Rows } from "../../server/providers/vectors/lancedb/int8_scan.ts";
const N = 100_000, D = 384;
const v = new Float32Array(N * D); for (let i = 0; i < v.length; i++) v[i] = Math.random() - 0.5;
const rows = Int8Rows.create(N, D)!; rows.append(v, 0, N);
const q = Array.from({ length: D }, () => Math.random() - 0.5);
for (let i = 0; i < 5; i++) rows.candidates(q, 30);
const t: number[] = []; for (let i = 0; i < 40; i++) { const a = performance.now(); rows.candidates(q, 30); t.push(performance.now() - a); }
t.sort((a, b) => a - b); console.log("candidates p50", t[20].toFixed(2), "min", t[0].toFixed(2));
