#!/usr/bin/env bash
# Training on ONE H200 (issue 25 item 4; issue 26 on the GPU), in one device call that writes
# everything under $OUT/training as it goes (each step's log, JSON and PNG), in this order:
#   1. sdpa_grad on the GPU: the row kernel, the GEMM path (FUSER_SDPA_GRAD=gemm) and the GEMM
#      path one head per step against the reference, then old vs new time at the Llama-3-70B
#      attention (B1 H64 Hkv8 S2048 D128 causal bf16): .gpu/cuda_fused_on_gpu, filter sdpa_grad
#      (the GEMM path is the default since this script first ran it, stop 32).
#   2. the Llama-3-70B layer's gradients vs torch autograd (bf16, real size) with the GEMM
#      sdpa_grad: correctness and fuser's forward+backward time against torch eager.
#   3. examples/python/train_gpt_gpu.py with the GEMM sdpa_grad: a 4-layer GPT (1.07 B
#      parameters) trained --steps steps by fuser and by torch eager and torch.compile from the
#      same weights: loss curves (PNG) and step times.
#   4. the Python cuda rank after the prepared.rs move: examples/python/tp_mlp.py --cuda.
#   5. issue 26 on the GPU: the imported Llama and GPT-2 blocks (TP+SP plan) under torchrun on
#      cuda ranks at d = 1 and 2 (two processes sharing the GPU), outputs and gradients against
#      torch (python/tests/test_torch_torchrun.py -k cuda), and examples/python/torch_tp_train.py
#      --backend cuda at 1 and 2 processes (20 AdamW steps against torch's losses).
#   6. where fuser's training step spends its GPU time: train_gpt_gpu.py --profile (8 steps of
#      fuser and torch eager under torch.profiler, kernels by GPU time).
#   7. every op family's gradient on the cuda backend against torch autograd in f64
#      (grad_vs_torch.py --ops: the 47 programs of the rules table).
#
# Device command (repository root; .gpu/ holds the stripped release binaries, the
# cuda_fused_on_gpu test binary and the wheel unpacked as .gpu/py):
#   cargo build --release -p fuser-opt-tool --bin fuser-run --bin fuser-opt
#   cargo test --release -p fuser-runtime --test cuda_fused_on_gpu --no-run   # copy the binary to .gpu/
#   (cd python && maturin build --release -o /tmp/w) && python3 -m zipfile -e /tmp/w/fuser-*.whl .gpu/py
#   strip .gpu/fuser-run .gpu/fuser-opt .gpu/cuda_fused_on_gpu
#   run(command="bash benches/gpu/training.sh", carry=[".gpu"], timeout_s=600)
# Options (environment): STEPS (default 60), PARTS (default "1 2 3 4 5 6 7"), TRAINING_BUDGET
# (seconds for the whole script, default 580).
set -u -o pipefail
OUT=${OUT:-/tmp/fuser-gpu-out}/training
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0
export PYTHONPATH="$PWD/.gpu/py${PYTHONPATH:+:$PYTHONPATH}"
END=$(( $(date +%s) + ${TRAINING_BUDGET:-580} ))
STEPS=${STEPS:-60}
PARTS=${PARTS:-"1 2 3 4 5 6 7"}
left() { echo $(( END - $(date +%s) )); }
step() {
  local name=$1 cap=$2; shift 2
  local t; t=$(left); [ "$t" -gt "$cap" ] && t=$cap
  if [ "$t" -le 5 ]; then echo "skipped $name: out of time" | tee -a "$OUT/skipped.txt"; return; fi
  echo "=== $name (limit ${t}s) $(date +%T)"
  local s; s=$(date +%s)
  timeout "$t" "$@" > "$OUT/$name.log" 2>&1
  echo "rc=$? $(( $(date +%s) - s ))s" | tee -a "$OUT/$name.log"
  tail -6 "$OUT/$name.log" | cut -c1-400
}
has() { case " $PARTS " in *" $1 "*) return 0;; esac; return 1; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
if has 1; then
  step sdpa-grad-gpu 150 env FUSER_SDPA_GRAD_BENCH=1 .gpu/cuda_fused_on_gpu sdpa_grad --nocapture --test-threads 1
fi
if has 6; then
  step train-gpt-profile 150 python3 examples/python/train_gpt_gpu.py --steps 8 --warmup 4 --no-compile \
    --profile "$OUT/train_gpt_profile.txt"
fi
if has 2; then
  step grad-llama-gemm 200 python3 examples/transformer/grad_vs_torch.py \
    --fuser-run .gpu/fuser-run --fuser-opt .gpu/fuser-opt --layer llama --seq 2048 --hidden 8192 --heads 64 \
    --kv-heads 8 --ffn 28672 --backend cuda --dtype bf16 --out "$OUT/grad_llama_gemm.json"
fi
if has 3; then
  step train-gpt-gpu 360 python3 examples/python/train_gpt_gpu.py --steps "$STEPS" \
    --peak-tflops 800 --plot "$OUT/train_gpt_gpu.png" --json "$OUT/train_gpt_gpu.json"
fi
if has 4; then
  step tp-mlp-cuda 60 torchrun --standalone --nproc-per-node 1 examples/python/tp_mlp.py --cuda
fi
if has 5; then
  step torch-rank-cuda-tests 120 python3 -m pytest -q -x -p no:cacheprovider python/tests/test_torch_torchrun.py -k cuda -rs
  step torch-tp-train-cuda-1 60 torchrun --standalone --nproc-per-node 1 examples/python/torch_tp_train.py --backend cuda
  step torch-tp-train-cuda-2 60 torchrun --standalone --nproc-per-node 2 examples/python/torch_tp_train.py --backend cuda
fi
if has 7; then
  step grad-ops-cuda 150 python3 examples/transformer/grad_vs_torch.py --fuser-run .gpu/fuser-run \
    --fuser-opt .gpu/fuser-opt --ops --backend cuda --out "$OUT/grad_ops_cuda.json"
fi
# The device returns at most 8 files per call: past that, the step logs travel as one archive.
if [ "$(ls "$OUT" | wc -l)" -gt 8 ]; then
  (cd "$OUT" && tar czf logs.tar.gz ./*.log && rm -f ./*.log)
fi
echo "training.sh: done $(date +%T)"
