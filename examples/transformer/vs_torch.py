#!/usr/bin/env python3
"""Runs a transformer program of gen.py through fuser-run on the GPU and compares its output
with torch.nn.functional on the same weights and inputs (issue 23, "checked at real size").

For every argument of the program it draws a torch tensor (weights ~ N(0, 0.02), activations
~ N(0, 1), norm weights ~ 1 + N(0, 0.02)), writes it raw (`--input-file`), runs fuser-run,
reads the output back (`--output-file`) and computes the same layer with torch in float32 from
the same bf16 values (dropout p = 0: torch cannot draw fuser's Philox mask). Prints one JSON line:
max relative error (||out - ref|| / ||ref||, and the largest elementwise error relative to the
largest reference magnitude), torch's eager and compiled times for the layer in bf16, and
fuser-run's time.

  python3 vs_torch.py --fuser-run ./fuser-run gpt3 --seq 2048 --hidden 12288 --heads 96
"""

import argparse
import json
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

import torch  # noqa: E402
from torch_layers import reference, timed, draw_all  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--fuser-run", default="fuser-run")
    p.add_argument("--iters", type=int, default=5)
    p.add_argument("--no-compile", action="store_true")
    p.add_argument("--fuser-args", default="", help="more fuser-run arguments, one string split as a shell does; "
                   "with '=' as its value starts with '--': --fuser-args='--cuda-graph --pass-pipeline P'")
    args, rest = p.parse_known_args()
    a = gen.main_args(rest + ["--dtype", "bf16", "--dropout", "0.0"])
    model = a.model
    text, arg_specs = gen.render(a)
    tensors = draw_all(arg_specs, a, torch.bfloat16)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, f"{model}.mlir")
        with open(path, "w") as f:
            f.write(text)
        cmd = [args.fuser_run, path, "--backend", "cuda", "--warmup", "1", "--iters", str(args.iters)]
        cmd += shlex.split(args.fuser_args)
        if a.devices > 1:
            # d processes sharing GPU 0, every collective over CUDA IPC (NCCL refuses two ranks
            # on one GPU).
            cmd += ["--launch", "--devices", ",".join(["0"] * a.devices),
                    "--pass-pipeline", "builtin.module(tp-overlap-collective{backend=cuda_ipc})"]
        for i, (name, _, _) in enumerate(arg_specs):
            fp = os.path.join(d, f"in{i}.bin")
            t = tensors[name]
            raw = t.view(torch.int16) if t.dtype == torch.bfloat16 else t
            raw.contiguous().numpy().tofile(fp)
            cmd += ["--input-file", f"{i}={fp}"]
        out = os.path.join(d, "out0.bin")
        cmd += ["--output-file", f"0={out}"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            print(json.dumps({"model": model, "error": (run.stderr or run.stdout)[-3000:]}))
            return 1
        import numpy as np
        out_elem = gen.result_types(a)[0]
        if out_elem == "bf16":
            got = torch.from_numpy(np.fromfile(out, dtype="int16")).view(torch.bfloat16).float()
        else:
            got = torch.from_numpy(np.fromfile(out, dtype={"f32": "float32", "f64": "float64"}[out_elem])).float()
        ms = re.findall(r"mean\s+([0-9.]+)\s*ms", run.stdout)
    dev = torch.device("cuda")
    t32 = {k: (v.float().to(dev) if v.is_floating_point() else v.to(dev)) for k, v in tensors.items()}
    ref = reference(model, a, t32).flatten().cpu()
    err = (got - ref).norm().item() / max(ref.norm().item(), 1e-30)
    worst = (got - ref).abs().max().item() / max(ref.abs().max().item(), 1e-30)
    tb = {k: v.to(dev) for k, v in tensors.items()}
    # torch's own bf16 layer against the same f32 reference: the error bf16 itself makes.
    own = reference(model, a, tb).flatten().float().cpu()
    torch_bf16_err = (own - ref).norm().item() / max(ref.norm().item(), 1e-30)
    eager = timed(lambda: reference(model, a, tb))
    compiled = None
    if not args.no_compile:
        try:
            fn = torch.compile(lambda: reference(model, a, tb))
            compiled = timed(fn)
        except Exception as e:  # noqa: BLE001
            compiled = f"torch.compile failed: {type(e).__name__}"
    print(json.dumps({
        "model": model, "seq": a.seq, "hidden": a.hidden, "heads": a.heads, "placement": a.placement,
        "devices": a.devices, "rel_err": err, "torch_bf16_rel_err": torch_bf16_err, "max_err_rel_to_max": worst, "finite": bool(torch.isfinite(got).all()),
        "torch_eager_ms": eager, "torch_compile_ms": compiled, "fuser_stdout_tail": run.stdout[-600:],
    }))
    return 0 if err < 2e-2 and math.isfinite(err) else 1


if __name__ == "__main__":
    sys.exit(main())
