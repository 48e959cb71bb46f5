;; Exact vector scan kernels (WebAssembly SIMD), assembled at build time into dist/exact-scan.wasm
;; (scripts/build-wasm.mjs). Driven by src/core/retrieval/exact.ts, which owns the memory layout:
;;   - the matrix: row r of the index at `base + r * stride` (stride in bytes, a multiple of 16; rows are
;;     zero-padded to a whole number of v128 lanes, so no kernel needs a scalar tail);
;;   - the query, zero-padded the same way;
;;   - `rows`: n row numbers (i32) to score, in the order the scores are written to `out` (4 bytes each).
;; All pointers are byte offsets into the exported memory. `dim` is the PADDED element count of a row.
;; Every kernel keeps four independent v128 accumulators so consecutive adds do not wait on each other;
;; the float kernels therefore sum in a different order than a scalar loop (float32 rounding differs by
;; a few ulps of the sum of |products|: see test/unit/retrieval/exact-property.test.ts).
(module
  (memory (export "memory") 1)

  ;; out[i] = dot(q, row rows[i]) as f32. Rows and query are f32; dim is a multiple of 4.
  (func (export "dot_f32")
    (param $q i32) (param $base i32) (param $stride i32) (param $rows i32) (param $n i32) (param $out i32) (param $dim i32)
    (local $i i32) (local $x i32) (local $y i32) (local $end i32) (local $end64 i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $x (i32.add (local.get $base)
          (i32.mul (i32.load (i32.add (local.get $rows) (i32.shl (local.get $i) (i32.const 2)))) (local.get $stride))))
        (local.set $y (local.get $q))
        (local.set $end (i32.add (local.get $x) (i32.shl (local.get $dim) (i32.const 2))))
        ;; whole blocks of 16 floats (64 bytes), then blocks of 4
        (local.set $end64 (i32.add (local.get $x) (i32.and (i32.shl (local.get $dim) (i32.const 2)) (i32.const -64))))
        (local.set $a0 (v128.const i64x2 0 0))
        (local.set $a1 (v128.const i64x2 0 0))
        (local.set $a2 (v128.const i64x2 0 0))
        (local.set $a3 (v128.const i64x2 0 0))
        (block $b64
          (loop $l64
            (br_if $b64 (i32.ge_u (local.get $x) (local.get $end64)))
            (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (v128.load (local.get $x)) (v128.load (local.get $y)))))
            (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (v128.load offset=16 (local.get $x)) (v128.load offset=16 (local.get $y)))))
            (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (v128.load offset=32 (local.get $x)) (v128.load offset=32 (local.get $y)))))
            (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (v128.load offset=48 (local.get $x)) (v128.load offset=48 (local.get $y)))))
            (local.set $x (i32.add (local.get $x) (i32.const 64)))
            (local.set $y (i32.add (local.get $y) (i32.const 64)))
            (br $l64)))
        (block $b16
          (loop $l16
            (br_if $b16 (i32.ge_u (local.get $x) (local.get $end)))
            (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (v128.load (local.get $x)) (v128.load (local.get $y)))))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (local.set $y (i32.add (local.get $y) (i32.const 16)))
            (br $l16)))
        (local.set $a0 (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
            (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))

  ;; out[i] = -|q - row rows[i]|^2 as f32 (negated so that larger is better, like the similarities;
  ;; as 0 - sum, so that a distance of 0 scores +0, not -0).
  (func (export "l2_f32")
    (param $q i32) (param $base i32) (param $stride i32) (param $rows i32) (param $n i32) (param $out i32) (param $dim i32)
    (local $i i32) (local $x i32) (local $y i32) (local $end i32) (local $end64 i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $d0 v128) (local $d1 v128) (local $d2 v128) (local $d3 v128)
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $x (i32.add (local.get $base)
          (i32.mul (i32.load (i32.add (local.get $rows) (i32.shl (local.get $i) (i32.const 2)))) (local.get $stride))))
        (local.set $y (local.get $q))
        (local.set $end (i32.add (local.get $x) (i32.shl (local.get $dim) (i32.const 2))))
        (local.set $end64 (i32.add (local.get $x) (i32.and (i32.shl (local.get $dim) (i32.const 2)) (i32.const -64))))
        (local.set $a0 (v128.const i64x2 0 0))
        (local.set $a1 (v128.const i64x2 0 0))
        (local.set $a2 (v128.const i64x2 0 0))
        (local.set $a3 (v128.const i64x2 0 0))
        (block $b64
          (loop $l64
            (br_if $b64 (i32.ge_u (local.get $x) (local.get $end64)))
            (local.set $d0 (f32x4.sub (v128.load (local.get $x)) (v128.load (local.get $y))))
            (local.set $d1 (f32x4.sub (v128.load offset=16 (local.get $x)) (v128.load offset=16 (local.get $y))))
            (local.set $d2 (f32x4.sub (v128.load offset=32 (local.get $x)) (v128.load offset=32 (local.get $y))))
            (local.set $d3 (f32x4.sub (v128.load offset=48 (local.get $x)) (v128.load offset=48 (local.get $y))))
            (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $d0) (local.get $d0))))
            (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $d1) (local.get $d1))))
            (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $d2) (local.get $d2))))
            (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $d3) (local.get $d3))))
            (local.set $x (i32.add (local.get $x) (i32.const 64)))
            (local.set $y (i32.add (local.get $y) (i32.const 64)))
            (br $l64)))
        (block $b16
          (loop $l16
            (br_if $b16 (i32.ge_u (local.get $x) (local.get $end)))
            (local.set $d0 (f32x4.sub (v128.load (local.get $x)) (v128.load (local.get $y))))
            (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $d0) (local.get $d0))))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (local.set $y (i32.add (local.get $y) (i32.const 16)))
            (br $l16)))
        (local.set $a0 (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32.sub (f32.const 0) (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
            (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))

  ;; out[i] = dot(q, row rows[i]) as f32, rows stored as IEEE half floats (u16), the query as f32.
  ;; dim is a multiple of 8. A half h widens exactly to f32: the magnitude bits shifted into f32 position
  ;; and scaled by 2^112 (re-biases the exponent, and turns half subnormals into the right f32 value),
  ;; then the sign bit ORed back. Infinities and NaNs are never stored (the encoder clamps).
  (func (export "dot_f16")
    (param $q i32) (param $base i32) (param $stride i32) (param $rows i32) (param $n i32) (param $out i32) (param $dim i32)
    (local $i i32) (local $x i32) (local $y i32) (local $end i32) (local $end32 i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $h v128) (local $w v128)
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $x (i32.add (local.get $base)
          (i32.mul (i32.load (i32.add (local.get $rows) (i32.shl (local.get $i) (i32.const 2)))) (local.get $stride))))
        (local.set $y (local.get $q))
        (local.set $end (i32.add (local.get $x) (i32.shl (local.get $dim) (i32.const 1))))
        ;; whole blocks of 16 halves (32 bytes), then blocks of 8
        (local.set $end32 (i32.add (local.get $x) (i32.and (i32.shl (local.get $dim) (i32.const 1)) (i32.const -32))))
        (local.set $a0 (v128.const i64x2 0 0))
        (local.set $a1 (v128.const i64x2 0 0))
        (local.set $a2 (v128.const i64x2 0 0))
        (local.set $a3 (v128.const i64x2 0 0))
        (block $b32
          (loop $l32
            (br_if $b32 (i32.ge_u (local.get $x) (local.get $end32)))
            (local.set $h (v128.load (local.get $x)))
            (local.set $w (i32x4.extend_low_i16x8_u (local.get $h)))
            (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (v128.load (local.get $y))
              (v128.or
                (i32x4.shl (v128.and (local.get $w) (v128.const i32x4 0x8000 0x8000 0x8000 0x8000)) (i32.const 16))
                (f32x4.mul (i32x4.shl (v128.and (local.get $w) (v128.const i32x4 0x7fff 0x7fff 0x7fff 0x7fff)) (i32.const 13))
                           (v128.const f32x4 0x1p112 0x1p112 0x1p112 0x1p112))))))
            (local.set $w (i32x4.extend_high_i16x8_u (local.get $h)))
            (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (v128.load offset=16 (local.get $y))
              (v128.or
                (i32x4.shl (v128.and (local.get $w) (v128.const i32x4 0x8000 0x8000 0x8000 0x8000)) (i32.const 16))
                (f32x4.mul (i32x4.shl (v128.and (local.get $w) (v128.const i32x4 0x7fff 0x7fff 0x7fff 0x7fff)) (i32.const 13))
                           (v128.const f32x4 0x1p112 0x1p112 0x1p112 0x1p112))))))
            (local.set $h (v128.load offset=16 (local.get $x)))
            (local.set $w (i32x4.extend_low_i16x8_u (local.get $h)))
            (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (v128.load offset=32 (local.get $y))
              (v128.or
                (i32x4.shl (v128.and (local.get $w) (v128.const i32x4 0x8000 0x8000 0x8000 0x8000)) (i32.const 16))
                (f32x4.mul (i32x4.shl (v128.and (local.get $w) (v128.const i32x4 0x7fff 0x7fff 0x7fff 0x7fff)) (i32.const 13))
                           (v128.const f32x4 0x1p112 0x1p112 0x1p112 0x1p112))))))
            (local.set $w (i32x4.extend_high_i16x8_u (local.get $h)))
            (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (v128.load offset=48 (local.get $y))
              (v128.or
                (i32x4.shl (v128.and (local.get $w) (v128.const i32x4 0x8000 0x8000 0x8000 0x8000)) (i32.const 16))
                (f32x4.mul (i32x4.shl (v128.and (local.get $w) (v128.const i32x4 0x7fff 0x7fff 0x7fff 0x7fff)) (i32.const 13))
                           (v128.const f32x4 0x1p112 0x1p112 0x1p112 0x1p112))))))
            (local.set $x (i32.add (local.get $x) (i32.const 32)))
            (local.set $y (i32.add (local.get $y) (i32.const 64)))
            (br $l32)))
        (block $b16
          (loop $l16
            (br_if $b16 (i32.ge_u (local.get $x) (local.get $end)))
            (local.set $h (v128.load (local.get $x)))
            (local.set $w (i32x4.extend_low_i16x8_u (local.get $h)))
            (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (v128.load (local.get $y))
              (v128.or
                (i32x4.shl (v128.and (local.get $w) (v128.const i32x4 0x8000 0x8000 0x8000 0x8000)) (i32.const 16))
                (f32x4.mul (i32x4.shl (v128.and (local.get $w) (v128.const i32x4 0x7fff 0x7fff 0x7fff 0x7fff)) (i32.const 13))
                           (v128.const f32x4 0x1p112 0x1p112 0x1p112 0x1p112))))))
            (local.set $w (i32x4.extend_high_i16x8_u (local.get $h)))
            (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (v128.load offset=16 (local.get $y))
              (v128.or
                (i32x4.shl (v128.and (local.get $w) (v128.const i32x4 0x8000 0x8000 0x8000 0x8000)) (i32.const 16))
                (f32x4.mul (i32x4.shl (v128.and (local.get $w) (v128.const i32x4 0x7fff 0x7fff 0x7fff 0x7fff)) (i32.const 13))
                           (v128.const f32x4 0x1p112 0x1p112 0x1p112 0x1p112))))))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (local.set $y (i32.add (local.get $y) (i32.const 32)))
            (br $l16)))
        (local.set $a0 (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
            (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))

  ;; out[i] = dot(q, row rows[i]) as i32, exactly: rows int8, the query int16 (its scale is chosen by the
  ;; caller so that no partial sum can overflow: dim * 127 * max|q| < 2^31). dim is a multiple of 16.
  (func (export "dot_i8")
    (param $q i32) (param $base i32) (param $stride i32) (param $rows i32) (param $n i32) (param $out i32) (param $dim i32)
    (local $i i32) (local $x i32) (local $y i32) (local $end i32) (local $end32 i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $v v128)
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $x (i32.add (local.get $base)
          (i32.mul (i32.load (i32.add (local.get $rows) (i32.shl (local.get $i) (i32.const 2)))) (local.get $stride))))
        (local.set $y (local.get $q))
        (local.set $end (i32.add (local.get $x) (local.get $dim)))
        ;; whole blocks of 32 bytes, then blocks of 16
        (local.set $end32 (i32.add (local.get $x) (i32.and (local.get $dim) (i32.const -32))))
        (local.set $a0 (v128.const i64x2 0 0))
        (local.set $a1 (v128.const i64x2 0 0))
        (local.set $a2 (v128.const i64x2 0 0))
        (local.set $a3 (v128.const i64x2 0 0))
        (block $b32
          (loop $l32
            (br_if $b32 (i32.ge_u (local.get $x) (local.get $end32)))
            (local.set $v (v128.load (local.get $x)))
            (local.set $a0 (i32x4.add (local.get $a0)
              (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load (local.get $y)))))
            (local.set $a1 (i32x4.add (local.get $a1)
              (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=16 (local.get $y)))))
            (local.set $v (v128.load offset=16 (local.get $x)))
            (local.set $a2 (i32x4.add (local.get $a2)
              (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load offset=32 (local.get $y)))))
            (local.set $a3 (i32x4.add (local.get $a3)
              (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=48 (local.get $y)))))
            (local.set $x (i32.add (local.get $x) (i32.const 32)))
            (local.set $y (i32.add (local.get $y) (i32.const 64)))
            (br $l32)))
        (block $b16
          (loop $l16
            (br_if $b16 (i32.ge_u (local.get $x) (local.get $end)))
            (local.set $v (v128.load (local.get $x)))
            (local.set $a0 (i32x4.add (local.get $a0)
              (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load (local.get $y)))))
            (local.set $a1 (i32x4.add (local.get $a1)
              (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=16 (local.get $y)))))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (local.set $y (i32.add (local.get $y) (i32.const 32)))
            (br $l16)))
        (local.set $a0 (i32x4.add (i32x4.add (local.get $a0) (local.get $a1)) (i32x4.add (local.get $a2) (local.get $a3))))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $a0)) (i32x4.extract_lane 1 (local.get $a0)))
            (i32.add (i32x4.extract_lane 2 (local.get $a0)) (i32x4.extract_lane 3 (local.get $a0)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $row))))
)
