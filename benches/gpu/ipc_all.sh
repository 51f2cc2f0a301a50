#!/usr/bin/env bash
# The CUDA IPC class of issue 22 (item 5) on ONE GPU: every lowering pipeline with
# backend=cuda_ipc (tp-overlap-collective{backend=cuda_ipc}, tp-overlap-p2p{backend=cuda_ipc
# protocol=get|put}) leaves no NCCL op, so its program must run with d processes sharing GPU 0
# (`fuser-run --launch --backend cuda --devices 0,0[,0,0] --check`; NCCL refuses two ranks on
# one GPU, CUDA IPC between processes does not). Cases, for d in $DS (default "2 4"):
#   - examples/*.mlir with a mesh (their mesh rewritten to d devices), every pipeline above;
#   - every template of test/Run/matrix/*.mlir.in (allgather, allreduce, reduce_scatter, the
#     broadcasts of gather loops, reduce, all_to_all), tp-overlap-collective{backend=cuda_ipc}
#     for all and the two rings for the ring programs;
#   - test/Run/inputs/ipc_roundtrip_host.mlir: gather, scatter and collective_permute with
#     backend = cuda_ipc (host-level, checked against test/Run/inputs/ipc_roundtrip.mlir);
#   - (d = 4, needs fuser-opt) the NCCL comm.group ring of test/Run/seeded-swapped-peer.mlir
#     ungrouped by comm-collective-backend{backend=cuda_ipc}, with and without its group.
# Each case prints PASS or FAIL (with the log's last lines), runs with `timeout` and
# `--timeout`, and continues on failure; a summary count ends the run. Logs: $OUT/<case>.log,
# results: $OUT/results.tsv (appended as it goes), summary: $OUT/summary.txt.
#
# Environment: FUSER_RUN (default target/release/fuser-run), FUSER_OPT (default: fuser-opt
# beside FUSER_RUN), OUT (default /tmp/ipc_all), DS (team sizes, default "2 4"), STREAMS
# (worker streams, default 2), DT (element type of the templates, default f32), CASE_TIMEOUT
# (seconds per case, default 60), FILTER (a grep -E pattern: run only matching case names),
# BACKEND (default cuda; `BACKEND=cpu` dry-runs the same cases on the cpu backend, without
# --devices, e.g. on a machine without a GPU). Run from the repository root.
set -u -o pipefail

FUSER_RUN=${FUSER_RUN:-target/release/fuser-run}
FUSER_OPT=${FUSER_OPT:-$(dirname "$FUSER_RUN")/fuser-opt}
OUT=${OUT:-/tmp/ipc_all}
DS=${DS:-2 4}
STREAMS=${STREAMS:-2}
DT=${DT:-f32}
CASE_TIMEOUT=${CASE_TIMEOUT:-60}
FILTER=${FILTER:-}
BACKEND=${BACKEND:-cuda}
mkdir -p "$OUT/inputs"
: >"$OUT/results.tsv"

if [ ! -x "$FUSER_RUN" ]; then
  echo "ipc_all.sh: no fuser-run at $FUSER_RUN (set FUSER_RUN)" | tee "$OUT/summary.txt"
  exit 2
fi
if [ ! -f test/Run/inputs/ipc_roundtrip_host.mlir ]; then
  echo "ipc_all.sh: run from the repository root" | tee "$OUT/summary.txt"
  exit 2
fi
command -v nvidia-smi >/dev/null && nvidia-smi -L | tee "$OUT/gpus.txt"

pass=0
fail=0
skipped=0
failed_cases=()

# run_case NAME CMD...: runs CMD with a wall-clock limit, logs it, records PASS/FAIL.
run_case() {
  local name=$1
  shift
  if [ -n "$FILTER" ] && ! grep -qE "$FILTER" <<<"$name"; then
    return
  fi
  local log="$OUT/$name.log"
  mkdir -p "$(dirname "$log")"
  local start=$SECONDS
  {
    printf '$'
    printf ' %q' "$@"
    printf '\n'
  } >"$log"
  timeout -k 10 $((CASE_TIMEOUT + 30)) "$@" >>"$log" 2>&1
  local rc=$?
  local secs=$((SECONDS - start))
  if [ $rc -eq 0 ] && grep -q "check: PASS" "$log"; then
    pass=$((pass + 1))
    printf 'PASS %s (%ss)\n' "$name" "$secs"
    printf 'PASS\t%s\t%s\t%s\n' "$name" "$rc" "$secs" >>"$OUT/results.tsv"
  else
    fail=$((fail + 1))
    failed_cases+=("$name")
    printf 'FAIL %s (exit %s, %ss): %s\n' "$name" "$rc" "$secs" "$(grep -v '^\$' "$log" | tail -3 | tr '\n' ' ' | cut -c1-400)"
    printf 'FAIL\t%s\t%s\t%s\n' "$name" "$rc" "$secs" >>"$OUT/results.tsv"
  fi
}

devices_of() { # d -> 0,0,...,0
  local d=$1 list=0 i
  for ((i = 1; i < d; i++)); do list="$list,0"; done
  echo "$list"
}
mesh_of() { # d -> "0, 1, ..., d-1"
  local d=$1 list=0 i
  for ((i = 1; i < d; i++)); do list="$list, $i"; done
  echo "$list"
}

# launch NAME D FILE [extra fuser-run args...]: one process per rank, all on GPU 0.
launch() {
  local name=$1 d=$2 file=$3
  shift 3
  local devices=(--devices "$(devices_of "$d")")
  [ "$BACKEND" = cuda ] || devices=()
  run_case "$name" "$FUSER_RUN" "$file" --launch --backend "$BACKEND" --ranks "$d" "${devices[@]}" \
    --check --timeout "$CASE_TIMEOUT" "$@"
}

collective() { echo "builtin.module(tp-overlap-collective{streams=$STREAMS chunks=$1 backend=cuda_ipc})"; }
ring() { echo "builtin.module(tp-overlap-p2p{streams=$STREAMS chunks=$1 backend=cuda_ipc protocol=$2})"; }

# Templates of test/Run/matrix whose loops need one stream chunk per device (the rings).
RING_PROGRAMS="column_parallel_linear matmul_reduce_scatter gather_linear_return_gathered mlp_reduce_in_gather_loop mlp_allreduce_in_gather_loop"
SIDE=128 # M = K = N = H: splits into S·d, 2·d, d, S and 2 pieces for d <= 4

for d in $DS; do
  mesh=$(mesh_of "$d")
  echo "== d = $d: ranks sharing GPU 0 (--devices $(devices_of "$d"))"

  # The examples with a mesh, rewritten to d devices.
  for ex in examples/*.mlir; do
    grep -q "^fusion.mesh @tp = \[0, 1, 2, 3\]" "$ex" || continue
    base=$(basename "$ex" .mlir)
    input="$OUT/inputs/$base.d$d.mlir"
    sed "s/^fusion.mesh @tp = \[0, 1, 2, 3\]/fusion.mesh @tp = [$mesh]/" "$ex" >"$input"
    launch "examples/$base/collective/d$d" "$d" "$input" --pass-pipeline "$(collective "$d")"
    for protocol in get put; do
      launch "examples/$base/p2p-$protocol/d$d" "$d" "$input" --pass-pipeline "$(ring "$d" "$protocol")"
    done
  done

  # The templates of the differential matrix.
  for tpl in test/Run/matrix/*.mlir.in; do
    base=$(basename "$tpl" .mlir.in)
    per_device=0
    for r in $RING_PROGRAMS; do [ "$r" = "$base" ] && per_device=1; done
    s=4
    [ $per_device = 1 ] && s=$d
    input="$OUT/inputs/$base.d$d.mlir"
    sed -e "s/\${DEVICES}/$mesh/g" -e "s/\${DT}/$DT/g" -e "s/\${M}/$SIDE/g" -e "s/\${K}/$SIDE/g" \
      -e "s/\${N}/$SIDE/g" -e "s/\${H}/$SIDE/g" -e "s/\${S}/$s/g" "$tpl" >"$input"
    chunks=2
    [ $per_device = 1 ] && chunks=$d
    launch "matrix/$base/collective/d$d" "$d" "$input" --pass-pipeline "$(collective "$chunks")"
    if [ $per_device = 1 ]; then
      for protocol in get put; do
        launch "matrix/$base/p2p-$protocol/d$d" "$d" "$input" --pass-pipeline "$(ring "$d" "$protocol")"
      done
    fi
  done

  # gather, scatter, collective_permute (host-level, backend = cuda_ipc written).
  subst=(-e "s/DEVICES/$mesh/g" -e "s/GROWS/$((2 * d))/g" -e "s/NDEV/$d/g" -e "s/LAST/$((d - 1))/g")
  sed "${subst[@]}" test/Run/inputs/ipc_roundtrip_host.mlir >"$OUT/inputs/roundtrip_host.d$d.mlir"
  sed "${subst[@]}" test/Run/inputs/ipc_roundtrip.mlir >"$OUT/inputs/roundtrip_ref.d$d.mlir"
  launch "host/gather-scatter-permute/d$d" "$d" "$OUT/inputs/roundtrip_host.d$d.mlir" \
    --reference "$OUT/inputs/roundtrip_ref.d$d.mlir"

  # A comm.group ring (and the same without the group) made CUDA IPC by comm-collective-backend.
  if [ "$d" = 4 ]; then
    if [ -x "$FUSER_OPT" ]; then
      fix=(-e 's/comm.send %arg0 to %6/comm.send %arg0 to %8/' -e 's/comm.recv %9 from %8/comm.recv %9 from %6/')
      nogroup=(-e '/%11 = comm.group {/d' -e '/^        }$/d' -e 's/comm.wait %11/comm.wait %13, %14/')
      pipeline='builtin.module(func.func(comm-collective-backend{backend=cuda_ipc}))'
      sed "${fix[@]}" test/Run/seeded-swapped-peer.mlir | "$FUSER_OPT" --pass-pipeline="$pipeline" \
        >"$OUT/inputs/ring_ungrouped.mlir" 2>"$OUT/inputs/ring_ungrouped.err"
      sed "${fix[@]}" "${nogroup[@]}" test/Run/seeded-swapped-peer.mlir | "$FUSER_OPT" --pass-pipeline="$pipeline" \
        >"$OUT/inputs/ring_nogroup.mlir" 2>"$OUT/inputs/ring_nogroup.err"
      launch "host/ring-ungrouped/d4" 4 "$OUT/inputs/ring_ungrouped.mlir" --reference examples/column_parallel_linear.mlir
      launch "host/ring-without-group/d4" 4 "$OUT/inputs/ring_nogroup.mlir" --reference examples/column_parallel_linear.mlir
    else
      echo "skip host/ring-*: no fuser-opt at $FUSER_OPT (set FUSER_OPT)"
      skipped=$((skipped + 2))
    fi
  fi
done

{
  echo "ipc_all: $pass passed, $fail failed, $skipped skipped (backend $BACKEND, d in $DS, streams $STREAMS, $DT)"
  for c in "${failed_cases[@]}"; do echo "  FAILED $c (log: $OUT/$c.log)"; done
} | tee "$OUT/summary.txt"
[ "$fail" -eq 0 ]
