#!/usr/bin/env bash
# End-to-end checks of the paradise CLI: outputs, JSON keys, exit codes, error messages.
# Usage: cli_test.sh PATH/TO/paradise TESTS_DATA_DIR
set -uo pipefail
paradise=$1
data=$2
source "$(dirname "$0")/harness.sh"

# --version: the project's version from the top CMakeLists.txt
want=$(sed -n 's/^project(paradise VERSION \([0-9.]*\).*/\1/p' "$(dirname "$0")/../../CMakeLists.txt")
expect_rc 0 "--version" -- "$paradise" --version
[ -n "$want" ] && grep -qx "paradise $want" "$tmp/out" && ok || bad "--version: $(cat "$tmp/out") (want $want)"

# paradise models --format json: an array with the documented keys
expect_rc 0 "models json" -- "$paradise" models --format json
$py - "$tmp/out" <<'PY' && ok || bad "models json keys"
import json, sys
rows = json.load(open(sys.argv[1]))
need = {"name", "input", "params", "forward_macs", "saved_activation_bytes_per_sample"}
assert len(rows) >= 22 and all(need <= set(r) for r in rows)
r = {x["name"]: x for x in rows}
assert r["resnet50"]["params"] == 25557032 and r["resnet50"]["input"] == "3x224x224"  # torchvision
assert r["cosmoflow"]["input"] == "4x128x128x128"
PY

# predict: ParaDL's ResNet-50 data-parallel projection on 8 ABCI GPUs (docs/cost-model.md §ref-paradl-data)
for sys_and_comm in "abci-plx15 32.888" "abci 33.238"; do
  set -- $sys_and_comm
  expect_rc 0 "predict $1" -- "$paradise" predict --model "$data/paradl/model/RESNET50_ImageNet_profall.net_sc" \
    --system "$1" --strategy data --gpus 8 --batch 512 --variant paradl --format json
  $py - "$tmp/out" "$2" "$1" <<'PY' && ok || bad "predict values on $1"
import json, sys
p = json.load(open(sys.argv[1]))
need = {"status", "reason", "iterations_per_epoch", "iteration_time_s", "epoch_time_s", "epoch_compute_s",
        "epoch_communication_s", "memory_per_gpu_bytes", "communication", "memory"}
assert need <= set(p), need - set(p)
assert p["status"] == "ok" and p["iterations_per_epoch"] == 2500
# what was predicted (issue 39): the .net file's own model name, the system as given
assert p["model_source"].endswith("RESNET50_ImageNet_profall.net_sc") and p["model"], p["model"]
assert p["system"] == p["system_source"] == sys.argv[3] and p["dataset"] == "", p
# one whole batch's compute plus the exposed communication is the iteration (data: no overlap
# in ParaDL's model)
assert abs(p["iteration_compute_s"] + p["epoch_communication_s"] / 2500 - p["iteration_time_s"]) < 1e-9 * p["iteration_time_s"]
assert abs(p["epoch_compute_s"] - 499.12) < 0.01, p["epoch_compute_s"]          # TR/log: 499.12 s
assert abs(p["epoch_communication_s"] - float(sys.argv[2])) < 0.001, p["epoch_communication_s"]
assert p["memory_per_gpu_bytes"] == 15434845696                                 # docs/cost-model.md §ref-paradl-memory
PY
done

# the compute line names where the times come from: the paradise variant's roofline, ParaDL's
# FLOPs at peak, or a measured time
expect_rc 0 "predict compute source" -- "$paradise" predict --model resnet50 --dataset imagenet --gpus 8 --batch 256 --precision mixed
grep -q "compute   roofline per layer: FLOPs at the GPU's mixed peak" "$tmp/out" && ok || bad "roofline source: $(cat "$tmp/out")"
# a V100 has no tf32 peak: the roofline says it computes at the fp32 one (roofline.cpp)
"$paradise" predict --model resnet50 --dataset imagenet --system abci --strategy data --gpus 8 --batch 256 --precision tf32 >"$tmp/out"
grep -q "FLOPs at the GPU's fp32 peak (it has no tf32 one)" "$tmp/out" && ok || bad "tf32 on a V100: $(cat "$tmp/out")"
expect_rc 0 "predict paradl compute source" -- "$paradise" predict --model resnet50 --dataset imagenet --gpus 8 --batch 256 --variant paradl
grep -q "compute   FLOPs at the GPU's fp32 peak" "$tmp/out" && ok || bad "paradl source: $(cat "$tmp/out")"

# an impossible configuration is data, not an error
expect_rc 0 "predict invalid" -- "$paradise" predict --model resnet50 --dataset imagenet --strategy filter --gpus 128 --batch 64 --format json
grep -q '"status":"invalid"' "$tmp/out" && grep -q 'smallest filter count 64' "$tmp/out" && ok || bad "invalid status with reason"

# out of memory is data too: the reason gives the need and the usable memory, the A100-80GB's
# totalGlobalMem (85,100,068,864 B, deviceQuery in tests/data/measured/kernel-overheads.csv)
# less the DGX A100's 5% margin (src/system/catalog.cpp) = 80.85 GB
expect_rc 0 "predict out of memory" -- "$paradise" predict --model resnet50 --dataset imagenet --system dgx-a100 --gpus 1 --batch 8192 --format json
$py - "$tmp/out" <<'PY' && ok || bad "out-of-memory reason: $(cat "$tmp/out")"
import json, sys
p = json.load(open(sys.argv[1]))
need = p["memory_per_gpu_bytes"]
assert p["status"] == "out_of_memory" and need > 85100068864 * 0.95, p
assert p["reason"] == f"needs {need / 1e9:.2f} GB per GPU, the GPU has 80.85 GB usable", p["reason"]
PY

# bad input: exit 2 with a message naming the value
expect_rc 2 "unknown model" -- "$paradise" predict --model resnet51 --dataset imagenet --gpus 1 --batch 1
grep -q "unknown model 'resnet51'" "$tmp/err" && ok || bad "unknown model message"
expect_rc 2 "unknown strategy" -- "$paradise" predict --model resnet50 --dataset imagenet --strategy zigzag --gpus 1 --batch 1
expect_rc 2 "zero gpus" -- "$paradise" predict --model resnet50 --dataset imagenet --gpus 0 --batch 1
expect_rc 2 "negative batch" -- "$paradise" predict --model resnet50 --dataset imagenet --gpus 1 --batch -4
expect_rc 2 "unknown option" -- "$paradise" models --colour
expect_rc 2 "daso blocking epochs beyond the run" -- "$paradise" predict --model resnet50 --dataset imagenet --strategy daso --gpus 8 --batch 64 --daso-epochs 4 --daso-blocking-epochs 8
grep -q -- "--daso-epochs 4, --daso-blocking-epochs 8" "$tmp/err" && ok || bad "daso epochs message names both values"
# infinite or fractional epochs: refused (inf / inf made every DASO figure nan, status ok)
for e in "inf inf" "8.5 1"; do
  read -r run_epochs blocking_epochs <<<"$e"
  expect_rc 2 "daso epochs $e" -- "$paradise" predict --model resnet50 --dataset imagenet --strategy daso --gpus 16 --batch 256 --daso-epochs "$run_epochs" --daso-blocking-epochs "$blocking_epochs"
  grep -q -- "expected whole numbers" "$tmp/err" && ok || bad "daso epochs $e: $(cat "$tmp/err")"
done
# options the configuration does not read are refused, not ignored without a word
for case in "--strategy data --p2 2|--p2: GPUs per group of the hybrids" \
            "--strategy daso --p2 4|--p2: GPUs per group of the hybrids" \
            "--strategy filter --segments 4|--segments: micro-batches of a pipeline" \
            "--strategy data --fix-paradl-bugs|--fix-paradl-bugs: fixes ParaDL's code quirks" \
            "--strategy data --precision fp8|expected fp32, tf32 or mixed (fp16 and bf16 are taken as mixed)"; do
  # shellcheck disable=SC2086 # the options are several words
  expect_rc 2 "predict ${case%%|*}" -- "$paradise" predict --model resnet50 --dataset imagenet --gpus 16 --batch 256 ${case%%|*}
  grep -qF -- "${case#*|}" "$tmp/err" && ok || bad "predict ${case%%|*}: $(cat "$tmp/err")"
done
expect_rc 2 "memlimit --step alone" -- "$paradise" memlimit --model unet3d --dataset cosmoflow --gpus 8 --batch 8 --step 8
grep -qF -- "--step: the side step of --resolution, which is not given" "$tmp/err" && ok || bad "memlimit --step alone: $(cat "$tmp/err")"
expect_rc 2 "memlimit --gpu-counts alone" -- "$paradise" memlimit --model resnet50 --dataset imagenet --gpus 8 --batch 8 --gpu-counts 8,16
grep -qF -- "--gpu-counts: the GPU counts tried for --sides, which is not given" "$tmp/err" && ok || bad "memlimit --gpu-counts alone: $(cat "$tmp/err")"
# the training options reach memlimit's searches: CosmoFlow's largest batch on 8 GPUs with
# mixed precision and recomputation is predict's boundary under the same options (fits at
# the limit, out of memory one step of 8 GPUs above it), and above fp32's
train=(--precision mixed --optimizer adam --recompute)
expect_rc 0 "memlimit ${train[*]}" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --strategy data --gpus 8 --batch 8 "${train[@]}"
grep -q "^  training: mixed precision, adam optimizer, no ZeRO, activation recomputation$" "$tmp/out" && ok || bad "memlimit names the training options: $(cat "$tmp/out")"
limit=$(sed -n 's/^  largest feasible global batch: \([0-9,]*\) .*/\1/p' "$tmp/out" | tr -d ,)
"$paradise" memlimit --model cosmoflow --dataset cosmoflow --strategy data --gpus 8 --batch 8 >"$tmp/fp32.txt"
limit32=$(sed -n 's/^  largest feasible global batch: \([0-9,]*\) .*/\1/p' "$tmp/fp32.txt" | tr -d ,)
status_at() { "$paradise" predict --model cosmoflow --dataset cosmoflow --strategy data --gpus 8 --batch "$1" --format json "${train[@]}" \
  | $py -c 'import json, sys; print(json.load(sys.stdin)["status"])'; }
[ -n "$limit" ] && [ "$(status_at "$limit")" = ok ] && [ "$(status_at $((limit + 8)))" = out_of_memory ] && [ "$limit" -gt "$limit32" ] \
  && ok || bad "memlimit ${train[*]}: $limit (fp32 $limit32) is not predict's boundary"
expect_rc 2 "memlimit paradl --optimizer adam" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --gpus 8 --batch 8 --variant paradl --optimizer adam
grep -qF -- "--optimizer 'adam': a policy of the paradise variant" "$tmp/err" && ok || bad "memlimit paradl adam: $(cat "$tmp/err")"
expect_rc 2 "memlimit paradl --precision mixed" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --gpus 8 --batch 8 --variant paradl --precision mixed
grep -qF -- "--precision 'mixed': the paradl variant models fp32 only" "$tmp/err" && ok || bad "memlimit paradl mixed: $(cat "$tmp/err")"
# predict's json and csv say the training options (csv: empty policies under paradl)
"$paradise" predict --model resnet50 --dataset imagenet --gpus 8 --batch 256 --format json --precision tf32 --zero 1 \
  | $py -c '
import json, sys
p = json.load(sys.stdin)
assert (p["precision"], p["optimizer"], p["zero_stage"], p["recompute"]) == ("tf32", "momentum", 1, False), p' \
  && ok || bad "predict json training keys"
"$paradise" predict --model resnet50 --dataset imagenet --gpus 8 --batch 256 --format csv --variant paradl \
  | $py -c '
import csv, sys
header, row = list(csv.reader(sys.stdin))
r = dict(zip(header, row))
assert (r["precision"], r["optimizer"], r["zero_stage"], r["recompute"]) == ("fp32", "", "", ""), r' \
  && ok || bad "predict csv training columns"
# the recomputation plan: the table's recompute line and JSON's recompute_checkpoints name
# the same layers, real ones, in order (ResNet-18: segments start after the stem's in-place
# ReLU, never on it); no plan without --recompute or for a pipeline (its stages are the
# segments)
"$paradise" predict --model resnet18 --dataset imagenet --gpus 8 --batch 256 --recompute >"$tmp/out"
"$paradise" predict --model resnet18 --dataset imagenet --gpus 8 --batch 256 --recompute --format json >"$tmp/rc.json"
"$paradise" predict --model resnet18 --dataset imagenet --gpus 8 --batch 256 --format json >"$tmp/norc.json"
"$paradise" predict --model resnet18 --dataset imagenet --strategy pipeline --gpus 4 --batch 256 --recompute --format json >"$tmp/pipe.json"
"$paradise" models --show resnet18 --format json >"$tmp/layers.json"
$py - "$tmp/out" "$tmp/rc.json" "$tmp/norc.json" "$tmp/pipe.json" "$tmp/layers.json" <<'PY' && ok || bad "predict's recompute plan: $(grep recompute "$tmp/out")"
import json, re, sys
table, rc, norc, pipe, layers = sys.argv[1:]
line = [l for l in open(table) if l.startswith("  recompute ")]
cuts = json.load(open(rc))["recompute_checkpoints"]
m = re.match(r"  recompute (\d+) segments, checkpoints before (.*) \(each segment", line[0])
assert m and int(m.group(1)) == len(cuts) + 1 and m.group(2).split(", ") == cuts, (line, cuts)
table = json.load(open(layers))["layers"]
names = [l["name"] for l in table]
at = [names.index(c) for c in cuts]
assert at == sorted(at) and at[0] > 0 and "relu" not in cuts, cuts
assert all(table[i]["op"] != "activation" for i in at), cuts
assert "recompute_checkpoints" not in json.load(open(norc))
assert "recompute_checkpoints" not in json.load(open(pipe))
PY
# CosmoFlow's plan does not lower its step's peak (conv1's ReLU backward either way): nothing
# is recomputed, said so, and the epoch costs what it does without --recompute
"$paradise" predict --model cosmoflow --dataset cosmoflow --gpus 8 --batch 8 --recompute >"$tmp/out"
"$paradise" predict --model cosmoflow --dataset cosmoflow --gpus 8 --batch 8 --recompute --format json >"$tmp/rc.json"
"$paradise" predict --model cosmoflow --dataset cosmoflow --gpus 8 --batch 8 --format json >"$tmp/norc.json"
grep -qx "  recompute nothing: no segment plan lowers this step's peak, so no forward pass is run again" "$tmp/out" &&
  $py - "$tmp/rc.json" "$tmp/norc.json" <<'PY' && ok || bad "cosmoflow --recompute: $(grep recompute "$tmp/out")"
import json, sys
rc, norc = (json.load(open(p)) for p in sys.argv[1:])
assert rc["recompute_lowers_peak"] is False and "recompute_checkpoints" not in rc, rc
assert rc["epoch_time_s"] == norc["epoch_time_s"] and rc["memory_per_gpu_bytes"] == norc["memory_per_gpu_bytes"]
assert "recompute_lowers_peak" not in norc
PY
# a time per sample past the bound is echoed short (it printed 309 digits)
expect_rc 2 "time per sample 1e308" -- "$paradise" predict --model resnet50 --dataset imagenet --gpus 8 --batch 64 --time-per-sample 1e308
grep -qF "time per sample '1e+308': must be a number of seconds > 0 and at most 10^6" "$tmp/err" && ok || bad "time per sample 1e308: $(cut -c1-200 "$tmp/err")"
# negative group sizes and micro-batch counts, and a time per sample that is not a number
for bad_arg in "--p2 -4" "--segments -1" "--time-per-sample nan" "--time-per-sample inf"; do
  # shellcheck disable=SC2086 # the option and its value are two words
  expect_rc 2 "predict $bad_arg" -- "$paradise" predict --model resnet50 --dataset imagenet --strategy data+filter --gpus 8 --batch 64 $bad_arg
  grep -Eq "error: ((--p2 '-4'|--segments '-1'): expected a whole number >= 1 or auto|time per sample '(nan|inf)': must be)" "$tmp/err" && ok || bad "$bad_arg: $(cat "$tmp/err")"
done
expect_rc 2 "too small input" -- "$paradise" models --show cosmoflow --input 4x16x16x16
grep -q "too small" "$tmp/err" && ok || bad "too small message"
expect_rc 2 "unknown command" -- "$paradise" frobnicate
expect_rc 0 "help" -- "$paradise" predict --help
printf 'model m\ninput 3x8x8\nc conv out=4 k=x\n' > $tmp/cli_bad.model
expect_rc 2 "malformed model file" -- "$paradise" models --show $tmp/cli_bad.model
grep -q "cli_bad.model:3: k 'x'" "$tmp/err" && ok || bad "model file error names file and line"

# systems and CSV output
expect_rc 0 "systems" -- "$paradise" systems
grep -q "abci-plx15" "$tmp/out" && grep -q "dgx-h100" "$tmp/out" && ok || bad "systems lists the built-ins"
# systems --show: one system in full. Values from the systems' sources (src/system/catalog.cpp,
# docs/cost-model.md §abci): ABCI's V100 15.7 TFLOP/s fp32, 16 GB, no margin, 2 EDR adapters for 4
# GPUs, the 1:3 over-subscribed top level; DGX A100 80 GB less 5% = 76 GB usable, NVSwitch
# 300 GB/s over 8 GPUs
expect_rc 0 "systems --show abci" -- "$paradise" systems --show abci
grep -q "^memory   16.00 GB per GPU, 0 B reserved by the driver, margin 0.000: 16.00 GB usable$" "$tmp/out" && grep -q "^nodes    4 GPUs, 2 network adapters" "$tmp/out" \
  && grep -Eq "^machine +4,352 +12.500 +40.980 +3.00" "$tmp/out" && grep -q "^host-staged level" "$tmp/out" && ok || bad "systems --show abci: $(cat "$tmp/out")"
expect_rc 0 "systems --show json" -- "$paradise" systems --show dgx-a100 --format json
$py - "$tmp/out" <<'PY' && ok || bad "systems --show dgx-a100 json: $(cat "$tmp/out")"
import json, sys
s = json.load(open(sys.argv[1]))
# 80 GiB of HBM; usable: cudaGetDeviceProperties' totalGlobalMem of an A100-SXM4-80GB
# (85,100,068,864 B, tests/data/measured/kernel-overheads.csv) less the 5% margin
assert s["gpu"]["memory_bytes"] == 80 * 2**30 and s["memory_margin"] == 0.05, s
assert abs(s["usable_memory_bytes"] - 85100068864 * 0.95) < 1, s
assert s["gpus_per_node"] == 8 and s["levels"][0]["span_gpus"] == 8 and s["levels"][0]["bandwidth_Bps"] == 300e9, s
assert s["host_staged_levels"] == []
PY
# implementations: the built-in profiles (src/implementation/catalog.cpp, docs/implementations.md):
# ChainerMNX's per-layer exchanges by CUDA-aware MPI with 30 us per call and its gradients by
# NCCL, not overlapped; the fitted times per step (docs/gpu-profiles.md: PyTorch 14.7 ms,
# MXNet 0, at the grid's floor); --show writes the file that predicts what the name does, and
# reads a file back to the same file
expect_rc 0 "implementations" -- "$paradise" implementations
grep -Eq "^chainermnx +14\.7 +gpu-direct +mpi-cuda-aware \+30 us +mpi-cuda-aware" "$tmp/out" \
  && grep -Eq "^pytorch-nccl +14\.7 +gpu-direct, overlapped" "$tmp/out" \
  && grep -Eq "^mxnet-horovod +0\.0 +gpu-direct, overlapped" "$tmp/out" \
  && grep -Eq "^tensorflow-horovod +[0-9]+\.[0-9] +gpu-direct, overlapped" "$tmp/out" && ok \
  || bad "implementations lists the built-ins: $(cat "$tmp/out")"
expect_rc 0 "implementations --show" -- "$paradise" implementations --show chainermnx
cp "$tmp/out" "$tmp/cmx.impl"
expect_rc 0 "implementations --show FILE" -- "$paradise" implementations --show "$tmp/cmx.impl"
cmp -s "$tmp/out" "$tmp/cmx.impl" && ok || bad "implementations --show FILE: not the file it read"
for impl in chainermnx "$tmp/cmx.impl"; do
  "$paradise" predict --model resnet50 --dataset imagenet --system abci --strategy filter --gpus 8 \
    --batch 64 --implementation "$impl" --format json | sed 's/"implementation":"[^"]*",//' > "$tmp/impl-$(basename "$impl").json"
done
grep -q '"status":"ok"' "$tmp/impl-chainermnx.json" && cmp -s "$tmp/impl-chainermnx.json" "$tmp/impl-cmx.impl.json" \
  && ok || bad "implementations --show: the file predicts as the name"
# a loading rank at 320 samples/s: data+spatial's 8 groups on 32 GPUs load 2,048 / 8 = 256
# samples each, 0.8 s, beyond the step (docs/implementations.md §loader)
sed 's/^loader_samples_per_s = 0$/loader_samples_per_s = 320/' "$tmp/cmx.impl" > "$tmp/loader.impl"
expect_rc 0 "predict with a loading rank's rate" -- "$paradise" predict --model resnet50 \
  --dataset imagenet --system abci --strategy data+spatial --gpus 32 --batch 2048 --p2 4 \
  --implementation "$tmp/loader.impl"
grep -q "^status: ok; limited by input" "$tmp/out" \
  && grep -q "^input: a loading rank's share takes 800.000 ms per iteration (node 0.000 ms, loading rank 800.000 ms at 320 samples/s)$" "$tmp/out" \
  && grep -q "^iteration: 800.000 ms$" "$tmp/out" && ok \
  || bad "predict with a loading rank's rate: $(cat "$tmp/out")"
# with --p2 auto the loading rank's share is the chosen group's: the input-bound iteration
# takes what the line says that rank takes
expect_rc 0 "predict with a loading rank's rate, p2 auto" -- "$paradise" predict --model resnet50 \
  --dataset imagenet --system abci --strategy data+spatial --gpus 32 --batch 2048 --p2 auto \
  --implementation "$tmp/loader.impl"
rank_ms=$(sed -n "s/^input: .*loading rank \([0-9.]*\) ms at 320 samples\/s)$/\1/p" "$tmp/out")
iter_ms=$(sed -n 's/^iteration: \([0-9.]*\) ms$/\1/p' "$tmp/out")
[ -n "$rank_ms" ] && [ "$rank_ms" = "$iter_ms" ] && ok \
  || bad "predict with a loading rank's rate, p2 auto: rank '$rank_ms' ms, iteration '$iter_ms' ms: $(cat "$tmp/out")"
expect_rc 2 "implementations --show unknown" -- "$paradise" implementations --show nope
grep -q "^paradise implementations: error: --show: unknown implementation 'nope'; built-in: pytorch-nccl," "$tmp/err" \
  && ok || bad "implementations --show unknown: $(cat "$tmp/err")"
expect_rc 2 "implementations --show a directory" -- "$paradise" implementations --show "$tmp"
grep -q "^paradise implementations: error: --show: $tmp: is a directory, not an implementation file$" "$tmp/err" \
  && ok || bad "implementations --show a directory: $(cat "$tmp/err")"
expect_rc 0 "systems json" -- "$paradise" systems --format json
$py - "$tmp/out" <<'PY' && ok || bad "systems json"
import json, sys
s = {x["name"]: x for x in json.load(open(sys.argv[1]))}
assert {"abci", "abci-plx15", "dgx1-v100", "dgx-a100", "dgx-h100", "dgx-h200"} <= set(s), s.keys()
a = s["abci"]
assert a["gpu"]["peak_fp32_flops"] == 15.7e12 and a["nics_per_node"] == 2 and a["levels"][-1]["oversubscription"] == 3
PY
# --format ini writes the system file that reads back as the same system, for every built-in
# (the JSON byte for byte), and predicts the same
for name in $(sed -n 's/.*"name":"\([a-z0-9-]*\)","description".*/\1/p' <("$paradise" systems --format json | tr '{' '\n')); do
  "$paradise" systems --show "$name" --format ini >"$tmp/$name.system" || bad "systems --show $name --format ini"
  cmp -s <("$paradise" systems --show "$name" --format json) <("$paradise" systems --show "$tmp/$name.system" --format json) \
    && ok || bad "$name: the written system file reads back differently"
done
grep -q "^latency_us = 3.4$" "$tmp/dgx-a100.system" && grep -q "^memory_margin = 0.05$" "$tmp/dgx-a100.system" \
  && ok || bad "ini numbers are not the shortest: $(cat "$tmp/dgx-a100.system")"
# (all but system_source, the --system as given)
cmp -s <("$paradise" predict --model resnet50 --dataset imagenet --system abci --strategy data+filter --gpus 64 --batch 2048 --format json | sed 's/"system_source":"[^"]*",//') \
  <("$paradise" predict --model resnet50 --dataset imagenet --system "$tmp/abci.system" --strategy data+filter --gpus 64 --batch 2048 --format json | sed 's/"system_source":"[^"]*",//') \
  && ok || bad "predict on the written abci system file differs"
expect_rc 2 "systems --show unknown" -- "$paradise" systems --show abcd
grep -q "error: --show: unknown system 'abcd'" "$tmp/err" && ok || bad "systems --show abcd: $(cat "$tmp/err")"
expect_rc 2 "systems --format ini alone" -- "$paradise" systems --format ini
grep -q "error: --format ini: writes one system's file; name it with --show" "$tmp/err" && ok || bad "systems --format ini: $(cat "$tmp/err")"
expect_rc 2 "systems --format xml" -- "$paradise" systems --show abci --format xml
grep -q "error: --format 'xml': expected table, json or ini" "$tmp/err" && ok || bad "systems --format xml: $(cat "$tmp/err")"
printf '[system]\nname = x\ngpus_per_node = 0\n' >"$tmp/bad.system"
expect_rc 2 "systems --show bad file" -- "$paradise" systems --show "$tmp/bad.system"
grep -q "bad.system:3: gpus_per_node '0': must be >= 1" "$tmp/err" && ok || bad "systems --show bad file: $(cat "$tmp/err")"
expect_rc 0 "predict csv" -- "$paradise" predict --model resnet50 --dataset imagenet --system dgx-a100 --gpus 8 --batch 256 --format csv
[ "$(wc -l < "$tmp/out")" -eq 2 ] && head -1 "$tmp/out" | grep -q "^strategy,gpus,batch" && ok || bad "csv: header and one row"
# part names with commas ("gradient allreduce (in the group, across groups)") are quoted: the
# row has as many fields as the header, and each part's value is the one JSON gives it
for variant in paradise paradl; do
  args=(--model resnet50 --dataset imagenet --system abci --strategy data+spatial --gpus 16 --batch 32 --variant $variant)
  "$paradise" predict "${args[@]}" --format csv >"$tmp/p.csv" && "$paradise" predict "${args[@]}" --format json >"$tmp/p.json" \
    && $py - "$tmp/p.csv" "$tmp/p.json" <<'PY' && ok || bad "$variant csv against json"
import csv, json, sys
header, row = list(csv.reader(open(sys.argv[1])))
j = json.load(open(sys.argv[2]))
assert len(header) == len(row), (len(header), len(row))
r = dict(zip(header, row))
assert any("," in h for h in header), header  # the quoted names are there
for name, part in j["communication"].items():
    assert float(r["comm:" + name]) == part["epoch_s"], name
for name, b in j["memory"].items():
    assert float(r["mem:" + name]) == b, name
for k in ("epoch_time_s", "epoch_overlapped_s", "epoch_step_overhead_s", "memory_per_gpu_bytes"):
    assert float(r[k]) == j[k], k
assert r["input"] == j["input"] == "3x224x224", (r["input"], j["input"])  # a sample, C x H x W
PY
done
expect_rc 2 "unknown spatial split" -- "$paradise" predict --model cosmoflow --dataset cosmoflow --strategy spatial --gpus 8 --batch 8 --spatial-split diagonal
expect_rc 2 "unknown allreduce" -- "$paradise" predict --model resnet50 --dataset imagenet --gpus 8 --batch 8 --allreduce magic
expect_rc 2 "unknown system" -- "$paradise" predict --model resnet50 --dataset imagenet --system summit --gpus 8 --batch 8

# sweep: dry run, a run with its summary, and bad sweep files
sweeps=$(dirname "$data")/../sweeps
expect_rc 0 "sweep dry run" -- "$paradise" sweep "$sweeps/quickstart.ini" --dry-run
grep -q "^points: 7,392" "$tmp/out" && ok || bad "dry run counts 4*2*2*6*11*7 = 7,392 points"
# storage = maps: status (1 byte), memory per GPU (8 bytes) and, as its spatial strategies'
# split is searched (auto, the default), the split used (1 byte) a point: 7,392 x 10 = 73,920 B
grep -q "^storage: maps, 73.92 kB of maps before compression" "$tmp/out" && ok || bad "dry run's map size: $(cat "$tmp/out")"
grep -qx "cost model: paradise" "$tmp/out" && ok || bad "dry run names the quickstart's model, the default: $(cat "$tmp/out")"
# the documented example sweep file (docs/sweep-files.md, its first ini block) is valid
awk '/^A sweep file is an INI file/ {f = 1} f && /^```ini/ {p = 1; next} p && /^```/ {exit} p' \
  "$sweeps/../docs/sweep-files.md" > "$tmp/readme.ini"
expect_rc 0 "README's sweep file" -- "$paradise" sweep "$tmp/readme.ini" --dry-run
grep -q "^points: " "$tmp/out" && grep -q "^storage: summary (reduced over batch)" "$tmp/out" && ok || bad "README's sweep file: $(cat "$tmp/out")"
expect_rc 0 "sweep run" -- "$paradise" sweep "$sweeps/quickstart.ini" --quiet
grep -q "fastest feasible configuration per model" "$tmp/out" && grep -q "% feasible" "$tmp/out" && ok || bad "sweep summary"
# same sweep => same answer on 1 and 3 MPI ranks (only the timing line may differ)
mpiexec -n 1 "$paradise" sweep "$sweeps/quickstart.ini" --quiet > $tmp/cli_np1 2>&1
mpiexec -n 3 "$paradise" sweep "$sweeps/quickstart.ini" --quiet > $tmp/cli_np3 2>&1
if diff <(tail -n +2 $tmp/cli_np1) <(tail -n +2 $tmp/cli_np3) >/dev/null && grep -q "on 3 ranks" $tmp/cli_np3; then ok; else bad "sweep on 1 and 3 ranks differ: $(cat $tmp/cli_np3)"; fi
rm -f $tmp/cli_np1 $tmp/cli_np3
# HDF5 output: same data on 1 and 3 ranks, attributes but for the command line and
# creation time; xarray reads the axes as coordinates; values equal predict's
h5dir=$(mktemp -d)
mpiexec -n 1 "$paradise" sweep "$sweeps/quickstart.ini" --quiet -o "$h5dir/one.h5" >/dev/null 2>&1 && ok || bad "sweep -o on 1 rank"
mpiexec -n 3 "$paradise" sweep "$sweeps/quickstart.ini" --quiet -o "$h5dir/three.h5" >/dev/null 2>&1 && ok || bad "sweep -o on 3 ranks"
[ ! -e "$h5dir/one.h5.tmp" ] && [ ! -e "$h5dir/three.h5.tmp" ] && ok || bad "temporary files left behind"
diffs=$(h5diff "$h5dir/one.h5" "$h5dir/three.h5" | grep '^attribute:' | grep -v -e '<command_line of' -e '<creation_time of')
[ -z "$diffs" ] && [ "$(h5diff "$h5dir/one.h5" "$h5dir/three.h5" | grep -c '^dataset:')" -eq 0 ] && ok || bad "1-rank and 3-rank files differ: $diffs"
# byte for byte: with SOURCE_DATE_EPOCH fixing creation_time and the same command line, the
# file is the same on 1 and 3 ranks (rank 0 rewrites it in a canonical layout at commit;
# before, 1 byte differed for a one-chunk grid, the ranks attribute, and the layout of a
# multi-chunk grid differed); a grid of several chunks (270,336 points) gives the same file
# on 1 and 2 ranks run a second apart (no object modification times)
for n in 1 3; do
  mkdir -p "$h5dir/np$n"
  (cd "$h5dir/np$n" && SOURCE_DATE_EPOCH=1700000000 mpiexec -n $n "$paradise" sweep "$sweeps/quickstart.ini" --quiet -o q.h5 >/dev/null 2>&1)
done
cmp -s "$h5dir/np1/q.h5" "$h5dir/np3/q.h5" && ok || bad "1-rank and 3-rank files, byte for byte: $(cmp -l "$h5dir/np1/q.h5" "$h5dir/np3/q.h5" | wc -l) bytes differ"
# something in the way of the canonical copy (OUT.h5.tmp.canonical): a directory is refused
# before any work (exit 2, named; issue 35), kept, and nothing is written; a file there, left
# by a run killed during the copy, is replaced. (sweep_io_test.sh blocks the copy at the end
# and compares the kept OUT.h5.tmp with its copy.)
mkdir -p "$h5dir/way/q.h5.tmp.canonical"
rc=0
(cd "$h5dir/way" && SOURCE_DATE_EPOCH=1700000000 mpiexec -n 2 "$paradise" sweep "$sweeps/quickstart.ini" --quiet -o q.h5 >out 2>&1) || rc=$?
[ $rc = 2 ] && grep -q "error: -o q.h5: q.h5.tmp.canonical is in the way (a directory): remove it, or write elsewhere" "$h5dir/way/out" &&
  [ "$(ls "$h5dir/way")" = "$(printf 'out\nq.h5.tmp.canonical')" ] && ok || bad "a directory in the copy's way: exit $rc, $(cat "$h5dir/way/out"; ls "$h5dir/way")"
rmdir "$h5dir/way/q.h5.tmp.canonical" && echo leftover >"$h5dir/way/q.h5.tmp.canonical"
(cd "$h5dir/way" && SOURCE_DATE_EPOCH=1700000000 mpiexec -n 2 "$paradise" sweep "$sweeps/quickstart.ini" --quiet -o q.h5 >out 2>&1) &&
  cmp -s "$h5dir/way/q.h5" "$h5dir/np1/q.h5" && [ ! -e "$h5dir/way/q.h5.tmp.canonical" ] && ok || bad "a leftover copy: $(cat "$h5dir/way/out")"
# an output name that fits the directory's limit (255 bytes) but not with .tmp.canonical:
# refused before the sweep, not after it
long=$(printf 'x%.0s' $(seq 240)).h5
rc=0
(cd "$h5dir/way" && mpiexec -n 2 "$paradise" sweep "$sweeps/quickstart.ini" --quiet -o "$long" >out 2>&1) || rc=$?
[ $rc = 2 ] && grep -q "cannot write the file: its name is too long for its temporary copies $long.tmp.canonical (at most 255 bytes in .)" "$h5dir/way/out" &&
  [ -z "$(ls "$h5dir/way" | grep '^xxx')" ] && ok || bad "a name too long for the copy: exit $rc, $(cat "$h5dir/way/out")"
# CF-1.8 as declared: flag_values beside flag_meanings, units on the counts, and the sweep
# file's text (an em dash in quickstart.ini) declared UTF-8, so that it decodes as such
$py - "$h5dir/np1/q.h5" <<'PY' && ok || bad "CF attributes"
import sys, h5py
f = h5py.File(sys.argv[1])
assert list(f["status"].attrs["flag_values"]) == [0, 1, 2], f["status"].attrs["flag_values"]
assert f["status"].attrs["flag_values"].dtype == f["status"].dtype
assert f["status"].attrs["flag_meanings"] == b"ok out_of_memory invalid"
assert f["gpus"].attrs["units"] == b"1" and f["batch"].attrs["units"] == b"1"
# and in the groups: the Pareto columns, the memory limits' axes and arrays
assert f["pareto/gpus"].attrs["units"] == b"1" and f["pareto/epoch_time_s"].attrs["units"] == b"s"
assert "units" not in f["pareto/model"].attrs
assert f["memlimit/gpus"].attrs["units"] == b"1" and f["memlimit/largest_batch"].attrs["units"] == b"1"
# memory in bytes (the CF/UDUNITS unit "byte"), as its name says
assert f["memory_per_gpu_bytes"].attrs["units"] == b"byte"
assert f.attrs.get_id("sweep_file").get_type().get_cset() == h5py.h5t.CSET_UTF8
assert "\u2014" in f.attrs["sweep_file"].decode("utf-8")
PY
# the default precision (issue 36 point 5): PyTorch's on each GPU, TF32 on the A100 and FP32
# on ABCI's V100 (no TF32 units), named with where it came from; --precision fp32 stays strict
printf '[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = abci, dgx-a100\nstrategy = data\ngpus = 8\nbatch = 256\n[output]\nstorage = full\n' >"$h5dir/default.ini"
"$paradise" sweep "$h5dir/default.ini" --quiet -o "$h5dir/default.h5" >/dev/null 2>&1 &&
  "$paradise" predict --model resnet50 --dataset imagenet --system dgx-a100 --gpus 8 --batch 256 --format json >"$tmp/tf32.json" &&
  "$paradise" predict --model resnet50 --dataset imagenet --system dgx-a100 --gpus 8 --batch 256 --format json --precision fp32 >"$tmp/fp32.json" &&
  $py - "$h5dir/default.h5" "$tmp/tf32.json" "$tmp/fp32.json" <<'PY' && ok || bad "the default precision"
import json, sys, h5py
f = h5py.File(sys.argv[1])
given, strict = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
assert f.attrs["precision"] == b"fp32 on abci, tf32 on dgx-a100", f.attrs["precision"]
assert f.attrs["precision_source"] == b"default"
assert (given["precision"], given["precision_default"]) == ("tf32", True), given
assert (strict["precision"], strict["precision_default"]) == ("fp32", False), strict
a100 = f["epoch_time_s"][0, 0, 1, 0, 0, 0]  # model, dataset, system (dgx-a100), strategy, gpus, batch
assert a100 == given["epoch_time_s"] < strict["epoch_time_s"], (a100, given["epoch_time_s"])
PY
# the implementation (issue 37): the default named in the attributes; an axis of profiles
# whose points equal predict --implementation of each
printf '[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = abci\nstrategy = filter\ngpus = 32\nbatch = 256\nprecision = fp32\nimplementation = pytorch-nccl, chainermnx\n[output]\nstorage = full\n' >"$h5dir/impl.ini"
"$paradise" sweep "$h5dir/impl.ini" --quiet -o "$h5dir/impl.h5" >/dev/null 2>&1 &&
  "$paradise" predict --model resnet50 --dataset imagenet --system abci --strategy filter --gpus 32 --batch 256 --precision fp32 --format json --implementation chainermnx >"$tmp/cx.json" &&
  $py - "$h5dir/default.h5" "$h5dir/impl.h5" "$tmp/cx.json" <<'PY' && ok || bad "the implementation attribute and axis"
import json, sys, h5py
default, swept, cx = h5py.File(sys.argv[1]), h5py.File(sys.argv[2]), json.load(open(sys.argv[3]))
assert default.attrs["implementation"] == b"pytorch-nccl", default.attrs["implementation"]
assert "implementation" not in swept.attrs
assert list(swept["implementation"][:]) == [b"pytorch-nccl", b"chainermnx"]
# model, dataset, system, strategy, implementation, gpus, batch
assert swept["epoch_time_s"][0, 0, 0, 0, 1, 0, 0] == cx["epoch_time_s"], cx["epoch_time_s"]
assert cx["implementation"] == "chainermnx"
PY
# DASO trains another algorithm than synchronous SGD (Coquelin et al. 2021): flagged in
# recommend's table and JSON and in predict's header (issue 39 point 4)
expect_rc 0 "recommend with daso" -- "$paradise" recommend --model resnet50 --dataset imagenet --system dgx-a100 --max-gpus 64 --batch 2048 --strategies data,daso
grep -qE "^ +[0-9]+  daso \*" "$tmp/out" && grep -q "^\* changes the training algorithm: DASO" "$tmp/out" && ! grep -qE "data \*" "$tmp/out" && ok || bad "daso flagged in recommend: $(cat "$tmp/out")"
"$paradise" recommend --model resnet50 --dataset imagenet --system dgx-a100 --max-gpus 64 --batch 2048 --strategies data,daso --format json >"$tmp/daso.json" &&
  $py - "$tmp/daso.json" <<'PY' && ok || bad "daso flagged in recommend's JSON"
import json, sys
r = json.load(open(sys.argv[1]))["ranked"]
assert {x["strategy"]: x["changes_training_algorithm"] for x in r} == {"data": False, "daso": True}, r
PY
"$paradise" predict --model resnet50 --dataset imagenet --system dgx-a100 --strategy daso --gpus 64 --batch 2048 | grep -q "^  strategy  daso on 64 GPUs.*changes the training algorithm" && ok || bad "daso flagged in predict"
# an evaluation pass per epoch (issue 36 point 1), asked for: predict's part equals the
# sweep's epoch time less training's; refused under the paradl variant and below 0
printf '[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = abci\nstrategy = data\ngpus = 32\nbatch = 256\neval_samples = 50000\n[output]\nstorage = full\n' >"$h5dir/eval.ini"
"$paradise" sweep "$h5dir/eval.ini" --quiet -o "$h5dir/eval.h5" >/dev/null 2>&1 &&
  "$paradise" predict --model resnet50 --dataset imagenet --system abci --gpus 32 --batch 256 --eval-samples 50000 --format json >"$tmp/eval.json" &&
  "$paradise" predict --model resnet50 --dataset imagenet --system abci --gpus 32 --batch 256 --format json >"$tmp/noeval.json" &&
  $py - "$h5dir/eval.h5" "$tmp/eval.json" "$tmp/noeval.json" <<'PY' && ok || bad "the evaluation pass"
import json, sys, h5py
f = h5py.File(sys.argv[1])
e, n = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
assert f.attrs["eval_samples"] == 50000
assert f["epoch_time_s"][()].item() == e["epoch_time_s"]
assert n["epoch_eval_s"] == 0 < e["epoch_eval_s"]
assert abs(e["epoch_time_s"] - n["epoch_time_s"] - e["epoch_eval_s"]) <= 1e-9 * e["epoch_time_s"]
PY
expect_rc 2 "--eval-samples under paradl" -- "$paradise" predict --model resnet50 --dataset imagenet --variant paradl --gpus 8 --batch 64 --eval-samples 5
grep -qF -- "--eval-samples '5': a policy of the paradise variant" "$tmp/err" && ok || bad "--eval-samples under paradl: $(cat "$tmp/err")"
expect_rc 2 "--eval-samples -1" -- "$paradise" predict --model resnet50 --dataset imagenet --gpus 8 --batch 64 --eval-samples -1
grep -qF -- "--eval-samples '-1': must be >= 0" "$tmp/err" && ok || bad "--eval-samples -1: $(cat "$tmp/err")"
sed 's/^eval_samples = 50000$/eval_samples = 1.5/' "$h5dir/eval.ini" >"$h5dir/badeval.ini"
expect_rc 2 "eval_samples 1.5" -- "$paradise" sweep "$h5dir/badeval.ini" --dry-run
grep -qF "badeval.ini:8: eval_samples '1.5': must be a whole number of samples >= 0" "$tmp/err" && ok || bad "eval_samples 1.5: $(cat "$tmp/err")"
# the resolution axis's samples per epoch (issue 39 point 6): stated in the dry run, written
# as resolution_samples, and with voxels CosmoFlow's 524,288 samples of 128^3 are 65,536 of
# 256^3 (predict on that dataset, given by hand, gives the same epoch); an unknown rule is
# refused at its line
printf '[sweep]\nmodel = cosmoflow\ndataset = cosmoflow\nresolution = 128, 256\nsystem = dgx-a100\nstrategy = data\ngpus = 64\nbatch = 64\nresolution_samples = voxels\n[output]\nstorage = full\n' >"$h5dir/voxels.ini"
"$paradise" sweep "$h5dir/voxels.ini" --dry-run >"$tmp/out" 2>&1 &&
  grep -qx "samples per epoch at each side: the dataset's voxels per epoch (resolution_samples = voxels)" "$tmp/out" && ok || bad "voxels dry run: $(cat "$tmp/out")"
"$paradise" sweep "$h5dir/voxels.ini" --quiet -o "$h5dir/voxels.h5" >/dev/null 2>&1 &&
  "$paradise" predict --model cosmoflow --dataset cosmoflow:65536:4x256x256x256 --system dgx-a100 --gpus 64 --batch 64 --format json >"$tmp/v256.json" &&
  $py - "$h5dir/voxels.h5" "$tmp/v256.json" <<'PY' && ok || bad "resolution_samples = voxels"
import json, sys, h5py
f = h5py.File(sys.argv[1])
assert f.attrs["resolution_samples"] == b"voxels"
assert f["epoch_time_s"][0, 0, 1, 0, 0, 0, 0] == json.load(open(sys.argv[2]))["epoch_time_s"]
PY
# predict's --resolution-samples is the same rule: its 256^3 epoch is the sweep's, in 65,536 / 64
# = 1,024 iterations
"$paradise" predict --model cosmoflow --dataset cosmoflow --resolution 256 --resolution-samples voxels --system dgx-a100 --gpus 64 --batch 64 --format json >"$tmp/pv.json" &&
  $py - "$h5dir/voxels.h5" "$tmp/pv.json" <<'PY' && ok || bad "predict --resolution-samples voxels"
import json, sys, h5py
p = json.load(open(sys.argv[2]))
assert p["iterations_per_epoch"] == 1024, p["iterations_per_epoch"]
assert h5py.File(sys.argv[1])["epoch_time_s"][0, 0, 1, 0, 0, 0, 0] == p["epoch_time_s"]
PY
expect_rc 2 "--resolution-samples without --resolution" -- "$paradise" predict --model cosmoflow --dataset cosmoflow --resolution-samples voxels --gpus 8 --batch 8
grep -qF -- "--resolution-samples: re-sizes --resolution, which is not given" "$tmp/err" && ok || bad "--resolution-samples alone: $(cat "$tmp/err")"
expect_rc 2 "--resolution-samples px" -- "$paradise" recommend --model cosmoflow --dataset cosmoflow --resolution 256 --resolution-samples px --max-gpus 8 --batch 8
grep -qF -- "--resolution-samples 'px': expected fixed or voxels" "$tmp/err" && ok || bad "--resolution-samples px: $(cat "$tmp/err")"
sed 's/^resolution_samples = voxels$/resolution_samples = pixels/' "$h5dir/voxels.ini" >"$h5dir/badvox.ini"
expect_rc 2 "resolution_samples = pixels" -- "$paradise" sweep "$h5dir/badvox.ini" --dry-run
grep -qF "badvox.ini:9: resolution_samples 'pixels': expected fixed" "$tmp/err" && ok || bad "resolution_samples pixels: $(cat "$tmp/err")"
# the network axes' units: Gbit/s and us, on the axes and the Pareto columns; latencies are
# real numbers (sub-microsecond ones too), float64 coordinates in every group
printf '[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = abci\nstrategy = data\ngpus = 8, 64\nbatch = 256\nnetwork_bandwidth_gbps = 100, 400\nnetwork_latency_us = 0.5, 5\n' >"$h5dir/net.ini"
"$paradise" sweep "$h5dir/net.ini" --quiet -o "$h5dir/net.h5" >/dev/null 2>&1 && $py - "$h5dir/net.h5" <<'PY' && ok || bad "network axes' units"
import sys, h5py
f = h5py.File(sys.argv[1])
for where in ("", "pareto/"):
    assert f[where + "network_bandwidth_gbps"].attrs["units"] == b"Gbit/s"
    assert f[where + "network_latency_us"].attrs["units"] == b"us"
for where in ("", "pareto/", "memlimit/"):
    assert f[where + "network_latency_us"].dtype == "float64", where
assert list(f["network_latency_us"][:]) == [0.5, 5.0]
assert set(f["pareto/network_latency_us"][:]) <= {0.5, 5.0}
PY
"$paradise" sweep "$h5dir/net.ini" --dry-run >"$tmp/out" 2>&1 && grep -qx "  network_latency_us (2): 0.5, 5" "$tmp/out" && ok || bad "dry run: real latencies: $(cat "$tmp/out")"
sweep_refuses_net() {  # the value is said as written
  printf "[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\ngpus = 8\nbatch = 64\nnetwork_latency_us = $1\n" > "$h5dir/bad.ini"
  expect_rc 2 "latency $1" -- "$paradise" sweep "$h5dir/bad.ini" --dry-run
  grep -qF -- "bad.ini:7: network_latency_us '$2': $3" "$tmp/err" && ok || bad "latency '$1': $(cat "$tmp/err")"
}
sweep_refuses_net "0.5, 0" "0" "every value must be > 0"
sweep_refuses_net "1, 1.0" "1, 1.0" "lists 1 more than once"
sweep_refuses_net "2us" "2us" "expected a finite number"
# a SOURCE_DATE_EPOCH past the year 9999 (or not a number) is ignored: the clock's time
(cd "$h5dir/np1" && SOURCE_DATE_EPOCH=99999999999999999 "$paradise" sweep "$sweeps/quickstart.ini" --quiet -o far.h5 >/dev/null 2>&1) \
  && h5dump -a creation_time "$h5dir/np1/far.h5" | grep -q "\"20[0-9][0-9]-" && ok || bad "SOURCE_DATE_EPOCH overflow"
sed 's/^batch = .*/batch = 32..8192 +32/' "$sweeps/quickstart.ini" >"$h5dir/chunks.ini"
for n in 1 2; do
  [ $n = 2 ] && sleep 1  # a second apart: object modification times would differ
  mkdir -p "$h5dir/c$n"
  (cd "$h5dir/c$n" && SOURCE_DATE_EPOCH=1700000000 mpiexec -n $n "$paradise" sweep ../chunks.ini --quiet -o c.h5 >/dev/null 2>&1)
done
$py -c 'import sys, h5py, math; s = h5py.File(sys.argv[1])["status"]; assert s.size > 2 * math.prod(s.chunks), (s.shape, s.chunks)' \
  "$h5dir/c1/c.h5" && ok || bad "chunks.ini: not several chunks"
cmp -s "$h5dir/c1/c.h5" "$h5dir/c2/c.h5" && ok || bad "the same 270,336-point sweep on 1 and 2 ranks: $(cmp -l "$h5dir/c1/c.h5" "$h5dir/c2/c.h5" | wc -l) bytes differ"
"$paradise" predict --model resnet50 --dataset imagenet --system dgx-a100 --strategy data --gpus 64 --batch 2048 --format json > "$h5dir/p.json"
$py - "$h5dir/three.h5" "$h5dir/p.json" <<'PY' && ok || bad "xarray reading of the sweep file"
import json, sys
import xarray as xr
ds = xr.open_dataset(sys.argv[1], engine="h5netcdf")
assert list(ds.status.dims) == ["model", "dataset", "system", "strategy", "gpus", "batch"], ds.status.dims
assert list(ds.model.values) == ["resnet50", "vgg16", "alexnet", "cosmoflow"] and list(ds.gpus.values[:3]) == [1, 2, 4]
p = json.load(open(sys.argv[2]))
pt = dict(model="resnet50", dataset="imagenet", system="dgx-a100", strategy="data", gpus=64, batch=2048)
assert int(ds.status.sel(**pt)) == 0 and float(ds.memory_per_gpu_bytes.sel(**pt)) == p["memory_per_gpu_bytes"]
assert "ranks" not in ds.attrs and "[sweep]" in ds.attrs["sweep_file"]  # how it ran: not in the file
assert ds.attrs["variant"] == "paradise"  # quickstart.ini: the default model
assert ds.attrs["spatial_split"] == "auto"  # quickstart.ini: the paradise variant's default
# the pareto group: per (model, dataset, batch) (the default group's axes the grid has) no
# row dominates another in the default objectives, epoch time, GPUs and memory per GPU
# (docs/output-format.md), each row's memory is the map's at its point, and the third objective keeps
# points that time and GPUs alone would drop (the unit tests compare fronts to brute force)
pg = xr.open_dataset(sys.argv[1], engine="h5netcdf", group="pareto")
assert pg.attrs["group"] == "model, dataset, batch", pg.attrs["group"]
assert pg.memory_per_gpu_bytes.attrs["long_name"] == "third objective: memory per GPU in bytes"
pf = pg.to_dataframe()
assert len(pf) > 0
objectives = ["epoch_time_s", "gpus", "memory_per_gpu_bytes"]
two_only = 0
for key, g in pf.groupby(["model", "dataset", "batch"]):
    rows = [tuple(r) for r in g[objectives].itertuples(index=False)]
    for a in rows:
        assert not any(b != a and all(x <= y for x, y in zip(b, a)) for b in rows), (a, rows)
    two_only += sum(any(b[0] <= a[0] and b[1] <= a[1] and b[:2] != a[:2] for b in rows) for a in rows)
for _, r in pf.iterrows():
    pt = dict(model=r.model, dataset=r.dataset, system=r.system, strategy=r.strategy, gpus=r.gpus, batch=r.batch)
    assert float(ds.memory_per_gpu_bytes.sel(**pt)) == r.memory_per_gpu_bytes, pt
assert two_only > 0, "no front point that time and GPUs alone would drop"
# and every Pareto point is feasible in the status map
for _, r in pf.iterrows():
    pt = dict(model=r.model, dataset=r.dataset, system=r.system, strategy=r.strategy, gpus=r.gpus, batch=r.batch)
    assert int(ds.status.sel(**pt)) == 0, pt
PY
rm -rf "$h5dir"
bad_ini=$tmp/cli_sweep.ini
sweep_refuses() {  # sweep_refuses SWEEP_TEXT (printf format) MESSAGE (a fixed string)
  printf "$1" > $bad_ini
  expect_rc 2 "sweep refuses: $2" -- "$paradise" sweep $bad_ini --dry-run
  grep -qF -- "$2" "$tmp/err" && ok || bad "sweep refuses '$2': $(cat "$tmp/err")"
}
base='[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\ngpus = 8\nbatch = 64\n'  # 6 lines
# reduce over every axis: refused (the one value was written over the whole grid's shape,
# every other cell 0, "ok" at 0 s)
sweep_refuses '[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = abci\nstrategy = data\ngpus = 8\nbatch = 64\n[output]\nstorage = summary\nreduce = model, dataset, system, strategy, gpus, batch\n' \
  "every axis is reduced: keep at least one"
sweep_refuses '[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\ngpus = 8..4 *2\nbatch = 64\n' \
  "cli_sweep.ini:5: gpus '8..4 *2': the range ends below its start"
sweep_refuses "${base}variant = paradyse\n" "cli_sweep.ini:7: variant 'paradyse': expected paradl or paradise"
# issue 37: the implementation axis: each profile known at its line, listed once, paradise only
sweep_refuses "${base}implementation = chainermnx, horovod\n" "cli_sweep.ini:7: implementation 'horovod': unknown implementation 'horovod'"
sweep_refuses "${base}implementation = chainermnx, chainermnx\n" "cli_sweep.ini:7: implementation 'chainermnx, chainermnx': lists chainermnx more than once"
sweep_refuses "${base}variant = paradl\nimplementation = chainermnx\n" "cli_sweep.ini:8: implementation 'chainermnx': a policy of the paradise variant"
# unknown names are said at their line
sweep_refuses '[sweep]\nmodel = resnet50, resnet51\ndataset = imagenet\nstrategy = data\ngpus = 8\nbatch = 64\n' \
  "cli_sweep.ini:2: model 'resnet51': unknown model 'resnet51'"
sweep_refuses '[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = dataa\ngpus = 8\nbatch = 64\n' \
  "cli_sweep.ini:4: strategy 'dataa': expected one of serial, data,"
sweep_refuses '[sweep]\nmodel = resnet50\ndataset = foo:0:3x32x32\nstrategy = data\ngpus = 8\nbatch = 64\n' \
  "cli_sweep.ini:3: dataset samples '0': must be at least 1"
sweep_refuses "${base}system = $tmp/nope.system\n" "cli_sweep.ini:7: system '$tmp/nope.system': $tmp/nope.system: no such system file"
# 3,000 x 3,000 network values are 9 million variants of one workload (each a system of
# about 1.3 KB on ABCI with its GPU profile; resnet50's 48 KB tables shared): refused before any is built
sweep_refuses "${base}network_bandwidth_gbps = 1..3000 +1\nnetwork_latency_us = 1..3000 +1\n[memlimit]\nbatch = none\n" \
  "the sweep's 1 workload (model x dataset x resolution x system values) in 9,000,000 system variants (x network and input values) need about 12."
sweep_refuses "${base}network_bandwidth_gbps = 1..150 +1\nnetwork_latency_us = 1..150 +1\nmax_workload_bytes = 1e7\n" \
  "per rank (a model's per-layer tables each, a system per variant), more than max_workload_bytes = 10.00 MB"
# a ParaDL .net model's shapes are fixed: no resolution search (it stepped through every
# side of the range, an hour for 1..10^8) and no resolution axis (every point invalid)
sweep_refuses "[sweep]\nmodel = $data/paradl/model/ALEXNET_ImageNet.net\ndataset = imagenet-paradl\nstrategy = data\ngpus = 8\nbatch = 64\n[memlimit]\nresolution = 1..100000000\n" \
  "cli_sweep.ini:2: model '$data/paradl/model/ALEXNET_ImageNet.net': a ParaDL .net file has a fixed input shape: not with a resolution axis or [memlimit] resolution / sides"
sweep_refuses "[sweep]\nmodel = resnet50, $data/paradl/model/ALEXNET_ImageNet.net\ndataset = imagenet-paradl\nstrategy = data\ngpus = 8\nbatch = 64\nresolution = 224\n" \
  "a ParaDL .net file has a fixed input shape"
# the sweep file's text is one attribute of the output, at most 64 KiB in an HDF5 object
# header message: a longer file is refused by --dry-run too (the write failed at the end)
{ printf "${base}"; for i in $(seq 1000); do echo "# a long description, line $i ......................................................"; done; } >$bad_ini
expect_rc 2 "sweep of 70 KB" -- "$paradise" sweep $bad_ini --dry-run
grep -qF "bytes; the output keeps the sweep file's text in one HDF5 attribute, at most 65,000 bytes" "$tmp/err" && ok \
  || bad "70 KB sweep file: $(cat "$tmp/err")"
# an unknown section is called one (it was "unknown key"); max_searches counts searches
sweep_refuses "${base}[bogus]\nx = 1\n" \
  "cli_sweep.ini:8: bogus.x '1': unknown section [bogus]; expected [sweep], [output], [pareto], [memlimit], [layer_times] or [convergence]"
# [pareto] objectives: two or three, each once (docs/sweep-files.md: memory as a third objective)
sweep_refuses "${base}[pareto]\nobjectives = epoch_time, gpus, memory, gpu_hours\n" \
  "cli_sweep.ini:8: objectives 'epoch_time, gpus, memory, gpu_hours': expected two or three objectives"
sweep_refuses "${base}[pareto]\nobjectives = epoch_time, gpus, gpus\n" "cli_sweep.ini:8: objectives 'gpus': named twice"
sweep_refuses "${base}[pareto]\nobjectives = epoch_time, speed\n" \
  "cli_sweep.ini:8: objectives 'speed': expected epoch_time, iteration_time, gpus, gpu_hours, memory, time_to_train or gpu_hours_to_train"
# a value without a key is said so, at its line (it was "sweep. '5': unknown key")
sweep_refuses "${base}= 5\n" "cli_sweep.ini:7: sweep. '5': a value without a key (expected KEY = VALUE)"
# a dotted section whose first part is known ([sweep.x]) is unknown too, said at its line
sweep_refuses "${base}[sweep.x]\na = 1\n" "cli_sweep.ini:8: sweep.x.a '1': unknown section [sweep.x];"
# "[ bogus ]" is the section bogus, said at its line (Boost kept the spaces: the error had
# no line), and "[ sweep ]" is [sweep]: its dry run lists the 1 point of $base
sweep_refuses "${base}[ bogus ]\nx = 1\n" "cli_sweep.ini:8: bogus.x '1': unknown section [bogus];"
printf "${base}" | sed 's/^\[sweep\]/[ sweep ]  # spaced/' >"$tmp/spaced.ini"
expect_rc 0 "[ sweep ] dry run" -- "$paradise" sweep "$tmp/spaced.ini" --dry-run
grep -qx "points: 1" "$tmp/out" && ok || bad "[ sweep ]: $(head -c 600 "$tmp/out")"
sweep_refuses "${base}[memlimit]\nmax_searches = 2.5\n" "cli_sweep.ini:8: max_searches '2.5': must be a whole number >= 0"
# a table rank 0 cannot gather in one MPI call (16 bytes per entry, int counts), however
# large max_searches: 1,000 x 200,000 resolution limits, refused before any search
sweep_refuses '[sweep]\nmodel = cosmoflow\ndataset = cosmoflow\nsystem = abci\nstrategy = data\ngpus = 1..1000 +1\nbatch = 1..200000 +1\n[output]\nstorage = summary\n[memlimit]\nbatch = none\nresolution = 128..256\nmax_searches = 1e12\n' \
  "cli_sweep.ini: a memory-limit table has 200,000,000 entries, more than the 134,217,727 rank 0 gathers at once"
# a [layer_times] file's own errors are said at the sweep file's line (a directory was "no
# header row (an empty file?)")
sweep_refuses "[sweep]\nmodel = alexnet\ndataset = imagenet\nstrategy = data\ngpus = 1\nbatch = 48\n[layer_times]\nalexnet = $tmp/none.csv\n" \
  "cli_sweep.ini:8: layer_times.alexnet '$tmp/none.csv': $tmp/none.csv: no such file"
sweep_refuses "[sweep]\nmodel = alexnet\ndataset = imagenet\nstrategy = data\ngpus = 1\nbatch = 48\n[layer_times]\nalexnet = $tmp\n" \
  "cli_sweep.ini:8: layer_times.alexnet '$tmp': $tmp: is a directory, not a file"
sweep_refuses "model = resnet18\n${base}" "cli_sweep.ini:1: model 'resnet18': a key before any section; put it under [sweep]"
# a grid past 2^64 points: said of the sweep file (10^6 x 10^6 x 10^6 x 10^6 > 1.8e19)
sweep_refuses '[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\ngpus = 1..1000000 +1\nbatch = 1..1000000 +1\nresolution = 1..1000000 +1\nnetwork_bandwidth_gbps = 1..1000000 +1\n' \
  "error: $bad_ini: the sweep grid has more than 2^64 points (overflow at axis 'batch' of 1000000 values)"
sweep_refuses "${base}max_workload_bytes = -5\n" "cli_sweep.ini:7: max_workload_bytes '-5': must be > 0"
# [sweep] precision (an axis), optimizer, zero, recompute: bad values at their line; ParaDL's
# variant has none of them
sweep_refuses "${base}precision = fp8\n" "cli_sweep.ini:7: precision 'fp8': expected fp32, tf32 or mixed"
sweep_refuses "${base}precision = fp16, bf16\n" "cli_sweep.ini:7: precision 'fp16, bf16': 'bf16' repeats a value of the list (fp16 and bf16 are both mixed)"
sweep_refuses "${base}variant = paradl\nprecision = fp32, mixed\n" "cli_sweep.ini:8: precision 'fp32, mixed': the paradl variant models fp32 only"
sweep_refuses "${base}variant = paradl\nzero = 1\n" "cli_sweep.ini:8: zero '1': a policy of the paradise variant"
sweep_refuses "${base}precision = fp32, fp32\n" "cli_sweep.ini:7: precision 'fp32, fp32': 'fp32' repeats a value of the list"
# the dry run and the summary say the training settings (they were only in the file)
printf "${base}precision = fp32, mixed\noptimizer = sgd\nrecompute = true\n" > $bad_ini
expect_rc 0 "dry run with training settings" -- "$paradise" sweep $bad_ini --dry-run
grep -qx "training: the precision axis, sgd optimizer, no ZeRO, activation recomputation" "$tmp/out" \
  && grep -qx "  precision (2): fp32, mixed" "$tmp/out" && ok || bad "dry run training line: $(cat "$tmp/out")"
expect_rc 0 "sweep summary with training settings" -- "$paradise" sweep $bad_ini --quiet
grep -qx "training: the precision axis, sgd optimizer, no ZeRO, activation recomputation" "$tmp/out" \
  && ok || bad "summary training line: $(cat "$tmp/out")"
sweep_refuses "${base}optimizer = lamb\n" "cli_sweep.ini:7: optimizer 'lamb': expected sgd, momentum or adam"
sweep_refuses "${base}zero = 4\n" "cli_sweep.ini:7: zero '4': expected a ZeRO stage 0 to 3"
sweep_refuses "${base}recompute = yes\n" "cli_sweep.ini:7: recompute 'yes': expected true or false"
# a precision axis: every point is predict's with that precision and the sweep's optimizer,
# ZeRO stage and recomputation; the root names them; the default Pareto group has the
# precision (one front per precision, not fp32 hidden behind mixed)
printf '[sweep]\nmodel = resnet50, cosmoflow\ndataset = imagenet, cosmoflow\nsystem = dgx-a100\nstrategy = data, spatial, data+filter\nprecision = fp32, tf32, mixed\noptimizer = adam\nzero = 1\nrecompute = true\ngpus = 1, 8, 64\nbatch = 64, 1024\n[output]\nstorage = full\n' > $bad_ini
expect_rc 0 "sweep with a precision axis" -- "$paradise" sweep $bad_ini --quiet -o $tmp/precision.h5
$py - $tmp/precision.h5 "$paradise" <<'PY' && ok || bad "precision axis: points equal predict's"
import itertools, json, subprocess, sys, h5py
f, paradise = h5py.File(sys.argv[1], "r"), sys.argv[2]
names = lambda n: [x.decode() for x in f[n][:]]
assert names("precision") == ["fp32", "tf32", "mixed"]
text = lambda v: v.decode() if isinstance(v, bytes) else v
assert (text(f.attrs["optimizer"]), int(f.attrs["zero_stage"]), text(f.attrs["recompute"])) == ("adam", 1, "true")
assert "precision" not in f.attrs  # an axis, not a setting
assert text(f["pareto"].attrs["group"]) == "model, dataset, precision, batch", f["pareto"].attrs["group"]
memory, epoch = f["memory_per_gpu_bytes"][:], f["epoch_time_s"][:]  # model dataset system strategy precision gpus batch
checked = 0
for (i, m), (j, d), (k, s), (q, p), (g, gpus), (b, batch) in itertools.product(
        *(enumerate(names(n)) for n in ("model", "dataset", "strategy", "precision")),
        enumerate(f["gpus"][:]), enumerate(f["batch"][:])):
    r = subprocess.run([paradise, "predict", "--model", m, "--dataset", d, "--system", "dgx-a100",
                        "--strategy", s, "--gpus", str(gpus), "--batch", str(batch), "--precision", p,
                        "--optimizer", "adam", "--zero", "1", "--recompute", "--format", "json"],
                       capture_output=True, text=True)
    if r.returncode:  # a 2-D model on 3-D data: the sweep's point is invalid
        assert f["status"][i, j, 0, k, q, g, b] == 2, (m, d)
        continue
    want = json.loads(r.stdout)
    if want["status"] == "invalid":
        continue
    assert memory[i, j, 0, k, q, g, b] == want["memory_per_gpu_bytes"], (m, d, s, p, gpus, batch)
    assert epoch[i, j, 0, k, q, g, b] == want["epoch_time_s"], (m, d, s, p, gpus, batch)
    checked += 1
assert checked >= 40, checked
# ResNet-50 on ImageNet at batch 1024 has a front at every precision (mixed is the fastest
# at every GPU count, and would hide the others in one front)
front = {n: [text(x) for x in f["pareto"][n][:]] for n in ("model", "dataset", "precision")}
rows = [p for m, d, p, b in zip(front["model"], front["dataset"], front["precision"], f["pareto"]["batch"][:])
        if (m, d, b) == ("resnet50", "imagenet", 1024)]
assert set(rows) == {"fp32", "tf32", "mixed"}, rows
PY
rm -f $tmp/precision.h5
# optimizer, zero and recompute with several values are axes (after precision, in this
# order); the root keeps the one-valued precision; points equal predict's; the default
# Pareto group has the optimizer (SGD would hide Adam), not ZeRO or recomputation (the front
# says where they pay)
printf '[sweep]\nmodel = cosmoflow\ndataset = cosmoflow\nsystem = abci\nstrategy = data, spatial\nprecision = mixed\noptimizer = sgd, adam\nzero = 0, 3\nrecompute = false, true\ngpus = 4, 16\nbatch = 16, 64\n[output]\nstorage = full\n' > $bad_ini
expect_rc 0 "sweep with training-setting axes" -- "$paradise" sweep $bad_ini --quiet -o $tmp/settings.h5
grep -qx "training: mixed precision, the optimizer axis, the zero_stage axis, the recompute axis" "$tmp/out" \
  && ok || bad "training line with axes: $(cat "$tmp/out")"
$py - $tmp/settings.h5 "$paradise" <<'PY' && ok || bad "training-setting axes: points equal predict's"
import itertools, json, subprocess, sys, h5py
f, paradise = h5py.File(sys.argv[1], "r"), sys.argv[2]
text = lambda v: v.decode() if isinstance(v, bytes) else str(v)
dims = [d[0].name.rsplit("/", 1)[-1] for d in f["memory_per_gpu_bytes"].dims]
assert dims == ["model", "dataset", "system", "strategy", "optimizer", "zero_stage", "recompute", "gpus", "batch"], dims
assert text(f.attrs["precision"]) == "mixed" and "optimizer" not in f.attrs and "zero_stage" not in f.attrs
assert [text(x) for x in f["recompute"][:]] == ["false", "true"] and list(f["zero_stage"][:]) == [0, 3]
assert text(f["pareto"].attrs["group"]) == "model, dataset, optimizer, batch", f["pareto"].attrs["group"]
memory = f["memory_per_gpu_bytes"][()]
checked = 0
for (k, s), (o, opt), (z, zero), (r, rec) in itertools.product(
        enumerate(["data", "spatial"]), enumerate(["sgd", "adam"]), enumerate([0, 3]), enumerate([False, True])):
    args = [paradise, "predict", "--model", "cosmoflow", "--dataset", "cosmoflow", "--strategy", s,
            "--gpus", "16", "--batch", "64", "--precision", "mixed", "--optimizer", opt, "--zero", str(zero),
            "--format", "json"] + (["--recompute"] if rec else [])
    want = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    if want["status"] == "invalid":
        continue
    assert memory[0, 0, 0, k, o, z, r, 1, 1] == want["memory_per_gpu_bytes"], (s, opt, zero, rec)
    checked += 1
assert checked >= 8, checked
PY
sweep_refuses "${base}variant = paradl\nrecompute = false, true\n" "cli_sweep.ini:8: recompute 'false, true': a policy of the paradise variant"
sweep_refuses "${base}zero = 0, 0\n" "cli_sweep.ini:7: zero '0, 0': '0' repeats a value of the list"
# a Pareto group may name a training setting the file narrows to one value (skipped, as
# resolution): narrowing a list to one value does not break the file
printf "${base}zero = 1\n[pareto]\ngroup = model, zero_stage, recompute\n" > $bad_ini
expect_rc 0 "pareto group naming one-valued settings" -- "$paradise" sweep $bad_ini --dry-run
# and so may `reduce`: a one-valued setting, or resolution without its axis, is one value to
# reduce over, so the maps are those of the other names (reduce = zero_stage alone: the full
# maps' status); a name that is no axis at all is still refused
red_ini='[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data, filter\ngpus = 8, 64\nbatch = 64, 512\nvariant = paradise\nzero = 1\n[output]\nstorage = summary\n'
for r in "batch" "batch, zero_stage, resolution" "zero_stage"; do
  printf "${red_ini}reduce = $r\n" > $bad_ini
  expect_rc 0 "reduce = $r" -- "$paradise" sweep $bad_ini --quiet -o "$tmp/red-${r//[, ]/}.h5"
done
printf "${red_ini/summary/maps}" > $bad_ini
expect_rc 0 "reduce: the maps" -- "$paradise" sweep $bad_ini --quiet -o "$tmp/red-maps.h5"
$py - "$tmp" <<'PY' && ok || bad "reduce naming one-valued settings"
import sys, h5py, numpy as np
t = sys.argv[1]
a, b, z, m = (h5py.File(f"{t}/red-{n}.h5") for n in ("batch", "batchzero_stageresolution", "zero_stage", "maps"))
assert a["best_status"].shape == (1, 1, 1, 2, 2), a["best_status"].shape
for v in ("best_status", "min_memory_per_gpu_bytes", "min_epoch_time_s"):
    assert np.array_equal(a[v][:], b[v][:], equal_nan=True), v
# reduced over nothing: every point is its own cell, the maps file's
assert z["best_status"].shape == m["status"].shape == (1, 1, 1, 2, 2, 2)
assert np.array_equal(z["best_status"][:], m["status"][:])
assert np.array_equal(z["min_memory_per_gpu_bytes"][:], m["memory_per_gpu_bytes"][:])
assert 0 < (m["status"][:] == 0).sum() < m["status"].size  # some points fit, some do not
PY
sweep_refuses "${red_ini}reduce = batch, zero_stages\n" "reduce 'zero_stages': not an axis of this sweep"
rm -f $tmp/settings.h5
# the paradise variant in a sweep: the fastest point equals predict --variant paradise
printf '[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = dgx-a100\nstrategy = data\ngpus = 8\nbatch = 256\nvariant = paradise\n' > $bad_ini
expect_rc 0 "sweep paradise variant" -- "$paradise" sweep $bad_ini --quiet
want=$("$paradise" predict --model resnet50 --dataset imagenet --system dgx-a100 --strategy data --gpus 8 --batch 256 --variant paradise --format json | $py -c 'import json,sys; print("%.2f" % json.load(sys.stdin)["epoch_time_s"])')
grep -q "resnet50  imagenet  dgx-a100  data      8     256   *$want" "$tmp/out" && ok || bad "paradise sweep point $want: $(cat "$tmp/out")"
# an output path that cannot be written is refused before any work, naming the cause, and
# leaves nothing behind
printf '[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\ngpus = 8\nbatch = 64\n' > $bad_ini
expect_rc 2 "sweep -o directory" -- "$paradise" sweep $bad_ini -o "$tmp" --quiet
grep -qF -- "-o $tmp: cannot write the file (a directory)" "$tmp/err" && [ ! -e "$tmp.tmp" ] && ok || bad "-o directory: $(cat "$tmp/err")"
expect_rc 2 "sweep -o missing directory" -- "$paradise" sweep $bad_ini -o "$tmp/no/such/x.h5" --quiet
grep -qF -- "-o $tmp/no/such/x.h5: cannot write the file (no directory $tmp/no/such)" "$tmp/err" && ok \
  || bad "-o missing directory: $(cat "$tmp/err")"
# a device is never replaced by the output (as root, -o /dev/null was)
expect_rc 2 "sweep -o /dev/null" -- "$paradise" sweep $bad_ini -o /dev/null --quiet
grep -qF -- "-o /dev/null: cannot write the file (not a regular file: it would be replaced)" "$tmp/err" \
  && [ -c /dev/null ] && ok || bad "-o /dev/null: $(cat "$tmp/err")"
# a directory the user may not write to or even search (as root, CI, run as user nobody)
mkdir -p "$tmp/shared/ro" "$tmp/shared/locked" && chmod 755 "$tmp" "$tmp/shared" && chmod 555 "$tmp/shared/ro" \
  && chmod 700 "$tmp/shared/locked" && cp $bad_ini "$tmp/shared/s.ini" && chmod 644 "$tmp/shared/s.ini"
as_user=()
[ "$(id -u)" -eq 0 ] && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
[ "$(id -u)" -ne 0 ] && chmod 000 "$tmp/shared/locked"
for out in ro/x.h5:"no permission to write there" locked/x.h5:"Permission denied"; do
  expect_rc 2 "sweep -o ${out%%:*}" -- "${as_user[@]}" "$paradise" sweep "$tmp/shared/s.ini" -o "$tmp/shared/${out%%:*}" --quiet
  grep -qF -- "-o $tmp/shared/${out%%:*}: cannot write the file (${out#*:})" "$tmp/err" && ok \
    || bad "-o ${out%%:*}: $(cat "$tmp/err")"
done
expect_rc 2 "sweep file in a locked directory" -- "${as_user[@]}" "$paradise" sweep "$tmp/shared/locked/s.ini" --quiet
grep -qF "$tmp/shared/locked/s.ini: cannot open sweep file (Permission denied)" "$tmp/err" && ok \
  || bad "locked sweep file: $(cat "$tmp/err")"
# spatial_split = all: 256 GPUs cannot split CosmoFlow's 126-wide first convolution along
# the width alone, but can over depth, height and width, as predict --spatial-split all
printf '[sweep]\nmodel = cosmoflow\ndataset = cosmoflow\nstrategy = spatial\ngpus = 256\nbatch = 4\nspatial_split = all\n' > $bad_ini
expect_rc 0 "sweep spatial_split all" -- "$paradise" sweep $bad_ini --quiet
want=$("$paradise" predict --model cosmoflow --dataset cosmoflow --strategy spatial --gpus 256 --batch 4 --spatial-split all --format json | $py -c 'import json,sys; print("%.2f" % json.load(sys.stdin)["epoch_time_s"])')
grep -q "cosmoflow  cosmoflow  abci    spatial   256   4 *$want" "$tmp/out" && ok || bad "spatial_split all point $want: $(cat "$tmp/out")"
sed -i 's/spatial_split = all/spatial_split = w/' $bad_ini
expect_rc 0 "sweep spatial_split w" -- "$paradise" sweep $bad_ini --quiet
grep -Eq "^cosmoflow +- +- +- +- +- +none feasible$" "$tmp/out" && ok || bad "width-only split of 256: $(cat "$tmp/out")"
# -o the sweep file itself, -o '', --checkpoint nan: refused before anything is written
cp "$sweeps/quickstart.ini" "$tmp/self.ini"
expect_rc 2 "sweep -o its own sweep file" -- "$paradise" sweep "$tmp/self.ini" -o "$tmp/self.ini"
grep -q "is the sweep file $tmp/self.ini (it would be overwritten)" "$tmp/err" && cmp -s "$tmp/self.ini" "$sweeps/quickstart.ini" && ok || bad "-o the sweep file: $(cat "$tmp/err")"
# a dry run checks the output as the run will (jobs/submit relies on it): a directory, a
# missing folder
mkdir -p "$tmp/outdir"
expect_rc 2 "sweep --dry-run -o a directory" -- "$paradise" sweep "$tmp/self.ini" --dry-run -o "$tmp/outdir"
grep -q "error: -o $tmp/outdir: cannot write the file (a directory)" "$tmp/err" && ok || bad "dry run -o a directory: $(cat "$tmp/err")"
expect_rc 2 "sweep --dry-run -o a missing folder" -- "$paradise" sweep "$tmp/self.ini" --dry-run -o "$tmp/nofolder/x.h5"
grep -q "error: -o $tmp/nofolder/x.h5: cannot write the file (no directory $tmp/nofolder)" "$tmp/err" && ok || bad "dry run -o a missing folder: $(cat "$tmp/err")"
expect_rc 2 "sweep -o ''" -- "$paradise" sweep "$tmp/self.ini" -o ''
grep -q "error: -o '': expected the path" "$tmp/err" && ok || bad "-o '': $(cat "$tmp/err")"
expect_rc 2 "sweep --checkpoint nan" -- "$paradise" sweep "$tmp/self.ini" --checkpoint nan -o "$tmp/self.h5"
grep -q "error: --checkpoint nan: must be a number of seconds >= 0" "$tmp/err" && [ ! -e "$tmp/self.h5" ] && ok || bad "--checkpoint nan: $(cat "$tmp/err")"
expect_rc 2 "sweep --checkpoint -1" -- "$paradise" sweep "$tmp/self.ini" --checkpoint -1 -o "$tmp/self.h5"
grep -q "error: --checkpoint -1: must be a number of seconds >= 0" "$tmp/err" && ok || bad "--checkpoint -1 as typed: $(cat "$tmp/err")"
# the ranks wait for each other after a write: never forever (inf), nor less than a second
for t in inf 0.5; do
  expect_rc 2 "sweep --io-timeout $t" -- "$paradise" sweep "$tmp/self.ini" --io-timeout $t -o "$tmp/self.h5"
  grep -q "error: --io-timeout $t: must be a number of seconds >= 1" "$tmp/err" && [ ! -e "$tmp/self.h5" ] && ok || bad "--io-timeout $t: $(cat "$tmp/err")"
done
# a dry run with --resume says what the real run would: no checkpoint, an error
expect_rc 2 "sweep --dry-run --resume without a checkpoint" -- "$paradise" sweep "$tmp/self.ini" --dry-run --resume -o "$tmp/self.h5"
grep -q "error: $tmp/self.h5.resume: no checkpoint to resume from (run without --resume)" "$tmp/err" && ok || bad "dry run --resume: $(cat "$tmp/err")"
# a checkpoint of format 1 (two Pareto objectives a candidate: its summary bytes are not this
# version's) is named as such, not merged as garbage nor called damaged
printf 'paradise-checkpoint 1\nchunks_done 3\n' >"$tmp/self.h5.resume"
expect_rc 2 "sweep --resume from a format-1 checkpoint" -- "$paradise" sweep "$tmp/self.ini" --dry-run --resume -o "$tmp/self.h5"
grep -qF "error: $tmp/self.h5.resume: a checkpoint of another ParaDiSE version ('paradise-checkpoint 1', this one reads 'paradise-checkpoint 2'): rerun without --resume" "$tmp/err" &&
  ok || bad "format-1 checkpoint: $(cat "$tmp/err")"
rm -f "$tmp/self.h5.resume"
# a sweep where nothing fits is an answer: the file is written, its Pareto front empty
printf '[sweep]\nmodel = vgg16\ndataset = imagenet\nstrategy = data\ngpus = 1\nbatch = 4096\n[memlimit]\nbatch = none\n' > "$tmp/none_fit.ini"
for storage in full maps summary; do
  sed "s/^batch = 4096$/batch = 4096\n[output]\nstorage = $storage/" "$tmp/none_fit.ini" > "$tmp/none_fit_$storage.ini"
  expect_rc 0 "sweep with no feasible point ($storage)" -- "$paradise" sweep "$tmp/none_fit_$storage.ini" --quiet -o "$tmp/none_fit.h5"
  $py -c 'import sys, xarray as xr; p = xr.open_dataset(sys.argv[1], engine="h5netcdf", group="pareto"); assert p.sizes["point"] == 0, p' "$tmp/none_fit.h5" && ok || bad "empty pareto group ($storage)"
done
# an invalid point (64 does not split over 3 GPUs) has no figures: NaN, not 0 or a guess
printf '[sweep]\nmodel = resnet50, cosmoflow\ndataset = imagenet\nstrategy = data\ngpus = 3, 4\nbatch = 64\n[output]\nstorage = full\n' > "$tmp/invalid.ini"
expect_rc 0 "sweep with an invalid point" -- "$paradise" sweep "$tmp/invalid.ini" --quiet -o "$tmp/invalid.h5"
$py - "$tmp/invalid.h5" <<'PY' && ok || bad "invalid point's figures"
import sys, math
import xarray as xr
all_points = xr.open_dataset(sys.argv[1], engine="h5netcdf")
# CosmoFlow cannot take ImageNet's 2-D samples: no figures at any GPU count either
cosmo = all_points.sel(model="cosmoflow").squeeze()
assert (cosmo.status == 2).all() and bool(cosmo.epoch_time_s.isnull().all()) and bool(cosmo.memory_per_gpu_bytes.isnull().all()), cosmo
ds = all_points.sel(model="resnet50").squeeze()
bad, good = ds.sel(gpus=3), ds.sel(gpus=4)
assert int(bad.status) == 2 and int(good.status) == 0, (bad.status, good.status)
for v in ("epoch_time_s", "iteration_time_s", "compute_time_s", "communication_time_s", "framework_time_s", "memory_per_gpu_bytes"):
    assert math.isnan(float(bad[v])) and float(good[v]) > 0, (v, float(bad[v]), float(good[v]))
PY
sed -i 's/spatial_split = w/spatial_split = xyz/' $bad_ini
expect_rc 2 "sweep spatial_split xyz" -- "$paradise" sweep $bad_ini
grep -q "cli_sweep.ini:7: spatial_split 'xyz': expected w, hw, all or auto" "$tmp/err" && ok || bad "spatial_split xyz: $(cat "$tmp/err")"
# ... and data+spatial's groups: the sweep's point is predict's, the file says which split
printf '[sweep]\nmodel = cosmoflow\ndataset = cosmoflow\nstrategy = data+spatial\ngpus = 16\nbatch = 16\nspatial_split = all\n[output]\nstorage = full\n' > $bad_ini
expect_rc 0 "sweep data+spatial all" -- "$paradise" sweep $bad_ini --quiet -o "$tmp/ds_all.h5"
"$paradise" predict --model cosmoflow --dataset cosmoflow --strategy data+spatial --gpus 16 --batch 16 --spatial-split all --format json > "$tmp/ds_all.json"
$py - "$tmp/ds_all.h5" "$tmp/ds_all.json" <<'PY' && ok || bad "sweep data+spatial all = predict"
import json, sys
import xarray as xr
p = json.load(open(sys.argv[2]))
ds = xr.open_dataset(sys.argv[1], engine="h5netcdf")
assert ds.attrs["spatial_split"] == "all", ds.attrs
assert float(ds.epoch_time_s.values.ravel()[0]) == p["epoch_time_s"], (ds.epoch_time_s, p)
PY
# an axis lists each value once; the whole value is quoted; an unknown key shows its value
sweep_refuses '[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\ngpus = 4, 4\nbatch = 64\n' \
  "cli_sweep.ini:5: gpus '4, 4': lists 4 more than once"
sweep_refuses '[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data, data\ngpus = 8\nbatch = 64\n' \
  "cli_sweep.ini:4: strategy 'data, data': lists data more than once"
sweep_refuses "${base}[memlimit]\nsides = 256, 256\n" "cli_sweep.ini:8: sides '256, 256': lists 256 more than once"
sweep_refuses "${base}[output]\nstorage = summary\nreduce = batch, batch\n" \
  "cli_sweep.ini:9: reduce 'batch, batch': lists batch more than once"
sweep_refuses "${base}[memlimit]\nbatch = 1..100 *2\n" \
  "cli_sweep.ini:8: batch '1..100 *2': expected LO..HI or LO..HI +STEP, in integers"
sweep_refuses "${base}[memlimit]\nfoo = 1\n" "cli_sweep.ini:8: memlimit.foo '1': unknown key"
sweep_refuses "${base}colour = red\n" "cli_sweep.ini:7: sweep.colour 'red': unknown key"
# a key set twice names the second line; a line that is not key = value names its line;
# a directory is not read as an empty sweep
sweep_refuses '[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\nmodel = vgg16\ngpus = 8\nbatch = 64\n' \
  "cli_sweep.ini:5: sweep.model 'vgg16': set more than once"
sweep_refuses '[sweep]  # the grid\nmodel = resnet50\n# a comment\ndataset imagenet\n' \
  "cli_sweep.ini:4: line 'dataset imagenet': expected [section], key = value, a # comment or a blank line"
expect_rc 2 "sweep of a directory" -- "$paradise" sweep /tmp
grep -q "/tmp: is a directory" "$tmp/err" && ok || bad "directory: $(cat "$tmp/err")"
# [layer_times]: measured per-layer times parametrise a model's compute in a sweep. AlexNet's
# eight GEMM layers at 1..8 ms per sample plus its first ReLU; data parallelism on p GPUs
# computes ceil(D / p) x the sum per sample (docs/cost-model.md §paradl-compute; unsplit measured layers),
# waiting for the slowest of its GPUs
lt_csv=$tmp/cli_lt.csv
{ echo "layer,forward_s,backward_s,batch"; i=0
  for l in features.0 features.3 features.6 features.8 features.10 classifier.1 classifier.4 classifier.6; do
    i=$((i + 1)); echo "$l,0.000$i,0.000$i,16"; done
  echo "features.1,0.0005,0.0005,16"; } > $lt_csv
lt_h5=$tmp/cli_lt.h5
printf '[sweep]\nmodel = alexnet, vgg16\ndataset = small:1000:3x224x224\nstrategy = data\ngpus = 1, 3\nbatch = 48\nvariant = paradise\n[output]\nstorage = full\n[layer_times]\nalexnet = %s\n' $lt_csv > $bad_ini
expect_rc 0 "sweep with layer_times" -- "$paradise" sweep $bad_ini --quiet -o $lt_h5
$py - $lt_h5 <<'PY' && ok || bad "layer_times in a sweep: ceil(D/p) x the measured sum"
import math, sys, h5py
f = h5py.File(sys.argv[1], "r")
models = [m.decode() if isinstance(m, bytes) else m for m in f["model"][:]]
c = f["compute_time_s"][:]  # model x dataset x system x strategy x gpus x batch
per_sample = 2 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8) * 1e-4 + 2 * 0.0005  # forward + backward
a = models.index("alexnet")
# the extended model waits for the slowest of p GPUs (docs/gpu-profiles.md §variability): the
# built-in GPUs' 8% whisker range is sigma = 0.08 / (8 x 0.67449) of the step, times Blom's
# expected maximum of p normals
from statistics import NormalDist
sigma = 0.08 / (8 * NormalDist().inv_cdf(0.75))
for j, p in enumerate([1, 3]):
    slowest = 1 + sigma * NormalDist().inv_cdf((p - 0.375) / (p + 0.25))
    got, want = c[a, 0, 0, 0, j, 0], math.ceil(1000 / p) * per_sample * slowest
    assert abs(got - want) <= 1e-9 * want, (p, got, want)
v = models.index("vgg16")  # no file: roofline at the fp32 peak, not the measured times
assert abs(c[v, 0, 0, 0, 0, 0] - 1000 * per_sample) > 0.1
PY
printf '[sweep]\nmodel = alexnet\ndataset = imagenet\nstrategy = data\ngpus = 1\nbatch = 48\n[layer_times]\nalexnet@dgx1 = %s\n' $lt_csv > $bad_ini
expect_rc 2 "layer_times for a system not swept" -- "$paradise" sweep $bad_ini --quiet -o $lt_h5.x
grep -q "cli_sweep.ini:8: layer_times.alexnet@dgx1 '$lt_csv': 'dgx1' is not a system of this sweep" "$tmp/err" && ok || bad "layer_times system: $(cat "$tmp/err")"
[ ! -e $lt_h5.x ] && ok || bad "no output after a bad layer_times key"
sed -i '/features.6,/d' $lt_csv
printf '[sweep]\nmodel = alexnet\ndataset = imagenet\nstrategy = data\ngpus = 1\nbatch = 48\n[layer_times]\nalexnet = %s\n' $lt_csv > $bad_ini
expect_rc 2 "layer_times without a GEMM layer" -- "$paradise" sweep $bad_ini --quiet -o $lt_h5.x
grep -q "layer 'features.6': model 'alexnet' has this layer (with a GEMM) but the file has no row" "$tmp/err" && ok || bad "missing GEMM layer: $(cat "$tmp/err")"
[ ! -e $lt_h5.x ] && ok || bad "no output after a bad layer-times file"
# a time past any measurement (1e308 s made the epoch inf, status ok) is refused at its line
sed -i 's/^features.0,.*/features.0,1e308,1e308,16/' $lt_csv
expect_rc 2 "layer_times of 1e308 s" -- "$paradise" sweep $bad_ini --quiet -o $lt_h5.x
grep -q "cli_lt.csv:2: column forward_s '1e308': more than 10^6 s per sample" "$tmp/err" && ok || bad "1e308 s: $(cat "$tmp/err")"
# one far too fast for its FLOPs: features.0's 2 x 70.5 MFLOPs forward (64 x 3 x 11 x 11
# filters over 55 x 55 outputs, x 2 per MAC) + backward in 2e-300 s, a unit slip
sed -i 's/^features.0,.*/features.0,1e-300,1e-300,16/' $lt_csv
expect_rc 2 "layer_times of 1e-300 s" -- "$paradise" sweep $bad_ini --quiet -o $lt_h5.x
grep -q "cli_lt.csv:2: layer 'features.0': forward_s + backward_s = 2e-300 s per sample for .* FLOPs is more than 100x the GPU's peak" "$tmp/err" && ok || bad "1e-300 s: $(cat "$tmp/err")"
# every GEMM at 0 s would make the step free (as calibrate refuses it)
{ echo "layer,forward_s,backward_s,batch"
  for l in features.0 features.3 features.6 features.8 features.10 classifier.1 classifier.4 classifier.6; do
    echo "$l,0,0,16"; done; } > $lt_csv
expect_rc 2 "layer_times all 0 s" -- "$paradise" sweep $bad_ini --quiet -o $lt_h5.x
grep -q "cli_lt.csv: no layer with a GEMM (convolution or linear) has a measured time > 0 at batch 16" "$tmp/err" && ok || bad "all 0 s: $(cat "$tmp/err")"
[ ! -e $lt_h5.x ] && ok || bad "no output after an all-zero layer-times file"
rm -f $lt_csv $lt_h5 $lt_h5.x
printf '[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\ngpus = 1..1000000 +1\nbatch = 1..1000000 +1\n[output]\nmax_bytes = 1e9\n' > $bad_ini
expect_rc 2 "sweep too large" -- "$paradise" sweep $bad_ini --dry-run
grep -q "1,000,000,000,000 points" "$tmp/err" && ok || bad "too large grid refused with the numbers: $(cat "$tmp/err")"
# issue 35: the hint suggested storage = summary where it was set already
printf '[sweep]\nmodel = resnet50\ndataset = imagenet\nstrategy = data\ngpus = 1..1000000 +1\nbatch = 1..1000000 +1\n[output]\nmax_bytes = 1e3\nstorage = summary\nreduce = batch\n' > $bad_ini
expect_rc 2 "sweep too large at storage = summary" -- "$paradise" sweep $bad_ini --dry-run
grep -q "at storage 'summary' would write .* (a smaller grid, or a larger max_bytes)$" "$tmp/err" && ok || bad "summary size hint: $(cat "$tmp/err")"
rm -f $bad_ini

# an empty --sides is an error, as an empty --gpu-counts is (it was ignored)
expect_rc 2 "memlimit --sides ''" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --gpus 4 --batch 4 --sides ''
grep -qF "error: --sides '': expected a list of sides >= 1, e.g. 256,512,1024" "$tmp/err" && ok || bad "--sides '': $(cat "$tmp/err")"
# memory limits: ParaDL's ResNet-50 fits 66 samples per 16 GB GPU (docs/cost-model.md §ref-paradl-memory)
expect_rc 0 "memlimit" -- "$paradise" memlimit --variant paradl --model "$data/paradl/model/RESNET50_ImageNet_profall.net_sc" \
  --dataset imagenet-paradl --strategy data --gpus 8 --batch 8
grep -q "largest feasible global batch: 528" "$tmp/out" && ok || bad "memlimit batch 8 x 66 = 528: $(cat "$tmp/out")"
expect_rc 0 "memlimit resolution" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --strategy data --gpus 4 --batch 4 --resolution 64..1024 --sides 128,512
grep -q "largest feasible side at batch 4:" "$tmp/out" && ok || bad "memlimit resolution"
# "none" says why, with predict's reason at the low end of the search: CosmoFlow's first
# convolution is 126 wide at 128^3 (128 - 3 + 1), too narrow for 256 GPUs to split along W
expect_rc 0 "memlimit none" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --strategy spatial --gpus 256 --batch 1 --spatial-split w
grep -q "largest feasible global batch: none (at batch 1: invalid, 256 parts > the extent 126 of spatial dimension 1 of the first parallel layer)" "$tmp/out" && ok || bad "memlimit none says why: $(cat "$tmp/out")"
# data parallelism's searched batches are multiples of the GPUs: the reason is at batch 8
# (UNet3D at 512^3 keeps 64 x 7.4 GB = 474 GB per sample: 7.4 GB at 128^3, x 4^3 voxels)
expect_rc 0 "memlimit none at the step" -- "$paradise" memlimit --model unet3d --dataset cosmoflow512 --strategy data --gpus 8 --batch 8
grep -q "largest feasible global batch: none (at batch 8: out_of_memory" "$tmp/out" && ok || bad "memlimit reason at the step: $(cat "$tmp/out")"
expect_rc 0 "memlimit empty search" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --strategy data --gpus 8 --batch 8 --max-batch 4
grep -q "none (no batch up to --max-batch 4 that the strategy divides evenly (multiples of 8)) (0 evaluations)" "$tmp/out" && ok || bad "memlimit empty search: $(cat "$tmp/out")"
# no batch divides evenly at all (6 GPUs in groups of 4): predict's reason, not "multiples of 1"
expect_rc 0 "memlimit no batch divides" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --strategy data+filter --gpus 6 --batch 8 --p2 4
grep -q "largest feasible global batch: none (at batch 1: invalid, 6 GPUs are not a multiple of the group size p2 = 4)" "$tmp/out" && ok || bad "memlimit no batch divides: $(cat "$tmp/out")"
# ... but 256 = 8 x 8 x 4 parts over depth, height and width fit it
expect_rc 0 "memlimit spatial all" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --strategy spatial --gpus 256 --batch 1 --spatial-split all
grep -Eq "largest feasible global batch: [0-9,]+ \(" "$tmp/out" && ok || bad "memlimit spatial all: $(cat "$tmp/out")"
# ... and at the top of a side range where it fails otherwise: 512 GPUs cannot split the width
# 112 of CosmoFlow's first convolution at its smallest side 114 (114 - 3 + 1), but can at 2048,
# where memory is the limit; filter's 16 filters are too few at every side: one reason
expect_rc 0 "memlimit none at both ends" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --strategy spatial --gpus 512 --batch 64 --resolution 32..2048 --spatial-split w
grep -q "none in 32..2048 (side 114 at batch 64: invalid, 512 parts > the extent 112 of spatial dimension 1 of the first parallel layer; side 2048 at batch 64: out_of_memory, needs " "$tmp/out" && ok || bad "memlimit none at both ends: $(cat "$tmp/out")"
expect_rc 0 "memlimit none one reason" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --strategy filter --gpus 512 --batch 512 --resolution 32..2048
grep -q "none in 32..2048 (side 114 at batch 512: invalid, 512 GPUs > the smallest filter count 16 of the parallel layers) (" "$tmp/out" && ok || bad "memlimit none one reason: $(cat "$tmp/out")"
# predict out of memory says which batch does fit on its GPUs: the boundary of predict itself
# (VGG16 on 4 ABCI GPUs: 528 fits, the next multiple of 4 does not)
expect_rc 0 "predict oom fits up to" -- "$paradise" predict --model vgg16 --dataset imagenet --gpus 4 --batch 4096
fits=$(sed -n 's/^  on 4 GPUs a global batch of up to \([0-9,]*\) fits (memlimit.*/\1/p' "$tmp/out" | tr -d ,)
at_fits=$("$paradise" predict --model vgg16 --dataset imagenet --gpus 4 --batch "${fits:-0}" 2>&1)
past_fits=$("$paradise" predict --model vgg16 --dataset imagenet --gpus 4 --batch $((${fits:-0} + 4)) 2>&1)
[ -n "$fits" ] && [[ "$at_fits" == *$'\nstatus: ok'* ]] && [[ "$past_fits" == *$'\nstatus: out_of_memory'* ]] &&
  ok || bad "predict oom fits up to '$fits': $(cat "$tmp/out")"
# memlimit --resolution with a step past half the int64 range: the "none" explanation's walk
# stops at the range's end (it overflowed and cycled forever)
expect_rc 0 "memlimit huge resolution step" -- timeout 20 "$paradise" memlimit --model unet3d --dataset c:100:3x128x128x128 --strategy data --gpus 8 --batch 8 --resolution '1..9223372036854775807 +4611686018427387904'
grep -q "largest feasible side at batch 8: none in .* (side 4611686018427387905 and larger: tensors past the supported sizes)" "$tmp/out" && ok || bad "memlimit huge step: $(cat "$tmp/out")"
# spatial: the ReLUs and pools before the split layer run split too, unless the policy is off
for flag in "" --split-marked-layers-only; do
  "$paradise" predict --model cosmoflow --dataset cosmoflow --strategy spatial --gpus 16 --batch 4 --format json $flag > "$tmp/whole${flag:+_marked}.json"
done
$py -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); assert b["epoch_compute_s"] > 2 * a["epoch_compute_s"] and b["memory_per_gpu_bytes"] > a["memory_per_gpu_bytes"], (a, b)' "$tmp/whole.json" "$tmp/whole_marked.json" && ok || bad "--split-marked-layers-only"
# a model or system path that is not there is said so, not taken for an unknown name
expect_rc 2 "predict missing model file" -- "$paradise" predict --model "$tmp/nothere.model" --dataset imagenet --gpus 1 --batch 1
grep -q "error: $tmp/nothere.model: no such model file" "$tmp/err" && ok || bad "missing model file: $(cat "$tmp/err")"
expect_rc 2 "predict missing system file" -- "$paradise" predict --model resnet50 --dataset imagenet --system "$tmp/nothere.system" --gpus 1 --batch 1
grep -q "error: $tmp/nothere.system: no such system file" "$tmp/err" && ok || bad "missing system file: $(cat "$tmp/err")"
# a model file from a pipe is read once (its format was probed by a first reading, which
# left nothing for the parse: "missing header line"); a device is not read forever
r50=$data/paradl/model/RESNET50_ImageNet_profall.net_sc
"$paradise" predict --model "$r50" --dataset imagenet-paradl --system abci --strategy data --gpus 8 --batch 256 --format json >"$tmp/file.json" 2>&1
"$paradise" predict --model <(cat "$r50") --dataset imagenet-paradl --system abci --strategy data --gpus 8 --batch 256 --format json >"$tmp/pipe.json" 2>&1
$py -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); assert a["epoch_time_s"] == b["epoch_time_s"] > 0, (a, b)' "$tmp/file.json" "$tmp/pipe.json" && ok || bad "model file from a pipe: $(head -c 300 "$tmp/pipe.json")"
expect_rc 2 "model /dev/zero" -- "$paradise" predict --model /dev/zero --dataset imagenet --gpus 1 --batch 1
grep -q "error: /dev/zero: more than 67,108,864 bytes (64 MiB), not a model file" "$tmp/err" && ok || bad "model /dev/zero: $(cat "$tmp/err")"
# a model's totals past 2^62 (three convolutions each within the per-layer bound) are
# refused (their int64 sums printed a negative model); a single such layer predicts, its
# bytes past 2^63 in exponent form (printed -0), not negative; and without a hang (the
# overlap's loop over 10^11 gradient buckets)
printf 'model neg3\ninput 2147483647x38x38\na conv out=1048576 k=38\nb conv out=1048576 k=38 from=input\nc conv out=1048576 k=38 from=input\n' >"$tmp/neg3.model"
expect_rc 2 "model totals past 2^62" -- "$paradise" models --show "$tmp/neg3.model"
grep -q "model 'neg3': parameters in all, more than 2^62 (sizes too large)" "$tmp/err" && ok || bad "model totals: $(cat "$tmp/err")"
printf 'model big1\ninput 2147483647x38x38\na conv out=1048576 k=38\n' >"$tmp/big1.model"
expect_rc 0 "huge model predict" -- timeout 20 "$paradise" predict --model "$tmp/big1.model" --dataset x:100:2147483647x38x38 --strategy data --gpus 2 --batch 2
grep -Eq "^total +[0-9.]+e\+19 " "$tmp/out" && ! grep -Eq "^[a-z ()]+ +-[0-9][0-9,]* +[0-9.]+ [kMGTP]?B$" "$tmp/out" && ok || bad "huge model bytes: $(cat "$tmp/out")"
# a .net file without its Dataset| line is told what a .net file needs (it got the .model
# format's wording); an empty Model| name is refused at its line
printf 'Input|1000x3x32x32\nModel|D\nDROPOUT1|3x32x32|0|3x32x32|0.001\n' >"$tmp/nodata.net"
expect_rc 2 "a .net without Dataset|" -- "$paradise" predict --model "$tmp/nodata.net" --system abci --gpus 1 --batch 4 --strategy serial
grep -qF "$tmp/nodata.net:1: Dataset 'Input|1000x3x32x32': expected 'Dataset|...'" "$tmp/err" && ok || bad ".net without Dataset|: $(cat "$tmp/err")"
printf 'Dataset|X\nInput|1000x3x32x32\nModel| \nDROPOUT1|3x32x32|0|3x32x32|0.001\n' >"$tmp/noname.net"
expect_rc 2 "a .net with an empty Model|" -- "$paradise" predict --model "$tmp/noname.net" --system abci --gpus 1 --batch 4 --strategy serial
grep -qF "$tmp/noname.net:3: Model '': must not be empty" "$tmp/err" && ok || bad ".net with an empty Model|: $(cat "$tmp/err")"
# a .net file whose layers have no FLOPs (two dropouts of t = 0.001 s): the measured time
# is spread evenly, not lost: 1,000 samples x 0.002 s = 2 s of compute per epoch (it was 0)
printf 'Dataset|X\nInput|1000x3x32x32\nModel|D\nDROPOUT1|3x32x32|0|3x32x32|0.001\nDROPOUT2|3x32x32|0|3x32x32|0.001\n' >"$tmp/drop.net"
expect_rc 0 "a .net without FLOPs" -- "$paradise" predict --model "$tmp/drop.net" --system abci --gpus 1 --batch 4 --strategy serial --format json
$py -c 'import json,sys; p=json.load(open(sys.argv[1])); assert abs(p["epoch_compute_s"] - 2.0) < 1e-12, p["epoch_compute_s"]' "$tmp/out" && ok || bad "a .net without FLOPs: $(head -c 300 "$tmp/out")"
# an empty --show or --input (an unset shell variable) is said, not taken for "not given"
expect_rc 2 "models --show ''" -- "$paradise" models --show ''
grep -qF -- "--show '': expected a model name or file" "$tmp/err" && ok || bad "models --show '': $(cat "$tmp/err")"
expect_rc 2 "models --input ''" -- "$paradise" models --show resnet50 --input ''
grep -qF -- "--input '': expected CxHxW or CxDxHxW" "$tmp/err" && ok || bad "models --input '': $(cat "$tmp/err")"
# a byte-order mark (Excel's "CSV UTF-8", Notepad) does not hide a file's first line
printf '\xEF\xBB\xBFmodel bom\ninput 3x8x8\nc1 conv out=4 k=3\n' > "$tmp/bom.model"
expect_rc 0 "model file with a BOM" -- "$paradise" models --show "$tmp/bom.model"
grep -q "c1" "$tmp/out" && ok || bad "model file with a BOM: $(cat "$tmp/out" "$tmp/err")"
# a stray word is refused by name, not ignored (an unquoted "*2" of a range)
expect_rc 2 "predict stray argument" -- "$paradise" predict --model resnet50 --dataset imagenet --gpus 8 --batch 64 extra
grep -q "error: unexpected argument 'extra'" "$tmp/err" && ok || bad "stray argument: $(cat "$tmp/err")"
expect_rc 2 "recommend stray argument" -- "$paradise" recommend --model resnet50 --dataset imagenet --max-gpus 8 --batch-range 32..64 '*2'
grep -q "error: unexpected argument '\*2'" "$tmp/err" && ok || bad "stray *2: $(cat "$tmp/err")"
# an abbreviated option still works (no hidden option to make it ambiguous)
expect_rc 0 "predict --stra" -- "$paradise" predict --model resnet50 --dataset imagenet --gpus 8 --batch 64 --stra data
# --resolution's own step is the search's (unet3d takes multiples of 8), as --step is
expect_rc 0 "memlimit resolution +8" -- "$paradise" memlimit --model unet3d --dataset cosmoflow --strategy data --gpus 8 --batch 8 --resolution "16..2048 +8"
want=$("$paradise" memlimit --model unet3d --dataset cosmoflow --strategy data --gpus 8 --batch 8 --resolution 16..2048 --step 8 | tail -n 1)
[ "$(tail -n 1 "$tmp/out")" = "$want" ] && ok || bad "resolution +8: $(cat "$tmp/out") vs $want"
expect_rc 2 "memlimit resolution *2" -- "$paradise" memlimit --model unet3d --dataset cosmoflow --strategy data --gpus 8 --batch 8 --resolution "100..1000 *2"
grep -q "expected LO..HI \[+STEP\] with 1 <= LO <= HI (an arithmetic range)" "$tmp/err" && ok || bad "resolution *2: $(cat "$tmp/err")"
# memlimit checks its lists before any search prints; --gpu-counts in any order
for case in "--resolution '128..64'|--resolution 128..64" "--resolution '0..128'|--resolution 0..128" \
            "--max-batch '0'|--max-batch 0" "--gpu-counts '0'|--sides 224 --gpu-counts 0"; do
  bad_arg=${case#*|}
  expect_rc 2 "memlimit $bad_arg" -- "$paradise" memlimit --model resnet50 --dataset imagenet --strategy data --gpus 8 --batch 64 $bad_arg
  [ ! -s "$tmp/out" ] && grep -q -- "error: ${case%%|*}: " "$tmp/err" && ok || bad "memlimit $bad_arg: $(cat "$tmp/out" "$tmp/err")"
done
# --spatial-split with a strategy that splits no spatial dimension: refused, as --p2 is
# (it printed status ok, the option ignored); with spatial and data+spatial it is read
for cmd in predict memlimit; do
  for k in data filter channel pipeline; do
    expect_rc 2 "$cmd --spatial-split all --strategy $k" -- "$paradise" $cmd --model cosmoflow --dataset cosmoflow --strategy $k --gpus 8 --batch 8 --spatial-split all
    grep -qF -- "--spatial-split: how spatial and data+spatial split the samples; --strategy $k splits none" "$tmp/err" && ok || bad "$cmd --spatial-split $k: $(cat "$tmp/err")"
  done
  for k in spatial data+spatial; do
    expect_rc 0 "$cmd --spatial-split all --strategy $k" -- "$paradise" $cmd --model cosmoflow --dataset cosmoflow --strategy $k --gpus 8 --batch 8 --spatial-split all
  done
done
# the paradise variant's policies with --variant paradl are refused, not ignored
expect_rc 2 "paradl with --zero" -- "$paradise" predict --model resnet50 --dataset imagenet --strategy data --gpus 16 --batch 256 --variant paradl --zero 3
grep -qF -- "--zero '3': a policy of the paradise variant; the paradl variant reproduces ParaDL" "$tmp/err" && ok || bad "paradl --zero: $(cat "$tmp/err")"
# every option predict's help marks as the paradise variant's ("paradise: ...", "daso: ..."),
# and at least the policies of README's predict options: each refused with --variant paradl
"$paradise" predict --help >"$tmp/help"
marked=$(sed -n 's/^  --\([a-z0-9-]*\)\( arg\)\? *\(paradise\|daso\): .*/\1/p' "$tmp/help" | sort)
for want in no-roofline no-overlap no-algorithm-choice gpipe leader-reduce daso-epochs daso-blocking-epochs \
  allreduce-partial-sums keep-activation-gradients split-marked-layers-only precision optimizer zero recompute; do
  grep -qx -- "$want" <<<"$marked" && ok || bad "predict --help does not mark --$want as the paradise variant's: $marked"
done
for name in $marked; do
  value=""
  grep -q "^  --$name arg" "$tmp/help" && value=1
  [ "$name" = precision ] && value=mixed
  [ "$name" = optimizer ] && value=adam
  expect_rc 2 "paradl with --$name" -- "$paradise" predict --model resnet50 --dataset imagenet --strategy data --gpus 16 \
    --batch 256 --variant paradl --$name $value
  grep -qF -- "--$name" "$tmp/err" && grep -qE "paradise variant|paradl variant models fp32 only" "$tmp/err" && ok \
    || bad "paradl --$name: $(cat "$tmp/err")"
done
# --allreduce with the paradise variant replaces NCCL's choice (it was ignored without
# --no-algorithm-choice): the same as with it
expect_rc 0 "--allreduce alone" -- "$paradise" predict --model resnet50 --dataset imagenet --strategy data --gpus 16 --batch 256 --allreduce binomial-tree --format json
cp "$tmp/out" "$tmp/forced.json"
expect_rc 0 "--allreduce --no-algorithm-choice" -- "$paradise" predict --model resnet50 --dataset imagenet --strategy data --gpus 16 --batch 256 --allreduce binomial-tree --no-algorithm-choice --format json
cmp -s "$tmp/out" "$tmp/forced.json" && grep -q '"collective":"allreduce/binomial-tree"' "$tmp/out" && ok || bad "--allreduce alone: $(cat "$tmp/forced.json")"
# the parser's own reason, and searches that cannot run are errors, not "none fits"
refuse_memlimit() {  # refuse_memlimit MESSAGE ARGS...
  local want=$1
  shift
  expect_rc 2 "memlimit $*" -- "$paradise" memlimit --strategy data --gpus 8 --batch 8 "$@"
  [ ! -s "$tmp/out" ] && grep -qF -- "$want" "$tmp/err" && ok || bad "memlimit $*: $(cat "$tmp/out" "$tmp/err")"
}
refuse_memlimit "error: --gpu-counts '1..64': a range needs a step: A..B *F or A..B +S; expected GPU counts" \
  --model resnet50 --dataset imagenet --sides 224 --gpu-counts 1..64
refuse_memlimit "error: --resolution '128..2000000': more than 1,000,000 values on one axis; expected LO..HI" \
  --model resnet50 --dataset imagenet --resolution 128..2000000
refuse_memlimit "has a fixed input shape (ParaDL .net file): no resolution search" \
  --model "$data/paradl/model/RESNET50_ImageNet_profall.net_sc" --dataset imagenet-paradl --resolution 100..300
refuse_memlimit "error: --sides '256,128,256': lists 256 more than once" \
  --model cosmoflow --dataset cosmoflow --sides 256,128,256
refuse_memlimit "error: --sides '9,64': side 9: model 'unet3d': layer 'cat1' (concat): inputs differ in spatial size" \
  --model unet3d --dataset cosmoflow --sides 9,64
expect_rc 0 "memlimit --gpu-counts unsorted" -- "$paradise" memlimit --model resnet50 --dataset imagenet --strategy spatial --spatial-split all --gpus 18 --batch 1800 --sides 224 --gpu-counts 24,18
want=$("$paradise" memlimit --model resnet50 --dataset imagenet --strategy spatial --spatial-split all --gpus 18 --batch 1800 --sides 224 --gpu-counts 18,24 | tail -n 1)
[ "$(tail -n 1 "$tmp/out")" = "$want" ] && grep -Eq "^ *224 +18 +[0-9,]+$" "$tmp/out" && ok || bad "gpu-counts order: $(cat "$tmp/out")"
# data+spatial's groups of p2 = 4 ABCI GPUs split W x H in 2 x 2 (W only: 4 parts along W)
expect_rc 0 "predict data+spatial all" -- "$paradise" predict --model cosmoflow --dataset cosmoflow --strategy data+spatial --gpus 16 --batch 16 --spatial-split all
grep -q "split     the parallel layers up to 'conv6' (layer 16 of 27) in 2 x 2 parts along W x H," "$tmp/out" && ok || bad "data+spatial all split: $(cat "$tmp/out")"
expect_rc 0 "predict data+spatial w" -- "$paradise" predict --model cosmoflow --dataset cosmoflow --strategy data+spatial --gpus 16 --batch 16
grep -q "split     the parallel layers up to 'conv5' (layer 13 of 27) in 4 parts along W," "$tmp/out" && ok || bad "data+spatial w split: $(cat "$tmp/out")"
expect_rc 0 "predict data+spatial all paradl" -- "$paradise" predict --model cosmoflow --dataset cosmoflow --strategy data+spatial --gpus 16 --batch 16 --spatial-split all --variant paradl
grep -q "status: invalid (ParaDL's data+spatial splits the width only: --spatial-split all needs the paradise variant)" "$tmp/out" && ok || bad "data+spatial all paradl: $(cat "$tmp/out")"
# ... whatever else is wrong with the point (4 samples do not split over 128 groups)
expect_rc 0 "predict data+spatial all paradl, batch 4" -- "$paradise" predict --model resnet50 --dataset imagenet --strategy data+spatial --gpus 512 --batch 4 --spatial-split all --variant paradl
grep -q "status: invalid (ParaDL's data+spatial splits the width only" "$tmp/out" && ok || bad "data+spatial all paradl first reason: $(cat "$tmp/out")"

# -o never replaces a file the sweep reads (here its system file), nor a file that is not
# HDF5 (a program, a model file); an empty file (mktemp's) and an earlier output may be
awk '/^\[system\]$/ {f = 1} f && /^```/ {exit} f' "$sweeps/../docs/models-and-systems.md" > "$tmp/my.system"
printf '[sweep]\nmodel = resnet50\ndataset = imagenet\nsystem = %s\nstrategy = data\ngpus = 8\nbatch = 64\n' "$tmp/my.system" > "$tmp/own.ini"
cp "$tmp/my.system" "$tmp/my.system.was"
expect_rc 2 "-o a system file the sweep reads" -- "$paradise" sweep "$tmp/own.ini" --quiet -o "$tmp/my.system"
grep -qF -- "-o $tmp/my.system: is $tmp/my.system, a file the sweep reads (it would be overwritten)" "$tmp/err" \
  && cmp -s "$tmp/my.system" "$tmp/my.system.was" && ok || bad "-o input: $(cat "$tmp/err")"
cp "$paradise" "$tmp/program"
expect_rc 2 "-o a program" -- "$paradise" sweep "$tmp/own.ini" --quiet -o "$tmp/program"
grep -qF -- "-o $tmp/program: exists and is not an HDF5 file (it would be replaced)" "$tmp/err" \
  && cmp -s "$tmp/program" "$paradise" && ok || bad "-o program: $(cat "$tmp/err")"
: > "$tmp/empty.h5"
expect_rc 0 "-o an empty file" -- "$paradise" sweep "$tmp/own.ini" --quiet -o "$tmp/empty.h5"
expect_rc 0 "-o an earlier output" -- "$paradise" sweep "$tmp/own.ini" --quiet -o "$tmp/empty.h5"
rm -f "$tmp/program" "$tmp/empty.h5"
# a file-size limit (ulimit -f, 50 KiB) fails the write with "File too large", exit 2, nothing
# left behind (SIGXFSZ killed the process mid-write, leaving OUT.h5.tmp); UCX's shared-memory
# transport would hit the limit in MPI_Init already, hence TCP within the node
mkdir -p "$tmp/fsize"
expect_rc 2 "file-size limit" -- bash -c "ulimit -f 50; cd $tmp/fsize && UCX_TLS=self,tcp '$paradise' sweep '$sweeps/quickstart.ini' -o f.h5 --quiet"
grep -q "File too large" "$tmp/err" && [ -z "$(ls "$tmp/fsize")" ] && ok || bad "file-size limit: $(cat "$tmp/err"; ls "$tmp/fsize")"
# an input that never ends (/dev/zero) or a huge stray file (3 GB, sparse) is refused after at
# most 64 MiB read (1 MiB for a sweep file), naming the file: not read into memory forever
truncate -s 3G "$tmp/huge.bin"
small=(--model alexnet --dataset imagenet --gpus 4 --batch 32)
for input in /dev/zero "$tmp/huge.bin"; do
  for c in "predict ${small[*]} --system $input|system file" "predict ${small[*]} --layer-times $input|CSV file" \
           "predict --model $input --dataset imagenet --gpus 4 --batch 32|model file" \
           "predict ${small[*]} --variant paradl --layer-config $input|layer configuration file" \
           "validate --measured $input|measured-runs file" "sweep $input|sweep file" \
           "calibrate --system dgx-a100 --nccl $input:nvlink:8 -o $tmp/c.system|measurement file"; do
    expect_rc 2 "bounded read: ${c%|*}" -- timeout 60 "$paradise" ${c%|*}
    grep -qE -- "^paradise [a-z]+: error: $input: more than [0-9,]+ bytes \([0-9]+ MiB\), not a ${c#*|}\$" "$tmp/err" && ok \
      || bad "bounded read ${c%|*}: $(cat "$tmp/err")"
  done
done
rm -f "$tmp/huge.bin"
# a binary file (here its first NUL is byte 10, on line 2: "\x7fELF\n\x02\x01\x01\x03\0") or
# UTF-16 text is refused by its NUL byte and line, for every text input (the parsers quoted
# the bytes raw: the terminal got control bytes, and Boost's message stopped at the NUL)
printf '\x7fELF\n\x02\x01\x01\x03\x00\x00\x00' >"$tmp/elf.bin"
for c in "predict ${small[*]} --system $tmp/elf.bin|system file" \
         "predict --model $tmp/elf.bin --dataset imagenet --gpus 4 --batch 32|model file" \
         "validate --measured $tmp/elf.bin|measured-runs file" "sweep $tmp/elf.bin|sweep file"; do
  expect_rc 2 "binary input: ${c%|*}" -- "$paradise" ${c%|*}
  grep -qxF -- "paradise ${c%% *}: error: $tmp/elf.bin:2: a NUL byte (byte 10): not a ${c#*|} (binary; UTF-16 text: save it as UTF-8; NUL padding left by a crash: tr -d '\\000')" "$tmp/err" && ok \
    || bad "binary input ${c%|*}: $(od -c "$tmp/err" | head -5)"
done
# UTF-16 (a byte-order mark FF FE, then '[' 00): the NUL is byte 4
printf '\xff\xfe[\x00s\x00' >"$tmp/u16.ini"
expect_rc 2 "UTF-16 sweep file" -- "$paradise" sweep "$tmp/u16.ini" --dry-run
grep -qF "u16.ini:1: a NUL byte (byte 4): not a sweep file" "$tmp/err" && ok || bad "UTF-16: $(cat "$tmp/err")"
# a Latin-1 comment: the output keeps the text as UTF-8 strings, which strict readers decode
printf '[sweep]\n# caf\xe9\nmodel = resnet50\n' >"$tmp/latin1.ini"
expect_rc 2 "Latin-1 sweep file" -- "$paradise" sweep "$tmp/latin1.ini" -o "$tmp/latin1.h5"
grep -qF "latin1.ini:2: byte 14 (0xe9) is not UTF-8; the output keeps the sweep file's text as UTF-8: save the file as UTF-8" "$tmp/err" && ok || bad "Latin-1: $(cat "$tmp/err")"
[ ! -e "$tmp/latin1.h5" ] && ok || bad "no output after a Latin-1 sweep file"
# a line that is no INI is quoted like any other value: escaped, and cut after 160 characters
# with its length (Boost's own message quoted a 3,000-byte line whole)
{ printf "${base}"; printf 'y%.0s' $(seq 3000); printf '\x01\n'; } >$bad_ini
expect_rc 2 "a 3,001-byte malformed line" -- "$paradise" sweep $bad_ini --dry-run
grep -qxF "paradise sweep: error: $bad_ini:7: line '$(printf 'y%.0s' $(seq 160))... (3001 bytes)': expected [section], key = value, a # comment or a blank line" "$tmp/err" \
  && ok || bad "long malformed line: $(head -c 400 "$tmp/err")"
# control characters reach no terminal: an escape sequence in a value is \x1b both in the
# quote and in the text after it (an unknown model's name was echoed raw there), in the
# unknown command, and a form feed line (no blank line to Boost) is said with its number
printf "${base}" | sed 's/^model = resnet50/model = \x1b[31mred/' >$bad_ini
expect_rc 2 "escape sequence in a model name" -- "$paradise" sweep $bad_ini --dry-run
! grep -q $'\x1b' "$tmp/err" && grep -qF "cli_sweep.ini:2: model '\x1b[31mred': unknown model '\x1b[31mred';" "$tmp/err" && ok \
  || bad "escaped model name: $(od -c "$tmp/err" | head -3)"
expect_rc 2 "escape sequence as a command" -- "$paradise" $'fo\x1bo'
grep -qxF "paradise: unknown command 'fo\x1bo'" "$tmp/err" && ok || bad "escaped command: $(od -c "$tmp/err" | head -3)"
printf "${base}\f\n" >$bad_ini
expect_rc 2 "a form-feed line" -- "$paradise" sweep $bad_ini --dry-run
grep -qF "cli_sweep.ini:7: line '\x0c': expected [section], key = value" "$tmp/err" && ok || bad "form feed: $(cat "$tmp/err")"
# issue 35: a failed write of stdout (a full disk; /dev/full gives ENOSPC on every write) is
# exit 2 with the cause, not exit 0 and an empty file, for every command
for args in "predict --model resnet50 --dataset imagenet --system abci --strategy data --gpus 8 --batch 256 --format json" \
  "models" "systems" "recommend --model resnet50 --dataset imagenet --system abci --max-gpus 8 --batch 256" \
  "memlimit --model resnet50 --dataset imagenet --system abci --strategy data --gpus 8 --batch 32"; do
  "$paradise" $args >/dev/full 2>"$tmp/err"; rc=$?
  [ $rc = 2 ] && grep -qxF "paradise ${args%% *}: cannot write the output to stdout: No space left on device" "$tmp/err" && ok \
    || bad "$args > /dev/full: exit $rc: $(cat "$tmp/err")"
done
# issue 35: a command other than sweep under mpiexec ran once per rank (two JSON documents):
# refused by rank 0 alone, every rank exits 2
mpiexec -n 2 "$paradise" predict --model resnet50 --dataset imagenet --system abci --strategy data \
  --gpus 8 --batch 256 --format json >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
  grep -qF "paradise predict: runs on one process; it was started as rank 0 of 2 (under mpiexec?)" "$tmp/err" && ok \
  || bad "predict under mpiexec -n 2: exit $rc: $(cat "$tmp/err")"
# issue 35: sweep without a file names its usage (Boost said "option '--sweep-file' is required")
expect_rc 2 "sweep without a file" -- "$paradise" sweep
grep -qxF "paradise sweep: error: give a sweep file: paradise sweep FILE.ini [-o OUT.h5]" "$tmp/err" && ok || bad "sweep usage: $(cat "$tmp/err")"
# issue 35: --p2 0 and --segments 0 meant the default without a word
expect_rc 2 "predict --p2 0" -- "$paradise" predict --model resnet50 --dataset imagenet --system abci --strategy data+filter --gpus 8 --batch 256 --p2 0
grep -qF -- "--p2 '0': expected a whole number >= 1 or auto" "$tmp/err" && ok || bad "--p2 0: $(cat "$tmp/err")"
expect_rc 2 "predict --segments 0" -- "$paradise" predict --model resnet50 --dataset imagenet --system abci --strategy pipeline --gpus 4 --batch 256 --segments 0
grep -qF -- "--segments '0': expected a whole number >= 1 or auto" "$tmp/err" && ok || bad "--segments 0: $(cat "$tmp/err")"
# issue 39: --p2 and --segments auto: predict's choice is the best of the explicit values
# (every divisor of 64 GPUs from 2), said in the table and JSON; memlimit's largest batch
# under auto (its default) is the largest over the group sizes; recommend names each shape
hybrid=(--model resnet50 --dataset imagenet --system abci --strategy data+filter --gpus 64 --batch 1024)
for p2 in 2 4 8 16 32 64 auto; do
  "$paradise" predict "${hybrid[@]}" --p2 $p2 --format json >"$tmp/p2_$p2.json" || bad "predict --p2 $p2"
done
$py - "$tmp" <<'PY' && ok || bad "predict --p2 auto is not the best explicit group size"
import json, sys
rows = {p: json.load(open(f"{sys.argv[1]}/p2_{p}.json")) for p in (2, 4, 8, 16, 32, 64, "auto")}
ok = [p for p in (2, 4, 8, 16, 32, 64) if rows[p]["status"] == "ok"]
best = min(ok, key=lambda p: rows[p]["epoch_time_s"])
auto = rows["auto"]
assert auto["p2"] == "auto" and auto["p2_used"] == best, (auto["p2_used"], best)
assert auto["epoch_time_s"] == rows[best]["epoch_time_s"]
assert rows[4]["p2"] == "4" and rows[4]["p2_used"] == 4
PY
"$paradise" predict "${hybrid[@]}" --p2 auto >"$tmp/out"
grep -q "^  shape     [0-9]* GPUs per group (--p2 auto's choice)$" "$tmp/out" && ok || bad "predict shape line: $(grep shape "$tmp/out")"
"$paradise" predict "${hybrid[@]}" >"$tmp/out"
grep -q "^  shape     4 GPUs per group (the default: GPUs per node)$" "$tmp/out" && ok || bad "predict default shape: $(grep shape "$tmp/out")"
expect_rc 2 "predict --p2 two" -- "$paradise" predict "${hybrid[@]}" --p2 two
grep -qF -- "--p2 'two': expected a whole number >= 1 or auto" "$tmp/err" && ok || bad "--p2 two: $(cat "$tmp/err")"
"$paradise" memlimit --model resnet50 --dataset imagenet --system abci --strategy data+filter --gpus 64 --batch 256 --format json >"$tmp/auto.json" &&
  for p2 in 2 4 8 16 32 64; do
    "$paradise" memlimit --model resnet50 --dataset imagenet --system abci --strategy data+filter --gpus 64 --batch 256 --p2 $p2 --format json >"$tmp/ml_$p2.json"
  done
$py - "$tmp" <<'PY' && ok || bad "memlimit's auto largest batch is not the largest over the group sizes"
import json, sys
auto = json.load(open(f"{sys.argv[1]}/auto.json"))["largest_batch"]
each = {p: json.load(open(f"{sys.argv[1]}/ml_{p}.json"))["largest_batch"]["value"] or 0
        for p in (2, 4, 8, 16, 32, 64)}
assert auto["value"] == max(each.values()), (auto, each)
assert each[auto["p2_used"]] == auto["value"], (auto, each)
PY
expect_rc 0 "recommend shapes" -- "$paradise" recommend --model resnet50 --dataset imagenet --system abci --max-gpus 64 --batch 1024 --strategies data+filter,data+pipeline
grep -q "^  shapes     p2 auto (the best per configuration); micro-batches S auto (the best per configuration)$" "$tmp/out" &&
  grep -qE "data\+pipeline .* p2 [0-9]+, S [0-9]+ " "$tmp/out" && ok || bad "recommend shapes: $(cat "$tmp/out")"
expect_rc 2 "recommend --segments for no pipeline" -- "$paradise" recommend --model resnet50 --dataset imagenet --max-gpus 8 --batch 256 --strategies data --segments 4
grep -qF -- "--segments: micro-batches of a pipeline (pipeline, data+pipeline); --strategy data has none" "$tmp/err" && ok || bad "recommend --segments: $(cat "$tmp/err")"
# issue 35: a model's name with an escape sequence was printed raw by predict, recommend and
# models --show (errors escaped it already): written \x1b like the errors write it
printf 'model e\x1b[31mvil\ninput 3x32x32\nc\x1b]0;x\x07 conv out=8 k=3\nflat flatten\nfc dense out=10\n' >"$tmp/evil.model"
for cmd in "predict --dataset cifar10 --system abci --strategy data --gpus 1 --batch 8" \
  "recommend --dataset cifar10 --system abci --max-gpus 2 --batch 8" "models"; do
  if [ "$cmd" = models ]; then args=(models --show "$tmp/evil.model"); else args=($cmd --model "$tmp/evil.model"); fi
  expect_rc 0 "${cmd%% *} of a model with an escape sequence" -- "$paradise" "${args[@]}"
  ! grep -q $'\x1b' "$tmp/out" && grep -qF 'e\x1b[31mvil' "$tmp/out" && ok || bad "${cmd%% *} escaped name: $(od -c "$tmp/out" | head -5)"
done
grep -qF 'c\x1b]0;x\x07' "$tmp/out" && ok || bad "models --show escaped layer name"
# issue 37: implementation profiles. predict names the profile and each exchange's transport
# and overhead; an unknown name or a bad file is refused with the file, line, key and value;
# the paradl variant has none; calibrate --measured fits one that predict then reads.
impl_args=(predict --model resnet50 --dataset imagenet --system abci --strategy filter --gpus 8 --batch 64 --precision fp32)
expect_rc 0 "predict --implementation chainermnx" -- "$paradise" "${impl_args[@]}" --implementation chainermnx
grep -q "software  chainermnx" "$tmp/out" && grep -q "forward allgather of y \[FB\].*mpi-cuda-aware" "$tmp/out" && ok || bad "chainermnx table: $(cat "$tmp/out")"
expect_rc 2 "predict --implementation horovod" -- "$paradise" "${impl_args[@]}" --implementation horovod
grep -qF "unknown implementation 'horovod'; built-in: pytorch-nccl, tensorflow-horovod, mxnet-horovod, chainermnx, mpi-host-staged" "$tmp/err" && ok || bad "unknown implementation: $(cat "$tmp/err")"
expect_rc 2 "predict --variant paradl --implementation" -- "$paradise" "${impl_args[@]}" --variant paradl --implementation chainermnx
grep -qF "the paradl variant" "$tmp/err" && ok || bad "paradl implementation: $(cat "$tmp/err")"
printf '[implementation]\nname = bad\nsplit_efficiency = 2\n' >"$tmp/bad.impl"
expect_rc 2 "predict with a bad implementation file" -- "$paradise" "${impl_args[@]}" --implementation "$tmp/bad.impl"
grep -qF "$tmp/bad.impl:3: split_efficiency '2': must be in (0, 1]" "$tmp/err" && ok || bad "bad impl: $(cat "$tmp/err")"
cat >"$tmp/runs.csv" <<'CSV'
model,dataset,system,strategy,gpus,batch,precision,p2,measured_iteration_s
resnet50,imagenet,abci,filter,8,64,fp32,,0.9
resnet50,imagenet,abci,filter,16,64,fp32,,1.2
resnet50,imagenet,abci,data+spatial,16,256,fp32,4,0.5
resnet50,imagenet,abci,data+spatial,32,512,fp32,4,0.55
CSV
expect_rc 0 "calibrate --measured" -- "$paradise" calibrate --measured "$tmp/runs.csv" --implementation chainermnx -o "$tmp/fit.impl"
grep -q "held-out residual" "$tmp/out" && grep -q "^name = chainermnx-calibrated" "$tmp/fit.impl" && ok || bad "calibrate --measured: $(cat "$tmp/out")"
expect_rc 0 "predict with the fitted profile" -- "$paradise" "${impl_args[@]}" --implementation "$tmp/fit.impl"
grep -q "software  chainermnx-calibrated" "$tmp/out" && ok || bad "fitted profile: $(cat "$tmp/out")"
expect_rc 2 "calibrate -o the measured file" -- "$paradise" calibrate --measured "$tmp/runs.csv" --implementation chainermnx -o "$tmp/runs.csv"
grep -qF "is the --measured file" "$tmp/err" && head -1 "$tmp/runs.csv" | grep -q "^model," && ok || bad "calibrate -o measured: $(cat "$tmp/err")"
# a base whose loading rank (100 samples/s) makes these rows wait, where the fit's does not:
# the rate is written as a lower bound, "(at least)", the least at which no row waits: 1%
# above it no row is limited by input, 1% below it one is (at it, one row's loading rank
# takes its step to the last bits; docs/implementations.md#calibrate)
sed 's/^loader_samples_per_s = .*/loader_samples_per_s = 100/' "$tmp/fit.impl" >"$tmp/slow.impl"
expect_rc 0 "calibrate from a slow loader" -- "$paradise" calibrate --measured "$tmp/runs.csv" --implementation "$tmp/slow.impl" -o "$tmp/least.impl"
least=$(sed -n 's/^loader_samples_per_s = //p' "$tmp/least.impl")
grep -qE "^input loader rate +${least:0:7}[0-9]* \(at least\)" "$tmp/out" && ok || bad "calibrate lower bound $least: $(cat "$tmp/out")"
for side in above:1.01 below:0.99; do
  rate=$(awk -v r="$least" -v f="${side#*:}" 'BEGIN { printf "%.17g", r * f }')
  sed "s/^loader_samples_per_s = .*/loader_samples_per_s = $rate/" \
    "$tmp/least.impl" >"$tmp/${side%:*}.impl"
done
waits() {  # waits PROFILE: how many of runs.csv's rows are limited by input under it
  local n=0 strategy gpus batch p2
  while IFS=, read -r _ _ _ strategy gpus batch _ p2 _; do
    "$paradise" predict --model resnet50 --dataset imagenet --system abci --strategy "$strategy" \
      --gpus "$gpus" --batch "$batch" --precision fp32 ${p2:+--p2 "$p2"} --implementation "$1" \
      | grep -q "^status: ok; limited by input" && n=$((n + 1))
  done < <(tail -n +2 "$tmp/runs.csv")
  echo "$n"
}
[ "$(waits "$tmp/above.impl")" = 0 ] && [ "$(waits "$tmp/below.impl")" -ge 1 ] && ok \
  || bad "calibrate lower bound $least: rows waiting 1% above $(waits "$tmp/above.impl"), 1% below $(waits "$tmp/below.impl")"
cp "$tmp/fit.impl" "$tmp/fit-before.impl"
expect_rc 2 "calibrate -o the base profile's file" -- "$paradise" calibrate --measured "$tmp/runs.csv" --implementation "$tmp/fit.impl" -o "$tmp/fit.impl"
grep -qF "is the --implementation file" "$tmp/err" && cmp -s "$tmp/fit.impl" "$tmp/fit-before.impl" && ok || bad "calibrate -o base: $(cat "$tmp/err")"
finish cli_test
