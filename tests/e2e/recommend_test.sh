#!/usr/bin/env bash
# End-to-end checks of `paradise recommend`: the ranking against separate `paradise predict`
# runs, the three objectives, --top, why-not reasons, bad input, and its speed.
# Usage: recommend_test.sh PATH/TO/paradise
set -uo pipefail
paradise=$1
source "$(dirname "$0")/harness.sh"
rec=("$paradise" recommend --model resnet50 --dataset imagenet --system abci)

# (1) ranked by epoch time; each row equals a separate `predict` of that configuration, and
# the winner beats every feasible configuration predicted here.
expect_rc 0 "recommend json" -- "${rec[@]}" --max-gpus 64 --batch 1024 --format json
cp "$tmp/out" "$tmp/time.json"
$py - "$tmp/time.json" <<'PY' && ok || bad "recommend json: keys, order, why_not"
import json, sys
r = json.load(open(sys.argv[1]))
assert {"ranked", "why_not", "objective", "model", "system"} <= set(r), set(r)
assert r["objective"] == "time" and r["model"] == "resnet50" and r["system"] == "abci"
rows = r["ranked"]
assert rows, "no feasible configuration"
need = {"strategy", "gpus", "batch", "epoch_time_s", "compute_s", "communication_s",
        "framework_s", "input_wait_s", "memory_per_gpu_bytes", "gpu_hours", "limiting_factor",
        "status"}
assert all(need <= set(x) for x in rows)
assert all(x["status"] == "ok" and x["batch"] == 1024 and x["gpus"] <= 64 for x in rows)
t = [x["epoch_time_s"] for x in rows]
assert t == sorted(t), t
# every strategy is either ranked or explained
strategies = {"serial", "data", "spatial", "filter", "channel", "pipeline", "data+filter", "data+spatial",
              "data+pipeline", "daso"}
assert set(r["why_not"]) == strategies - {x["strategy"] for x in rows}, r["why_not"]
assert all(isinstance(v, str) and v for v in r["why_not"].values())
PY
# the ranked rows with the shapes recommend used (p2_used, segments_used: its search,
# --p2 auto --segments auto, is the paradise variant's default), then a handful of other
# configurations with the shapes searched, each predicted separately
shapes='
import json, sys
for x in json.load(open(sys.argv[1]))["ranked"][:int(sys.argv[2])]:
    shape = ["--p2 %d" % x["p2_used"]] if "p2_used" in x else []
    shape += ["--segments %d" % x["segments_used"]] if "segments_used" in x else []
    print(x["strategy"], x["gpus"], x["batch"], *shape)
'
configs=$($py -c "$shapes" "$tmp/time.json" 4)
configs+=$'\n'"data 8 1024"$'\n'"data 16 1024"$'\n'"data 64 1024"$'\n'"pipeline 16 1024 --segments auto"
configs+=$'\n'"filter 64 1024"$'\n'"data+filter 64 1024 --p2 auto"$'\n'"data+spatial 32 1024 --p2 auto"
configs+=$'\n'"serial 1 1024"
: >"$tmp/predicted"
while read -r kind gpus batch shape; do
  # shellcheck disable=SC2086 # the shape options are words
  expect_rc 0 "predict $kind $gpus $batch $shape" -- "$paradise" predict --model resnet50 --dataset imagenet \
    --system abci --strategy "$kind" --gpus "$gpus" --batch "$batch" --format json $shape
  cat "$tmp/out" >>"$tmp/predicted"
done <<<"$configs"
$py - "$tmp/time.json" "$tmp/predicted" <<'PY' && ok || bad "recommend rows equal predict"
import json, sys
r = json.load(open(sys.argv[1]))
predicted = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
by_key = {(p["strategy"], p["gpus"], p["batch"]): p for p in predicted}
checked = 0
for x in r["ranked"][:4]:
    p = by_key[(x["strategy"], x["gpus"], x["batch"])]
    assert p["status"] == "ok", p
    # the same numbers, bit for bit (both print %.17g)
    assert x["epoch_time_s"] == p["epoch_time_s"], (x, p)
    assert x["compute_s"] == p["epoch_compute_s"], (x, p)
    assert x["communication_s"] == p["epoch_communication_s"], (x, p)
    assert x["framework_s"] == p["epoch_step_overhead_s"], (x, p)
    assert x["input_wait_s"] == p["epoch_input_wait_s"], (x, p)
    assert x["memory_per_gpu_bytes"] == p["memory_per_gpu_bytes"], (x, p)
    assert x["limiting_factor"] == p["limiting_factor"], (x, p)
    assert abs(x["gpu_hours"] - p["epoch_time_s"] * p["gpus"] / 3600) <= 1e-12 * x["gpu_hours"]
    checked += 1
assert checked >= 1
feasible = [p["epoch_time_s"] for p in predicted if p["status"] == "ok"]
assert len(feasible) >= 2, feasible
assert r["ranked"][0]["epoch_time_s"] == min(feasible), (r["ranked"][0], min(feasible))
# every infeasible configuration predicted here is absent from the ranking
bad = {(p["strategy"], p["gpus"], p["batch"]) for p in predicted if p["status"] != "ok"}
assert not bad & {(x["strategy"], x["gpus"], x["batch"]) for x in r["ranked"]}
PY

# (1b) the training options (precision, optimizer, ZeRO, recomputation) reach every
# configuration: the ranked rows equal predict's with the same options, and the json and
# the table say which they were
train=(--precision mixed --optimizer adam --zero 2 --recompute)
expect_rc 0 "recommend ${train[*]}" -- "${rec[@]}" --max-gpus 64 --batch 1024 --top 3 --format json "${train[@]}"
cp "$tmp/out" "$tmp/train.json"
: >"$tmp/train-predicted"
while read -r kind gpus batch shape; do
  # shellcheck disable=SC2086 # the shape options are words
  "$paradise" predict --model resnet50 --dataset imagenet --system abci --strategy "$kind" --gpus "$gpus" \
    --batch "$batch" --format json "${train[@]}" $shape >>"$tmp/train-predicted"
done < <($py -c "$shapes" "$tmp/train.json" 3)
$py - "$tmp/train.json" "$tmp/train-predicted" "$tmp/time.json" <<'PY' && ok || bad "recommend's training options = predict's"
import json, sys
r = json.load(open(sys.argv[1]))
assert (r["precision"], r["optimizer"], r["zero_stage"], r["recompute"]) == ("mixed", "adam", 2, True), r
predicted = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
assert len(predicted) == len(r["ranked"]) == 3
for x, p in zip(r["ranked"], predicted):
    assert p["precision"] == "mixed" and p["optimizer"] == "adam" and p["zero_stage"] == 2, p
    assert x["epoch_time_s"] == p["epoch_time_s"] and x["memory_per_gpu_bytes"] == p["memory_per_gpu_bytes"], (x, p)
# and they change the answer: fp32 with momentum is slower at its best
fp32 = json.load(open(sys.argv[3]))
assert fp32["precision"] == "fp32" and fp32["optimizer"] == "momentum" and fp32["zero_stage"] == 0
assert r["ranked"][0]["epoch_time_s"] < fp32["ranked"][0]["epoch_time_s"], (r["ranked"][0], fp32["ranked"][0])
PY
expect_rc 0 "recommend table ${train[*]}" -- "${rec[@]}" --max-gpus 8 --batch 256 --top 1 "${train[@]}"
grep -q "^  training   mixed precision, adam optimizer, ZeRO stage 2, activation recomputation$" "$tmp/out" \
  && ok || bad "recommend table names the training options: $(cat "$tmp/out")"

# (2) gpu-hours: epoch time x GPUs / 3600, fewest first
expect_rc 0 "recommend gpu-hours" -- "${rec[@]}" --max-gpus 512 --batch-range 64..1024 \
  --objective gpu-hours --top 25 --format json
$py - "$tmp/out" <<'PY' && ok || bad "gpu-hours order"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["objective"] == "gpu-hours"
rows = r["ranked"]
assert len(rows) == 25, len(rows)
h = [x["epoch_time_s"] * x["gpus"] / 3600 for x in rows]
assert all(abs(a - x["gpu_hours"]) <= 1e-12 * a for a, x in zip(h, rows))
assert h == sorted(h), h
assert {x["batch"] for x in rows} <= {64, 128, 256, 512, 1024}
assert {x["gpus"] for x in rows} <= {1, 2, 4, 8, 16, 32, 64, 128, 256, 512}
assert len({x["gpus"] for x in rows}) > 1 and len({x["batch"] for x in rows}) > 1
# not simply the fastest: the time ranking differs
t = [x["epoch_time_s"] for x in rows]
assert t != sorted(t)
PY

# (3) memory-headroom: the least memory per GPU first, ties by epoch time then fewer GPUs
expect_rc 0 "recommend memory-headroom" -- "${rec[@]}" --max-gpus 512 --batch-range 64..1024 \
  --objective memory-headroom --top 25 --format json
$py - "$tmp/out" <<'PY' && ok || bad "memory-headroom order"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["objective"] == "memory-headroom"
rows = r["ranked"]
assert len(rows) == 25, len(rows)
key = [(x["memory_per_gpu_bytes"], x["epoch_time_s"], x["gpus"]) for x in rows]
assert key == sorted(key), key
PY

# (4) nothing fits: every strategy explained, serial and filter out of memory (at the
# defaults' shapes: searched, the pipelines fit batch 4,096 on 4 GPUs in micro-batches of
# 4 samples)
expect_rc 0 "recommend nothing fits" -- "$paradise" recommend --model vgg16 --dataset imagenet \
  --system abci --max-gpus 4 --batch 4096 --p2 4 --segments 4 --format json
$py - "$tmp/out" <<'PY' && ok || bad "why_not out of memory"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["ranked"] == [], r["ranked"]
w = r["why_not"]
assert len(w) == 10, w  # every strategy, data+pipeline and daso too (paradise variant only)
for k in ("serial", "filter", "data"):
    assert w[k].startswith("out of memory: needs "), (k, w[k])
    assert "per GPU, the GPU has" in w[k], (k, w[k])
PY
expect_rc 0 "recommend nothing fits (table)" -- "$paradise" recommend --model vgg16 --dataset imagenet \
  --system abci --max-gpus 4 --batch 4096 --p2 4 --segments 4
grep -q "no feasible configuration" "$tmp/out" && grep -Eq "^  serial +out of memory: needs" "$tmp/out" \
  && ok || bad "table: no feasible configuration, serial out of memory"
# nothing fits: what would, each memory-saving setting alone, then together, then the largest
# smaller batch. Each entry is what recommend gives with those options added (its feasible
# count and winner); no batch between the smaller one and the one asked fits.
# UNet3D at 576^3, batch 64 on up to 1,024 DGX A100 GPUs: data+spatial's 1 sample per group
# of 8 needs 97 GB in fp32, past the 76 GB usable (at 512^3 it fits: 68.6 GB).
# (ParaDL's width-only split, --spatial-split w, and groups of a node's 8 GPUs, --p2 8: auto,
# the default of both, fits spatial on 1,024 and data+spatial in groups of 16)
unet=("$paradise" recommend --model unet3d --dataset cosmoflow --resolution 576 --system dgx-a100 --max-gpus 1024 --spatial-split w --p2 8)
expect_rc 0 "recommend what would fit" -- "${unet[@]}" --batch 64 --format json
$py - "$tmp/out" "${unet[@]}" <<'PY' && ok || bad "what would fit: $(cat "$tmp/out")"
import json, subprocess, sys
r, unet = json.load(open(sys.argv[1])), sys.argv[2:]
def run(*extra):
    base = unet
    if "--spatial-split" in extra:  # the change replaces the split given (given once)
        i = base.index("--spatial-split")
        base = base[:i] + base[i + 2:]
    out = subprocess.run(base + ["--top", "1", "--format", "json", *extra], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)
assert r["feasible"] == 0
ch = r["if_changed"]
alone = ["--precision mixed", "--recompute", "--zero 3", "--spatial-split all"]
assert [c["options"] for c in ch[:5]] == alone + [" ".join(alone)], ch
assert ch[5]["options"].startswith("--batch ") and len(ch) == 6, ch
for c in ch:
    opts = c["options"].split()
    got = run(*(opts if opts[0] == "--batch" else ["--batch", "64", *opts]))
    assert got["feasible"] == c["feasible"], (c, got["feasible"])
    if c["best"] is None:
        assert got["ranked"] == [], c
        continue
    top = got["ranked"][0]
    for k in ("strategy", "gpus", "batch", "epoch_time_s", "memory_per_gpu_bytes"):
        assert top[k] == c["best"][k], (c, top)
assert ch[0]["feasible"] > 0  # mixed precision: 16-bit activations fit the 76 GB
b = int(ch[5]["options"].split()[1])
assert 1 <= b < 64 and ch[5]["feasible"] > 0, ch[5]
for larger in range(b + 1, 64):  # every batch between fits nowhere (not only the halvings)
    assert run("--batch", str(larger))["feasible"] == 0, (b, larger)
PY
grep -q '"if_changed":\[\]' "$tmp/time.json" && ok || bad "if_changed is empty when something fits"
expect_rc 0 "recommend what would fit (table, paradl)" -- "$paradise" recommend --model unet3d --dataset cosmoflow \
  --resolution 512 --system abci --max-gpus 1024 --batch 64 --variant paradl
grep -q "^what would fit (each change alone, the rest as given; the largest smaller batch):" "$tmp/out" &&
  grep -Eq "^  --spatial-split all +nothing fits$" "$tmp/out" && grep -Eq "^  --batch 1 to 63 +nothing fits$" "$tmp/out" &&
  ! grep -q -- "--precision mixed" "$tmp/out" && ok || bad "what would fit, paradl: $(cat "$tmp/out")"
# serial alone: ZeRO shards over GPUs, so --zero 3 is not offered; batch 1 has no smaller one
expect_rc 0 "recommend what would fit (serial)" -- "$paradise" recommend --model vgg16 --dataset imagenet \
  --max-gpus 1 --batch 1 --strategies serial --format json --system abci --resolution 4096
$py -c 'import json, sys; r = json.load(open(sys.argv[1]))
assert r["feasible"] == 0 and [c["options"] for c in r["if_changed"]] == ["--precision mixed", "--recompute",
    "--precision mixed --recompute"], r["if_changed"]' "$tmp/out" && ok || bad "what would fit, serial: $(cat "$tmp/out")"

# a strategy with feasible points that lost: its best point relative to the winner (ParaDL's
# model: data parallelism wins, the hybrids are communication-bound)
expect_rc 0 "recommend losers" -- "${rec[@]}" --variant paradl --max-gpus 4096 --batch-range 32..8192 --format json
$py - "$tmp/out" <<'PY' && ok || bad "why_not for feasible losers"
import json, re, sys
r = json.load(open(sys.argv[1]))
w = r["why_not"]
assert r["ranked"][0]["strategy"] == "data"
for k in ("pipeline", "data+filter"):
    m = re.match(r"best at ([\d,]+) GPUs?, batch (\d+) \(([\d.]+) s per epoch\): ([\d.]+)x the winner's epoch time", w[k])
    assert m, (k, w[k])
    assert float(m.group(4)) > 1
    assert abs(float(m.group(3)) / r["ranked"][0]["epoch_time_s"] - float(m.group(4))) < 0.1
assert "communication-bound" in w["data+filter"], w["data+filter"]
# ParaDL's memory model keeps every layer's x and y: spatial parallelism of ResNet-50 fits
# 16 GB at no GPU count (more than 7 GPUs split fewer layers: the 7-wide ones cannot be), and
# beyond 112 GPUs even its first convolution (112 wide) cannot be split
assert w["spatial"].startswith("out of memory: needs "), w["spatial"]
assert "the others invalid, e.g. 4096 parts > the extent 112 of spatial dimension 1 of the first parallel layer" in w["spatial"], w["spatial"]
PY

# --spatial-split all: CosmoFlow's spatial parallelism (batch 64) on ABCI's 16 GB. The width
# alone: 128 and 256 GPUs are more than conv1's 126 columns, and 64 split conv1 alone (conv2
# is 63 wide), gathering its whole output (126^3 x 16 x 64 samples x 4 B = 8.2 GB) on every
# GPU; depth, height and width split (64 = 4 x 4 x 4) reach conv5 on all of them. 2 GPUs fit
# either way (14.1 GB), 1 does not (27.4 GB).
expect_rc 0 "recommend spatial w" -- "$paradise" recommend --model cosmoflow --dataset cosmoflow --max-gpus 256 --batch 64 --strategies spatial --spatial-split w --format json
$py -c 'import json,sys; r=json.load(open(sys.argv[1])); assert sorted(x["gpus"] for x in r["ranked"]) == [2, 4, 8, 16, 32], r' "$tmp/out" && ok || bad "spatial w: $(cat "$tmp/out")"
expect_rc 0 "recommend spatial all" -- "$paradise" recommend --model cosmoflow --dataset cosmoflow --max-gpus 256 --batch 64 --strategies spatial --spatial-split all --format json
$py -c 'import json,sys; r=json.load(open(sys.argv[1])); assert sorted(x["gpus"] for x in r["ranked"]) == [2, 4, 8, 16, 32, 64, 128, 256], r' "$tmp/out" && ok || bad "spatial all: $(cat "$tmp/out")"
# each spatial row names its last split layer, as predict does for that configuration
$py - "$tmp/out" "$paradise" <<'PY' && ok || bad "recommend split_layer equals predict's"
import json, subprocess, sys
for row in json.load(open(sys.argv[1]))["ranked"]:
    p = json.loads(subprocess.run([sys.argv[2], "predict", "--model", "cosmoflow", "--dataset", "cosmoflow",
                                   "--strategy", "spatial", "--gpus", str(row["gpus"]), "--batch", "64",
                                   "--spatial-split", "all", "--format", "json"],
                                  check=True, capture_output=True, text=True).stdout)
    assert row["split_layer"] and row["split_layer"] == p["split_layer"], (row, p["split_layer"])
    # the parts multiply to the GPUs, e.g. 16 = 4 x 2 x 2 over W, H, D
    assert row["split_parts"] == p["split_parts"] and len(row["split_parts"]) == 3, (row, p)
    assert row["split_parts"][0] * row["split_parts"][1] * row["split_parts"][2] == row["gpus"], row
PY
expect_rc 2 "recommend spatial-split bad" -- "$paradise" recommend --model cosmoflow --dataset cosmoflow --max-gpus 8 --spatial-split xy
grep -q -- "--spatial-split 'xy': expected w, hw, all or auto" "$tmp/err" && ok || bad "spatial-split xy: $(cat "$tmp/err")"

# (5) --top 3: three rows, in JSON and in the table
expect_rc 0 "recommend top 3 json" -- "${rec[@]}" --max-gpus 256 --batch-range 128..2048 --top 3 --format json
$py -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["ranked"]) == 3' "$tmp/out" && ok || bad "top 3 json"
expect_rc 0 "recommend top 3 table" -- "${rec[@]}" --max-gpus 256 --batch-range 128..2048 --top 3
[ "$(grep -Ec '^ +[0-9]+  [a-z+]+( \*)? +[0-9]+ +[0-9]+ ' "$tmp/out")" -eq 3 ] && grep -q "epoch s" "$tmp/out" \
  && grep -q "why not the others (not in the top 3)" "$tmp/out" && ok || bad "top 3 table: $(cat "$tmp/out")"

# every configuration of 10 strategies x 13 GPU counts x 8 batches is evaluated (its speed is
# a benchmark matter, not a test's): serial only on 1 GPU, the 9 others from 2 (on 1 GPU they
# are serial)
expect_rc 0 "recommend large" -- "${rec[@]}" --max-gpus 4096 --batch-range 32..4096 --format json
$py -c 'import json,sys; assert json.load(open(sys.argv[1]))["evaluated"] == 9 * 12 * 8 + 8' "$tmp/out" \
  && ok || bad "evaluated count (serial only on 1 GPU)"
# without serial, the others keep their 1-GPU configurations; with only 1 GPU they say why not
expect_rc 0 "recommend without serial" -- "${rec[@]}" --max-gpus 4 --batch 64 --strategies data,filter --format json
$py -c 'import json,sys; j = json.load(open(sys.argv[1])); assert j["evaluated"] == 2 * 3, j["evaluated"]' "$tmp/out" \
  && ok || bad "evaluated without serial"
expect_rc 0 "recommend on 1 GPU" -- "${rec[@]}" --max-gpus 1 --batch 64 --strategies serial,data --format json
$py -c 'import json,sys; j = json.load(open(sys.argv[1])); assert j["why_not"]["data"] == "not evaluated: on 1 GPU it is serial", j' "$tmp/out" \
  && ok || bad "1 GPU: data is serial"

# (6) bad input: exit 2, the message names the option and the value
bad_input() {  # bad_input WANTED_IN_MESSAGE -- arguments after `recommend`
  local want=$1; shift 2
  expect_rc 2 "recommend $*" -- "$paradise" recommend "$@"
  grep -qF -- "$want" "$tmp/err" && ok || bad "recommend $*: message lacks '$want': $(cat "$tmp/err")"
}
base=(--model resnet50 --dataset imagenet --system abci)
bad_input "--max-gpus '0'" -- "${base[@]}" --max-gpus 0 --batch 64
bad_input "--max-gpus' is required" -- "${base[@]}" --batch 64
bad_input "--batch-range '10..5'" -- "${base[@]}" --max-gpus 8 --batch-range 10..5
bad_input "--batch-range '64-128'" -- "${base[@]}" --max-gpus 8 --batch-range 64-128
bad_input "--batch-range '0..8'" -- "${base[@]}" --max-gpus 8 --batch-range 0..8
bad_input "--batch-range 'a..b'" -- "${base[@]}" --max-gpus 8 --batch-range a..b
bad_input "--batch '64' and --batch-range '1..8'" -- "${base[@]}" --max-gpus 8 --batch 64 --batch-range 1..8
bad_input "--batch or --batch-range" -- "${base[@]}" --max-gpus 8
bad_input "--batch '0'" -- "${base[@]}" --max-gpus 8 --batch 0
bad_input "--model: unknown model 'resnet51'" -- --model resnet51 --dataset imagenet --max-gpus 8 --batch 64
bad_input "--system: unknown system 'nosuch'" -- --model resnet50 --dataset imagenet --system nosuch --max-gpus 8 --batch 64
bad_input "--strategies 'data,zigzag': 'zigzag' is not one of serial," -- "${base[@]}" --max-gpus 8 --batch 64 --strategies data,zigzag
# an empty list was taken as every strategy; a space after the comma is no part of a name
bad_input "--strategies '': expected a comma-separated list of serial," -- "${base[@]}" --max-gpus 8 --batch 64 --strategies ""
expect_rc 0 "recommend --strategies 'data, filter'" -- "$paradise" recommend "${base[@]}" --max-gpus 8 --batch 64 --strategies "data, filter" --format json
grep -q '"filter"' "$tmp/out" && ok || bad "--strategies 'data, filter': $(head -c 300 "$tmp/out")"
bad_input "--objective 'speed'" -- "${base[@]}" --max-gpus 8 --batch 64 --objective speed
# time to train (docs/time-to-train.md): refused without epochs, naming the pair; a bad
# --epochs-to-target names the option and value
bad_input "--objective 'time-to-train': no epochs-to-target model for model 'vgg16' on dataset 'imagenet'" -- --model vgg16 --dataset imagenet --max-gpus 8 --batch 64 --objective time-to-train
bad_input "--epochs-to-target '0': expected E_MIN or E_MIN:NOISE_BATCH" -- "${base[@]}" --max-gpus 8 --batch 64 --epochs-to-target 0
# with epochs given, the ranking is by epochs x epoch: the first row's time to train is the
# least of the rows, and each row's epochs are E_MIN (1 + B / NOISE_BATCH) by hand
expect_rc 0 "recommend --objective time-to-train" -- "$paradise" recommend --model vgg16 --dataset imagenet --system dgx-a100 \
  --max-gpus 64 --batch-range 256..8192 --strategies data --objective time-to-train --epochs-to-target 74:20000 --top 50 --format json
$py - "$tmp/out" <<'PY' && ok || bad "time-to-train ranking: $(head -c 300 "$tmp/out")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["convergence"]["epochs_min"] == 74 and r["convergence"]["noise_batch"] == 20000
rows = r["ranked"]
for x in rows:
    assert abs(x["epochs_to_target"] - 74 * (1 + x["batch"] / 20000)) <= 1e-12 * x["epochs_to_target"], x
    assert abs(x["time_to_train_s"] - x["epochs_to_target"] * x["epoch_time_s"]) <= 1e-9 * x["time_to_train_s"]
t = [x["time_to_train_s"] for x in rows]
assert t == sorted(t), t
PY
bad_input "--variant 'paradl2'" -- "${base[@]}" --max-gpus 8 --batch 64 --variant paradl2
bad_input "--top '0'" -- "${base[@]}" --max-gpus 8 --batch 64 --top 0
bad_input "--format 'csv'" -- "${base[@]}" --max-gpus 8 --batch 64 --format csv
bad_input "--precision 'fp8': expected fp32, tf32 or mixed" -- "${base[@]}" --max-gpus 8 --batch 64 --precision fp8
bad_input "--optimizer 'lamb'" -- "${base[@]}" --max-gpus 8 --batch 64 --optimizer lamb
bad_input "--zero '4': expected 0 to 3" -- "${base[@]}" --max-gpus 8 --batch 64 --zero 4
# ParaDL has no precision or optimizer policy: refused under its variant (--recompute was
# taken and ignored)
bad_input "--precision 'mixed': the paradl variant models fp32 only" -- "${base[@]}" --max-gpus 8 --batch 64 --variant paradl --precision mixed
bad_input "--recompute: a policy of the paradise variant" -- "${base[@]}" --max-gpus 8 --batch 64 --variant paradl --recompute

# a ParaDL .net model without --dataset: the JSON names its own dataset as --dataset takes
# it (from the file's "Dataset|ImageNet" and "Input|1280000x3x226x226" lines; it printed "")
net=$(cd "$(dirname "$0")/../data/paradl/model" && pwd)/RESNET50_ImageNet_profall.net_sc
expect_rc 0 "recommend .net json" -- "$paradise" recommend --model "$net" --system abci --max-gpus 8 --batch 256 --variant paradl --format json
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["dataset"]; assert d == "ImageNet:1280000:3x226x226", d' "$tmp/out" \
  && ok || bad "recommend .net dataset: $(head -c 300 "$tmp/out")"
# issue 35: a strategy listed twice is refused, as a sweep's strategy axis refuses it
expect_rc 2 "recommend --strategies data,data" -- "$paradise" recommend --model resnet50 --dataset imagenet --max-gpus 8 --batch 64 --strategies data,data
grep -qF -- "--strategies 'data,data': lists data more than once" "$tmp/err" && ok || bad "repeated strategy: $(cat "$tmp/err")"

finish recommend_test
