#!/usr/bin/env bash
# The transformer ops and layers of issue 23 on ONE H200.
#   A. Every test/Run program of the new ops ($OPS_GLOB) on the cuda backend with --check (the
#      unsharded f64 reference): one rank, or d processes sharing GPU 0 (`--launch --devices
#      0,0,...` with every collective over CUDA IPC: tp-overlap-collective{backend=cuda_ipc}) when
#      its mesh has d devices.
#   B. The GPT-3, Llama and loss programs of examples/transformer/gen.py at small sizes, f32 and
#      bf16, placements tp and tpsp, d = 1, 2, 4 (processes sharing GPU 0), with --check.
#   C. The GPT-3 175B layer (s=2048, e=12288, 96 heads) and the Llama-3-70B layer (s=4096,
#      e=8192, 64 heads, 8 kv heads, ffn 28672) at d = 1 in bf16 against torch.nn.functional
#      on the same weights (examples/transformer/vs_torch.py), with torch eager/compile times.
# Each case prints PASS/FAIL and continues; results: $OUT/results.tsv, logs $OUT/*.log,
# summary $OUT/summary.txt. Environment: FUSER_RUN (default .gpu/fuser-run, then
# target/release/fuser-run), OUT (default /tmp/transformer), PARTS (default "A B C"),
# CASE_TIMEOUT (default 120 s), BACKEND (cuda; cpu dry-runs A and B without --devices);
# FUSER_SDPA_GRAD=gemm reaches fuser-run: sdpa_grad through the GEMMs (cuda/ops/grad.rs).
# Run from the repository root.
set -u -o pipefail
OUT=${OUT:-/tmp/transformer}
PARTS=${PARTS:-A B C}
CASE_TIMEOUT=${CASE_TIMEOUT:-120}
BACKEND=${BACKEND:-cuda}
OPS_GLOB=${OPS_GLOB:-test/Run/ops/*.mlir test/Run/norm/*.mlir test/Run/math/*.mlir test/Run/reductions*.mlir test/Run/softmax.mlir test/Run/cross-entropy*.mlir}
export NCCL_NVLS_ENABLE=0
mkdir -p "$OUT"
: >"$OUT/results.tsv"
BIN=${FUSER_RUN:-}
if [ -z "$BIN" ]; then
  for b in .gpu/fuser-run target/release/fuser-run; do [ -x "$b" ] && BIN=$b && break; done
fi
[ -x "${BIN:-}" ] || { echo "no fuser-run binary (set FUSER_RUN)" | tee "$OUT/summary.txt"; exit 2; }
command -v nvidia-smi >/dev/null && nvidia-smi -L | tee "$OUT/gpus.txt"
pass=0; fail=0

# run NAME D FILE [extra args]: one case, d ranks sharing GPU 0.
run() {
  local name=$1 d=$2 file=$3; shift 3
  local args=("$file" --backend "$BACKEND" --check --timeout 60 "$@")
  if [ "$d" -gt 1 ] && [[ " $* " != *" --pass-pipeline "* ]]; then
    args+=(--pass-pipeline 'builtin.module(tp-overlap-collective{backend=cuda_ipc})')
    if [ "$BACKEND" = cuda ]; then
      args+=(--launch --devices "$(printf '0%.0s,' $(seq "$d") | sed 's/,$//')")
    fi
  fi
  local start=$(date +%s%N)
  timeout "$CASE_TIMEOUT" "$BIN" "${args[@]}" >"$OUT/$name.log" 2>&1 </dev/null
  local rc=$?
  local secs=$(( ($(date +%s%N) - start) / 1000000 ))ms
  local err=$(grep -o 'max rel err [0-9.e+-]*' "$OUT/$name.log" | head -1)
  if [ $rc -eq 0 ] && grep -q 'check: PASS' "$OUT/$name.log"; then
    echo "PASS $name ($err, $secs)"; pass=$((pass + 1))
    printf '%s\tPASS\t%s\t%s\n' "$name" "$err" "$secs" >>"$OUT/results.tsv"
  else
    echo "FAIL $name (exit $rc)"; fail=$((fail + 1))
    grep -E 'error|FAIL|check:' "$OUT/$name.log" | head -6 | sed 's/^/    /'
    printf '%s\tFAIL\t%s\t%s\n' "$name" "$rc" "$secs" >>"$OUT/results.tsv"
  fi
}

# runline NAME D "PREFIX" ARGS...: like `run`, the program read from the output of PREFIX
# (a `sed ... FILE` of the test's RUN line) through `fuser-run -`.
runline() {
  local name=$1 d=$2 prefix=$3; shift 3
  local tmp="$OUT/$name.mlir"
  bash -c "$prefix" >"$tmp" 2>/dev/null </dev/null || { echo "FAIL $name (its RUN prefix failed)"; fail=$((fail + 1)); return; }
  if [ "$d" = mesh ]; then
    d=1
    if [ "$(grep -c '^fusion.mesh' "$tmp")" -eq 1 ]; then
      d=$(grep -m1 '^fusion.mesh' "$tmp" | sed 's/.*\[\(.*\)\].*/\1/' | tr ',' '\n' | grep -c .)
    fi
  fi
  run "${name}-d$d" "$d" "$tmp" --ranks "$d" "$@"
}

if [[ " $PARTS " == *" A "* ]]; then
  # Every `fuser-run` RUN line of the ops' run tests (not the expected failures), with the cuda
  # backend; d from --ranks (else the mesh). Lines that pick their own pipeline run at d = 1 only
  # (a pipeline with NCCL collectives cannot put two ranks on one GPU).
  for f in $OPS_GLOB; do
    [ -f "$f" ] || continue
    k=0
    while IFS= read -r line; do
      k=$((k + 1))
      cmd=${line#// RUN: }
      cmd=${cmd% | FileCheck*}
      case "$cmd" in *"not fuser-run"*|*"--launch"*|*"--reference"*) continue;; esac
      prefix=""
      if [[ "$cmd" == *"| fuser-run -"* ]]; then
        prefix=${cmd%%| fuser-run -*}
        args=${cmd#*| fuser-run - }
      elif [[ "$cmd" == "fuser-run %s"* ]]; then
        prefix="cat %s"
        args=${cmd#fuser-run %s}
      else
        continue
      fi
      prefix=${prefix//%s/$f}; prefix=${prefix//%S/$(dirname "$f")}
      args=${args//%s/$f}; args=${args//%S/$(dirname "$f")}
      args=$(echo "$args" | sed -e 's/--check-races//g' -e 's/--check//g')
      d=$(echo "$args" | sed -n 's/.*--ranks \([0-9]*\).*/\1/p')
      [ -n "$d" ] || d=mesh
      args=$(echo "$args" | sed -e 's/--ranks [0-9]*//')
      if [ "$d" != 1 ] && [[ "$args" == *"--pass-pipeline"* ]]; then continue; fi
      # shellcheck disable=SC2086
      eval "set -- $args"
      runline "ops-$(basename "$f" .mlir)-$k" "$d" "$prefix" "$@"
    done < <(grep '^// RUN:.*fuser-run' "$f")
  done
fi

if [[ " $PARTS " == *" B "* ]]; then
  mkdir -p "$OUT/models"
  for model in gpt3 llama lmloss; do
    for dt in f32 bf16; do
      for pl in tp tpsp; do
        for d in 1 2 4; do
          extra=(--heads 8 --kv-heads 4)
          [ "$model" = llama ] || extra=(--heads 8)
          f="$OUT/models/$model-$dt-$pl-d$d.mlir"
          python3 examples/transformer/gen.py "$model" --placement "$pl" --devices "$d" --dtype "$dt" \
            --seq 32 --hidden 128 "${extra[@]}" --ffn 256 --vocab 512 >"$f" || { echo "FAIL gen $f"; fail=$((fail + 1)); continue; }
          run "model-$model-$dt-$pl-d$d" "$d" "$f"
        done
      done
    done
  done
fi

if [[ " $PARTS " == *" C "* ]] && [ "$BACKEND" = cuda ]; then
  for spec in "gpt3 --seq 2048 --hidden 12288 --heads 96" \
              "llama --seq 4096 --hidden 8192 --heads 64 --kv-heads 8 --ffn 28672"; do
    name="real-$(echo "$spec" | cut -d' ' -f1)"
    # shellcheck disable=SC2086
    timeout 900 python3 examples/transformer/vs_torch.py --fuser-run "$BIN" $spec >"$OUT/$name.json" 2>"$OUT/$name.log"
    rc=$?
    if [ $rc -eq 0 ]; then echo "PASS $name $(cat "$OUT/$name.json")"; pass=$((pass + 1));
    else echo "FAIL $name (exit $rc) $(head -c 600 "$OUT/$name.json") $(tail -5 "$OUT/$name.log")"; fail=$((fail + 1)); fi
    printf '%s\t%s\t%s\n' "$name" "$rc" "$(cat "$OUT/$name.json")" >>"$OUT/results.tsv"
  done
fi
echo "transformer on $BACKEND: $pass passed, $fail failed" | tee "$OUT/summary.txt"
[ $fail -eq 0 ]
