;; The float scan of exact_cache.ts: for each row, the dot product of its float32 vector with a float32 query,
;; accumulated in float32. WebAssembly SIMD: 16 dimensions per step in four accumulators, then 4 per step.
;; Its sums only pick the candidates that exact_cache.ts then scores again in double precision.
;; Compiled into float_scan_wasm.ts by scripts/build_int8_scan.ts.
(module
  (memory (export "memory") 1)
  ;; out[row] = Σ_d vectors[row × stride + d] × query[d], for row in [0, rows).
  ;; stride: bytes per row, a multiple of 16; query: stride bytes of float32; out: float32 per row.
  (func (export "dots")
    (param $vectors i32) (param $rows i32) (param $stride i32) (param $query i32) (param $out i32)
    (local $end i32) (local $rowEnd i32) (local $blocksEnd i32) (local $q i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $a0 (v128.const f32x4 0 0 0 0))
        (local.set $a1 (v128.const f32x4 0 0 0 0))
        (local.set $a2 (v128.const f32x4 0 0 0 0))
        (local.set $a3 (v128.const f32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $rowEnd (i32.add (local.get $vectors) (local.get $stride)))
        ;; Whole blocks of 64 bytes (16 floats).
        (local.set $blocksEnd
          (i32.add (local.get $vectors) (i32.and (local.get $stride) (i32.const -64))))
        (block $blocksDone
          (loop $blocks
            (br_if $blocksDone (i32.ge_u (local.get $vectors) (local.get $blocksEnd)))
            (local.set $a0 (f32x4.add (local.get $a0)
              (f32x4.mul (v128.load (local.get $vectors)) (v128.load (local.get $q)))))
            (local.set $a1 (f32x4.add (local.get $a1)
              (f32x4.mul (v128.load offset=16 (local.get $vectors)) (v128.load offset=16 (local.get $q)))))
            (local.set $a2 (f32x4.add (local.get $a2)
              (f32x4.mul (v128.load offset=32 (local.get $vectors)) (v128.load offset=32 (local.get $q)))))
            (local.set $a3 (f32x4.add (local.get $a3)
              (f32x4.mul (v128.load offset=48 (local.get $vectors)) (v128.load offset=48 (local.get $q)))))
            (local.set $vectors (i32.add (local.get $vectors) (i32.const 64)))
            (local.set $q (i32.add (local.get $q) (i32.const 64)))
            (br $blocks)))
        ;; The rest, 16 bytes at a time.
        (block $restDone
          (loop $rest
            (br_if $restDone (i32.ge_u (local.get $vectors) (local.get $rowEnd)))
            (local.set $a0 (f32x4.add (local.get $a0)
              (f32x4.mul (v128.load (local.get $vectors)) (v128.load (local.get $q)))))
            (local.set $vectors (i32.add (local.get $vectors) (i32.const 16)))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (br $rest)))
        (local.set $a0
          (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
        (f32.store (local.get $out)
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
            (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row)))))
