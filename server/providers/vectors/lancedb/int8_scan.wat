;; The quantised scan of int8_scan.ts: for each row, the dot product of its int8 vector with an int16 query,
;; times the row's scale, as a float32. WebAssembly SIMD: 16 dimensions per step.
;; Compiled into int8_scan_wasm.ts by scripts/build_int8_scan.ts.
(module
  (memory (export "memory") 1)
  ;; out[row] = scales[row] × Σ_d vectors[row × stride + d] × query[d], for row in [0, rows).
  ;; stride: bytes per row, a multiple of 16; query: stride int16 values; scales and out: float32 per row.
  (func (export "scan")
    (param $vectors i32) (param $rows i32) (param $stride i32) (param $query i32) (param $scales i32)
    (param $out i32)
    (local $end i32) (local $rowEnd i32) (local $q i32) (local $acc v128) (local $v v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $rowEnd (i32.add (local.get $vectors) (local.get $stride)))
        (block $rowDone
          (loop $dims
            (br_if $rowDone (i32.ge_u (local.get $vectors) (local.get $rowEnd)))
            (local.set $v (v128.load (local.get $vectors)))
            (local.set $acc
              (i32x4.add (local.get $acc)
                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load (local.get $q)))))
            (local.set $acc
              (i32x4.add (local.get $acc)
                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v))
                  (v128.load offset=16 (local.get $q)))))
            (local.set $vectors (i32.add (local.get $vectors) (i32.const 16)))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (br $dims)))
        (f32.store (local.get $out)
          (f32.mul
            (f32.load (local.get $scales))
            (f32.convert_i32_s
              (i32.add
                (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
                (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))))
        (local.set $scales (i32.add (local.get $scales) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row)))))
