#!/usr/bin/env bash
# End-to-end checks of --resolution SIDE (predict, recommend): the dataset's samples re-sized
# as a sweep's resolution axis does, and the errors of a side a model cannot take.
# Usage: resolution_test.sh PATH/TO/paradise TESTS_DATA_DIR
set -uo pipefail
paradise=$1
data=$2
source "$(dirname "$0")/harness.sh"
net="$data/paradl/model/ALEXNET_ImageNet.net"

# --resolution 256 is the dataset written out at that shape (cosmoflow: 524,288 samples of
# 4 channels, `paradise datasets`): the same prediction, byte for byte
for k in data spatial; do
  expect_rc 0 "predict --resolution ($k)" -- "$paradise" predict --model unet3d --dataset cosmoflow --resolution 256 \
    --strategy $k --gpus 8 --batch 8 --format json
  mv "$tmp/out" "$tmp/by-option.json"
  expect_rc 0 "predict explicit shape ($k)" -- "$paradise" predict --model unet3d --dataset cosmoflow:524288:4x256x256x256 \
    --strategy $k --gpus 8 --batch 8 --format json
  # all but the dataset as given (cosmoflow against cosmoflow:524288:4x256x256x256)
  cmp -s <(sed 's/"dataset":"[^"]*",//' "$tmp/out") <(sed 's/"dataset":"[^"]*",//' "$tmp/by-option.json") \
    && ok || bad "--resolution 256 differs from the explicit shape ($k)"
done

# by hand: unet3d's convolutions keep the size ('same' padding) and its poolings halve it
# evenly from 128 and 256, so every activation holds 8x the values at twice the side; the
# weights do not change
for side in 128 256; do
  "$paradise" predict --model unet3d --dataset cosmoflow --resolution $side --gpus 8 --batch 8 --format json >"$tmp/at-$side.json"
done
$py - "$tmp/at-128.json" "$tmp/at-256.json" <<'PY' && ok || bad "unet3d memory from 128 to 256"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert (a["input"], b["input"]) == ("4x128x128x128", "4x256x256x256"), (a["input"], b["input"])
for part in ("saved activations (autograd)", "activation gradients"):
    assert b["memory"][part] == 8 * a["memory"][part], (part, a["memory"][part], b["memory"][part])
assert b["memory"]["weights"] == a["memory"]["weights"] == 4 * 19074051  # fp32, 19,074,051 parameters
PY

# the sweep's resolution axis at the same side: the same memory and time per point
cat >"$tmp/res.ini" <<'INI'
[sweep]
model = unet3d
dataset = cosmoflow
resolution = 64, 256
system = abci
strategy = spatial
gpus = 8
batch = 8
[output]
storage = full
INI
expect_rc 0 "sweep with a resolution axis" -- "$paradise" sweep "$tmp/res.ini" -o "$tmp/res.h5" --quiet
"$paradise" predict --model unet3d --dataset cosmoflow --resolution 256 --strategy spatial --gpus 8 --batch 8 --format json >"$tmp/p.json"
$py - "$tmp/res.h5" "$tmp/p.json" <<'PY' && ok || bad "predict --resolution against the sweep's axis"
import json, sys
import h5py
p = json.load(open(sys.argv[2]))
with h5py.File(sys.argv[1]) as f:
    r = list(f["resolution"][()]).index(256)
    at = (0, 0, r, 0, 0, 0, 0)  # model, dataset, resolution, system, strategy, gpus, batch
    assert f["memory_per_gpu_bytes"].ndim == 7
    assert f["memory_per_gpu_bytes"][at] == p["memory_per_gpu_bytes"]
    assert f["epoch_time_s"][at] == p["epoch_time_s"]
PY

# recommend: the same ranking as with the shape written out; its JSON names the shape
expect_rc 0 "recommend --resolution" -- "$paradise" recommend --model resnet50 --dataset imagenet --resolution 448 \
  --max-gpus 16 --batch 256 --format json
mv "$tmp/out" "$tmp/rec-option.json"
expect_rc 0 "recommend explicit shape" -- "$paradise" recommend --model resnet50 --dataset imagenet:1281167:3x448x448 \
  --max-gpus 16 --batch 256 --format json
$py - "$tmp/rec-option.json" "$tmp/out" <<'PY' && ok || bad "recommend --resolution against the explicit shape"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["input"] == b["input"] == "3x448x448"
assert a["dataset"] == "imagenet" and b["dataset"] == "imagenet:1281167:3x448x448"
del a["dataset"], b["dataset"]
assert a == b
assert a["feasible"] > 0
PY

# memlimit --format json: its limits are predict's boundaries (spatial on 8 DGX A100 GPUs):
# the largest batch is ok and one more is not; the largest side of 128..2048 is ok and no
# larger side of the range is (a few checked: the search is exact, not monotone); the fewest
# GPUs for a side are ok and the next smaller count tried is not
expect_rc 0 "memlimit json" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --system dgx-a100 --strategy spatial \
  --gpus 8 --batch 1 --resolution 128..2048 --sides 512,1024 --format json
$py - "$tmp/out" "$paradise" <<'PY' && ok || bad "memlimit json against predict: $(cat "$tmp/out")"
import json, subprocess, sys
m, paradise = json.load(open(sys.argv[1])), sys.argv[2]
def status(gpus, batch, side):
    out = subprocess.run([paradise, "predict", "--model", "cosmoflow", "--dataset", "cosmoflow",
                          "--system", "dgx-a100", "--strategy", "spatial", "--gpus", str(gpus),
                          "--batch", str(batch), "--resolution", str(side), "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["status"]
assert m["input"] == "4x128x128x128" and m["strategy"] == "spatial", m
b = m["largest_batch"]["value"]
assert b > 0 and m["largest_batch"]["why_none"] is None and not m["largest_batch"]["at_search_end"]
assert status(8, b, 128) == "ok" and status(8, b + 1, 128) != "ok", b
r = m["largest_resolution"]
assert (r["lo"], r["hi"], r["step"]) == (128, 2048, 1) and 128 < r["value"] < 2048, r
assert status(8, 1, r["value"]) == "ok"
for side in (r["value"] + 1, r["value"] + 2, r["value"] + 64, 2048):
    assert status(8, 1, side) != "ok", side
assert [f["side"] for f in m["fewest_gpus"]] == [512, 1024] and m["gpu_counts"][:3] == [1, 2, 4]
for f in m["fewest_gpus"]:
    g = f["gpus"]
    assert status(g, 1, f["side"]) == "ok", f
    if g > 1:
        assert status(g // 2, 1, f["side"]) != "ok", f
# the largest batch on --gpus 8 at each listed side: ok, and one more is not
assert [l["side"] for l in m["largest_batch_at_sides"]] == [512, 1024]
for l in m["largest_batch_at_sides"]:
    assert l["value"] > 0 and l["why_none"] is None, l
    assert status(8, l["value"], l["side"]) == "ok" and status(8, l["value"] + 1, l["side"]) != "ok", l
PY
# at the dataset's own side (128) the per-side batch is the top-level one; where none fits it
# says why (unet3d's data-parallel batch of 8 on 8 DGX A100 GPUs at 512^3: out of memory)
expect_rc 0 "memlimit json sides" -- "$paradise" memlimit --model unet3d --dataset cosmoflow --system dgx-a100 --strategy data \
  --gpus 8 --batch 8 --sides 128,512 --format json
$py -c 'import json, sys; m = json.load(open(sys.argv[1])); a, b = m["largest_batch_at_sides"]
assert (a["side"], a["value"]) == (128, m["largest_batch"]["value"]) and a["value"] > 0, m
assert b["side"] == 512 and b["value"] is None and b["why_none"].startswith("at batch 8: out_of_memory, needs "), b
# no GPU count fits 512^3: data parallelism holds least at 8 GPUs (one sample each; more
# cannot divide the batch of 8), so the reason is at 8
f, g = m["fewest_gpus"]
assert f["gpus"] > 0 and f["why_none"] is None, f
assert g["gpus"] is None and g["why_none"].startswith("on 8 GPUs, its smallest footprint, at batch 8: out_of_memory, needs "), g' "$tmp/out" \
  && ok || bad "memlimit json sides: $(cat "$tmp/out")"
expect_rc 0 "memlimit table sides" -- "$paradise" memlimit --model unet3d --dataset cosmoflow --system dgx-a100 --strategy data \
  --gpus 8 --batch 8 --sides 128,512
grep -Eq "^ 512 +none +none$" "$tmp/out" &&
  grep -q "^  side 512: no GPU count of --gpu-counts 1..4096 \*2 fits, on 8 GPUs, its smallest footprint, at batch 8: out_of_memory" "$tmp/out" &&
  grep -q "^  side 512: no batch fits on 8 GPUs, at batch 8: out_of_memory" "$tmp/out" && ok || bad "memlimit table sides: $(cat "$tmp/out")"
# nothing found is null with the reason: unet3d over sides none a multiple of 8
expect_rc 0 "memlimit json none" -- "$paradise" memlimit --model unet3d --dataset cosmoflow --gpus 8 --batch 8 --resolution 20..100 --step 8 --format json
# (with why the range's first side is not taken: a range off the model's grid of 8)
$py -c 'import json, sys; r = json.load(open(sys.argv[1]))["largest_resolution"]
assert r["value"] is None and r["at_search_end"] is False, r
assert r["why_none"].startswith("no side of the range that the model takes; side 20: model '"'"'unet3d'"'"'"), r
assert "divisible by 2 to the number of poolings, 8 for unet3d" in r["why_none"], r' "$tmp/out" \
  && ok || bad "memlimit json none: $(cat "$tmp/out")"
# a limit at the top of its search is a lower bound, said so: the range's last side and
# --max-batch fit, and predict finds the next side and the next batch the GPUs divide fit
# too (unet3d data parallel on DGX A100: 128^3 with batch 8 on 8 GPUs, which hold 64 samples
# at most; 1,024 GPUs hold 8,192, found without --max-batch)
expect_rc 0 "memlimit at the top json" -- "$paradise" memlimit --model unet3d --dataset cosmoflow --system dgx-a100 \
  --gpus 8 --batch 8 --resolution 16..128 --step 8 --max-batch 48 --format json
$py - "$tmp/out" "$paradise" <<'PY' && ok || bad "memlimit at the top json: $(cat "$tmp/out")"
import json, subprocess, sys
m, paradise = json.load(open(sys.argv[1])), sys.argv[2]
def status(gpus, batch, side):
    out = subprocess.run([paradise, "predict", "--model", "unet3d", "--dataset", "cosmoflow",
                          "--system", "dgx-a100", "--gpus", str(gpus), "--batch", str(batch),
                          "--resolution", str(side), "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["status"]
r, b = m["largest_resolution"], m["largest_batch"]
assert (r["value"], r["at_search_end"]) == (128, True), r
assert (b["value"], b["at_search_end"]) == (48, True), b
assert status(8, 8, 136) == "ok" and status(8, 56, 128) == "ok" and status(8, 64, 128) == "ok"
PY
# the range's end need not be a side the model takes: 64..100 +4 ends at 100, which unet3d's
# poolings cannot halve three times, so 96 is the last side looked at that it takes (it said
# "96", a limit, though 104 was never tried); predict finds 104 fits too
expect_rc 0 "memlimit at the last taken side" -- "$paradise" memlimit --model unet3d --dataset cosmoflow \
  --system dgx-a100 --gpus 8 --batch 8 --resolution 64..100 --step 4
grep -q "^  largest feasible side at batch 8: 96 or more: the top of the range 64..100 (" "$tmp/out" &&
  "$paradise" predict --model unet3d --dataset cosmoflow --system dgx-a100 --gpus 8 --batch 8 \
    --resolution 104 --format json | $py -c 'import json, sys; assert json.load(sys.stdin)["status"] == "ok"' &&
  ok || bad "memlimit at the last taken side: $(cat "$tmp/out")"
expect_rc 0 "memlimit at the top table" -- "$paradise" memlimit --model unet3d --dataset cosmoflow --system dgx-a100 \
  --gpus 1024 --batch 1024 --max-batch 4096 --sides 128
grep -q "^  largest feasible global batch: 4,096 or more: the top of the search (--max-batch 4,096) (" "$tmp/out" &&
  grep -Eq "^ 128 +128 +4,096\+$" "$tmp/out" &&
  grep -q "^  N+: the top of the batch search (--max-batch 4,096); a larger batch may fit$" "$tmp/out" &&
  ok || bad "memlimit at the top table: $(cat "$tmp/out")"
# 9 samples per GPU (77.1 GB) fit in the A100-80GB's 80.85 GB usable (totalGlobalMem
# 85,100,068,864 B less 5%), 10 (85.6 GB: 8.46 GB more per sample) do not: 9 x 1,024 GPUs
expect_rc 0 "memlimit below the top" -- "$paradise" memlimit --model unet3d --dataset cosmoflow --system dgx-a100 \
  --gpus 1024 --batch 1024 --format json
$py -c 'import json, sys; b = json.load(open(sys.argv[1]))["largest_batch"]
assert (b["value"], b["at_search_end"]) == (9216, False), b' "$tmp/out" \
  && ok || bad "memlimit below the top: $(cat "$tmp/out")"
expect_rc 2 "memlimit --format xml" -- "$paradise" memlimit --model cosmoflow --dataset cosmoflow --gpus 8 --batch 8 --format xml
grep -qF -- "--format 'xml': expected table or json" "$tmp/err" && ok || bad "memlimit --format xml: $(cat "$tmp/err")"

# a side the model cannot take: exit 2, the option, the side and the reason
check_refused() {  # check_refused DESCRIPTION WORDS... -- command...
  local what=$1; shift
  local words=()
  while [ "$1" != "--" ]; do words+=("$1"); shift; done
  expect_rc 2 "$what" "$@"
  local w
  for w in "${words[@]}"; do
    grep -qF -- "$w" "$tmp/err" && ok || bad "$what: no '$w' in: $(cat "$tmp/err")"
  done
}
check_refused "side 0" "--resolution 0: must be >= 1" -- \
  "$paradise" predict --model resnet50 --dataset imagenet --resolution 0 --gpus 4 --batch 32
check_refused "side -3" "--resolution -3: must be >= 1" -- \
  "$paradise" recommend --model resnet50 --dataset imagenet --resolution -3 --max-gpus 4 --batch 32
check_refused "side abc" "'abc'" "--resolution" -- \
  "$paradise" predict --model resnet50 --dataset imagenet --resolution abc --gpus 4 --batch 32
check_refused "ParaDL .net" "--resolution 64: model '$net' is a ParaDL .net file, whose input shape is fixed" -- \
  "$paradise" predict --model "$net" --resolution 64 --gpus 4 --batch 32
check_refused "ParaDL .net (recommend)" "--resolution 64:" "input shape is fixed" -- \
  "$paradise" recommend --model "$net" --resolution 64 --max-gpus 4 --batch 32
check_refused "no dataset" "--resolution 64: re-sizes the samples of --dataset, which is not given" -- \
  "$paradise" predict --model resnet50 --resolution 64 --gpus 4 --batch 32
# 100 -> 50 -> 25 -> 12: unet3d's decoder concatenates 24^3 with 25^3
check_refused "unet3d at 100" "--resolution 100: samples 4x100x100x100: model 'unet3d'" "inputs differ in spatial size" -- \
  "$paradise" predict --model unet3d --dataset cosmoflow --resolution 100 --gpus 4 --batch 4
check_refused "2-D model, 3-D data" "--resolution 64: samples 4x64x64x64: model 'resnet50' takes 2-D inputs" -- \
  "$paradise" recommend --model resnet50 --dataset cosmoflow --resolution 64 --max-gpus 4 --batch 4
# the hint names the rule: unet3d's three poolings need a multiple of 8
"$paradise" predict --model unet3d --dataset cosmoflow --resolution 100 --gpus 4 --batch 4 2>"$tmp/err"
grep -qF "(each downsampling before it must divide the input's side evenly: a side divisible by 2 to the number of poolings, 8 for unet3d)" "$tmp/err" \
  && ok || bad "unet3d hint: $(cat "$tmp/err")"
# past the supported sizes (2^48 elements): said of --resolution, not of --dataset
check_refused "side 65536" "--resolution 65536: dataset shape '4x65536x65536x65536': too large" -- \
  "$paradise" predict --model cosmoflow --dataset cosmoflow --resolution 65536 --gpus 4 --batch 4
check_refused "unknown dataset" "--dataset: dataset 'cosmoflowx': unknown dataset" -- \
  "$paradise" predict --model cosmoflow --dataset cosmoflowx --resolution 128 --gpus 4 --batch 4
# memlimit's --resolution is a range to search; one side says where one side goes
check_refused "memlimit one side" "--resolution '256': memlimit searches a range, LO..HI" "for one side use predict --resolution 256" -- \
  "$paradise" memlimit --model cosmoflow --dataset cosmoflow --gpus 8 --batch 8 --resolution 256

# an error that is not the side's is said as without the option
: >"$tmp/empty.csv"
expect_rc 2 "layer times error" -- "$paradise" predict --model resnet50 --dataset imagenet --resolution 448 \
  --gpus 4 --batch 32 --layer-times "$tmp/empty.csv"
grep -q "^paradise predict: error: $tmp/empty.csv: no header row" "$tmp/err" && ok || bad "layer times error: $(cat "$tmp/err")"

finish resolution_test
