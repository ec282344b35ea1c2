#!/usr/bin/env bash
# End-to-end checks of `paradise validate`: on NVIDIA's ResNet-50 runs (tests/data/measured/
# runs.csv) every row's projection, accuracy and the summary equal a hand computation from
# separate `paradise predict` runs; a run perturbed x2 is an anomaly with its cause; the rank
# agreement of strategies by hand; the paradl variant refuses non-fp32 rows; roofline rows
# carry the framework's time per step as a part; bad CSVs exit 2 naming file, line, column and
# value.
# Usage: validate_test.sh PATH/TO/paradise TESTS_DATA_DIR
set -uo pipefail
paradise=$1
data=$2
source "$(dirname "$0")/harness.sh"
runs=$data/measured/runs.csv

# (1) NVIDIA's rows: each row predicted separately by `paradise predict` with the row's system,
# precision, batch and 1-GPU time per sample; accuracy = 1 - |projected - measured| / measured
# (ParaDL's metric), computed here from those outputs.
expect_rc 0 "validate runs.csv" -- "$paradise" validate --measured "$runs" --variant paradise --format json
cp "$tmp/out" "$tmp/nvidia.json"
$py - "$runs" <<'PY' >"$tmp/configs" || bad "reading runs.csv"
import csv, sys
rows = csv.DictReader(line for line in open(sys.argv[1]) if not line.startswith("#"))
for r in rows:
    print(r["system"], r["strategy"], r["gpus"], r["batch"], r["precision"], r["time_per_sample"])
PY
: >"$tmp/predicted"
while read -r system strategy gpus batch precision tps; do
  expect_rc 0 "predict $system $precision $batch" -- "$paradise" predict --model resnet50 --dataset imagenet \
    --system "$system" --strategy "$strategy" --gpus "$gpus" --batch "$batch" --variant paradise \
    --precision "$precision" --time-per-sample "$tps" --format json
  cat "$tmp/out" >>"$tmp/predicted"
done <"$tmp/configs"
$py - "$runs" "$tmp/nvidia.json" "$tmp/predicted" <<'PY' && ok || bad "validate rows and summary equal the hand computation"
import csv, json, sys
rows = list(csv.DictReader(line for line in open(sys.argv[1]) if not line.startswith("#")))
v = json.load(open(sys.argv[2]))
predicted = [json.loads(line) for line in open(sys.argv[3]) if line.strip()]
assert len(rows) == len(v["rows"]) == len(predicted) == 16, (len(rows), len(v["rows"]))
close = lambda a, b: abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1e-300)
acc = []
for r, out, p in zip(rows, v["rows"], predicted):
    # the input columns echoed: text as written, numbers as numbers
    for k in ("model", "dataset", "system", "strategy", "precision", "gpu", "container", "images_per_sec_8"):
        assert out[k] == r[k], (k, out[k], r[k])
    assert out["batch_note"] == (r["batch_note"] or None)
    assert out["gpus"] == int(r["gpus"]) and out["batch"] == int(r["batch"])
    assert out["status"] == "ok" and out["basis"] == "iteration", out
    m = float(r["measured_iteration_s"])
    assert close(out["measured_s"], m)
    assert close(out["projected_s"], p["iteration_time_s"]), (out["projected_s"], p["iteration_time_s"])
    a = 1 - abs(p["iteration_time_s"] - m) / m  # ParaDL's accuracy metric
    assert close(out["accuracy"], a), (out["accuracy"], a)
    # the parts on the same (per-iteration) basis: communication before and after overlap as
    # predict's epoch totals / iterations, and they add up to the projection (issue 36: the
    # compute part is one whole batch's, as iteration_time_s is, not the epoch's mean)
    it = p["iterations_per_epoch"]
    assert close(out["projected_communication_s"], p["epoch_communication_s"] / it)
    assert close(out["projected_overlapped_s"], p["epoch_overlapped_s"] / it)
    exposed = out["projected_communication_s"] - out["projected_overlapped_s"]
    assert close(out["projected_exposed_communication_s"], exposed)
    assert close(out["projected_input_wait_s"], p["epoch_input_wait_s"] / it)
    # a measured time per sample of whole steps holds the framework's time per step
    assert out["projected_step_overhead_s"] == 0 == p["epoch_step_overhead_s"], (out, p)
    total = (out["projected_compute_s"] + exposed + out["projected_input_wait_s"]
             + out["projected_step_overhead_s"])
    assert abs(total - out["projected_s"]) <= 1e-12 * out["projected_s"]
    # ImageNet's 1,281,167 samples are no multiple of these batches: the epoch's mean compute
    # (the partial last batch) is below one whole batch's
    assert out["projected_compute_s"] > p["epoch_compute_s"] / it, (out, p)
    assert out["projected_memory_bytes"] == p["memory_per_gpu_bytes"]
    assert out["anomaly"] is None, out  # all within 25% (docs/validation.md: 13 of 16 within 5%)
    acc.append(a)
# issue 37: the default profile keeps NVIDIA's 8-GPU pairs where they were, 13 of the 16
# within 5% of the measured time (the three others, PyTorch 21.03 in mixed precision, are
# 11-14% too fast)
assert sum(a >= 0.95 for a in acc) >= 13, acc
s = v["summary"]
assert s["rows"] == 16 and s["compared"] == 16 and s["anomalies"] == 0, s
assert close(s["mean_accuracy"], sum(acc) / len(acc)), (s["mean_accuracy"], sum(acc) / len(acc))
assert list(s["per_strategy"]) == ["data"] and close(s["per_strategy"]["data"], sum(acc) / len(acc))
# one strategy only: no pair of strategies to rank
assert s["rank_agreement"]["pairs"] == 0 and s["rank_agreement"]["kendall_tau"] is None
open(sys.argv[2] + ".acc", "w").write(json.dumps(acc))
PY

# (2) --threshold 0.1: exactly the rows whose hand-computed error exceeds 10% are anomalies
# (the 21.03 AMP rows, input-bound at 8 GPUs: docs/validation.md).
expect_rc 0 "validate --threshold 0.1" -- "$paradise" validate --measured "$runs" --variant paradise \
  --threshold 0.1 --format json
$py - "$tmp/out" "$tmp/nvidia.json.acc" <<'PY' && ok || bad "threshold 0.1 flags the rows beyond 10%"
import json, sys
v = json.load(open(sys.argv[1]))
acc = json.load(open(sys.argv[2]))
flagged = [r["anomaly"] is not None for r in v["rows"]]
assert flagged == [1 - a > 0.1 for a in acc], (flagged, acc)
assert sum(flagged) == 3, flagged
for r in v["rows"]:
    if r["anomaly"]:
        # no part columns: the projection's dominant part (compute) and the check for a run
        # slower than projected
        assert r["precision"] == "mixed" and r["container"] == "pytorch-21.03", r
        assert r["anomaly"]["part"] == "compute", r["anomaly"]
        assert "input pipeline" in r["anomaly"]["hint"], r["anomaly"]
PY

# (3) a perturbed row: measured time x2 -> an anomaly (error -50%: the projection is half);
# another with its measured communication 10x the projection and compute as projected ->
# the cause is communication.
$py - "$runs" "$tmp/nvidia.json" "$tmp/perturbed.csv" <<'PY' || bad "writing the perturbed CSV"
import csv, json, sys
lines = [l for l in open(sys.argv[1]) if not l.startswith("#")]
rows = list(csv.DictReader(lines))
v = json.load(open(sys.argv[2]))["rows"]
fields = list(rows[0]) + ["measured_compute_s", "measured_communication_s"]
for r in rows:
    r["measured_compute_s"] = r["measured_communication_s"] = ""
rows[3]["measured_iteration_s"] = repr(2 * float(rows[3]["measured_iteration_s"]))
rows[5]["measured_iteration_s"] = repr(2 * float(rows[5]["measured_iteration_s"]))
rows[5]["measured_compute_s"] = repr(v[5]["projected_compute_s"])
rows[5]["measured_communication_s"] = repr(10 * v[5]["projected_communication_s"])
with open(sys.argv[3], "w", newline="") as f:
    w = csv.DictWriter(f, fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
PY
expect_rc 0 "validate perturbed" -- "$paradise" validate --measured "$tmp/perturbed.csv" --variant paradise --format json
$py - "$tmp/out" "$tmp/nvidia.json" <<'PY' && ok || bad "perturbed rows are anomalies with their cause"
import json, sys
v = json.load(open(sys.argv[1]))
base = json.load(open(sys.argv[2]))["rows"]
flagged = [i for i, r in enumerate(v["rows"]) if r["anomaly"]]
assert flagged == [3, 5], flagged
r = v["rows"][3]
# measured doubled: accuracy = 1 - |p - 2m| / 2m = p / 2m = (1 + a0 - 1 ...) by hand from the base row
p, m = base[3]["projected_s"], base[3]["measured_s"]
assert abs(r["accuracy"] - (1 - abs(p - 2 * m) / (2 * m))) < 1e-12
assert r["line"] == 5 and r["anomaly"]["part"] == "compute", r  # header on line 1, rows from 2
assert "kernel efficiency" in r["anomaly"]["hint"]
c = v["rows"][5]["anomaly"]
assert c["part"] == "communication", c
assert "10.00x the projection" in c["cause"], c
assert "congestion" in c["hint"] and "NCCL" in c["hint"], c
# the summary's anomaly count and mean follow the rows
assert v["summary"]["anomalies"] == 2
accs = [x["accuracy"] for x in v["rows"]]
assert abs(v["summary"]["mean_accuracy"] - sum(accs) / len(accs)) < 1e-12
PY
# the table names the anomalies and what to check
expect_rc 0 "validate perturbed table" -- "$paradise" validate --measured "$tmp/perturbed.csv" --variant paradise
grep -q "ANOMALY" "$tmp/out" && grep -q "^anomalies:" "$tmp/out" && grep -q "check: " "$tmp/out" \
  && grep -q "mean accuracy" "$tmp/out" && ok || bad "table: anomalies and checks: $(cat "$tmp/out")"

# (4) rank agreement: ResNet-50 on 16 ABCI GPUs (paradl variant), four strategies with
# measured epoch times chosen so that the two fastest projected swap places: by hand, 6 pairs,
# 5 concordant, 1 discordant: tau = (5 - 1) / 6.
for k in data filter data+filter data+spatial; do
  expect_rc 0 "predict $k" -- "$paradise" predict --model resnet50 --dataset imagenet --system abci \
    --strategy "$k" --gpus 16 --batch 256 --format json
  cp "$tmp/out" "$tmp/rank-$k.json"
done
$py - "$tmp" <<'PY' || bad "writing the rank CSV"
import json, sys
t = sys.argv[1]
kinds = ("data", "filter", "data+filter", "data+spatial")
p = {k: json.load(open(f"{t}/rank-{k}.json"))["epoch_time_s"] for k in kinds}
assert len(set(p.values())) == 4, p  # no ties in the projection
order = sorted(p, key=p.get)  # projected order, fastest first
# measured: the projected order with the first two swapped (one discordant pair)
measured = {order[1]: 100.0, order[0]: 110.0, order[2]: 300.0, order[3]: 400.0}
with open(f"{t}/rank.csv", "w") as f:
    f.write("# strategies of one (model, GPUs) with made-up measured epochs\n")
    f.write("strategy,model,dataset,system,gpus,batch,precision,measured_epoch_s,site\n")
    for k in kinds:
        f.write(f"{k},resnet50,imagenet,abci,16,256,fp32,{measured[k]},lab\n")
    # another group (8 GPUs) with a single strategy adds no pair
    f.write("data,resnet50,imagenet,abci,8,256,fp32,500,lab\n")
json.dump({"order": order, "measured": measured}, open(f"{t}/rank-expect.json", "w"))
PY
expect_rc 0 "validate rank" -- "$paradise" validate --measured "$tmp/rank.csv" --format json
$py - "$tmp/out" "$tmp/rank-expect.json" <<'PY' && ok || bad "rank agreement by hand"
import json, sys
v = json.load(open(sys.argv[1]))
e = json.load(open(sys.argv[2]))
ra = v["summary"]["rank_agreement"]
assert ra["pairs"] == 6 and ra["concordant"] == 5 and ra["discordant"] == 1 and ra["tied"] == 0, ra
assert abs(ra["kendall_tau"] - 4 / 6) < 1e-12 and abs(ra["fraction_concordant"] - 5 / 6) < 1e-12, ra
g, = ra["groups"]
assert g["gpus"] == 16 and g["measured_order"] == sorted(e["measured"], key=e["measured"].get), g
assert all(r["basis"] == "epoch" and r["site"] == "lab" for r in v["rows"])
assert set(v["summary"]["per_strategy"]) == {"data", "filter", "data+filter", "data+spatial"}
PY

# (5) the paradl variant models fp32 only: mixed and tf32 rows are per-row errors, not compared
expect_rc 0 "validate paradl" -- "$paradise" validate --measured "$runs" --variant paradl --format json
$py - "$tmp/out" <<'PY' && ok || bad "paradl: non-fp32 rows are errors"
import json, sys
v = json.load(open(sys.argv[1]))
for r in v["rows"]:
    if r["precision"] == "fp32":
        # ParaDL's memory model: 112-128 samples per 16 GB GPU do not fit, still compared
        assert r["status"] in ("ok", "out_of_memory") and r["accuracy"] is not None, r
    else:
        assert r["status"] == "error" and "fp32 only" in r["reason"] and r["accuracy"] is None, r
n = sum(r["precision"] == "fp32" for r in v["rows"])
assert v["summary"]["compared"] == n == 6, (v["summary"], n)
PY
# --system overrides every row's system
expect_rc 0 "validate --system" -- "$paradise" validate --measured "$runs" --variant paradise --system dgx-h100 --format json
$py -c 'import json,sys; assert {r["system"] for r in json.load(open(sys.argv[1]))["rows"]} == {"dgx-h100"}' "$tmp/out" \
  && ok || bad "--system override"

# (5b) without a measured time the roofline's step pays the framework's time per step: the
# parts, that one included, add up to the projection and equal predict's, per iteration and
# per epoch (docs/implementations.md)
printf 'model,dataset,system,strategy,gpus,batch,precision,measured_iteration_s,measured_epoch_s\n' >"$tmp/roofline.csv"
printf 'resnet50,imagenet,dgx-a100,data,8,256,tf32,0.1,\nresnet50,imagenet,dgx-a100,filter,4,64,tf32,,600\n' >>"$tmp/roofline.csv"
expect_rc 0 "validate roofline rows" -- "$paradise" validate --measured "$tmp/roofline.csv" --format json
cp "$tmp/out" "$tmp/roofline.json"
: >"$tmp/roofline_predicted"
for cfg in "data 8 256" "filter 4 64"; do
  set -- $cfg
  expect_rc 0 "predict roofline $1" -- "$paradise" predict --model resnet50 --dataset imagenet --system dgx-a100 \
    --strategy "$1" --gpus "$2" --batch "$3" --precision tf32 --format json
  cat "$tmp/out" >>"$tmp/roofline_predicted"
done
$py - "$tmp/roofline.json" "$tmp/roofline_predicted" <<'PY' && ok || bad "roofline rows: the step overhead is a part"
import json, sys
v = json.load(open(sys.argv[1]))
predicted = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
for out, p in zip(v["rows"], predicted):
    it = p["iterations_per_epoch"]
    scale = 1 / it if out["basis"] == "iteration" else 1
    step = p["epoch_step_overhead_s"]
    assert step > 0 and abs(out["projected_step_overhead_s"] - step * scale) <= 1e-12 * step, (out, p)
    if out["basis"] == "iteration":
        exposed = out["projected_communication_s"] - out["projected_overlapped_s"]
        total = (out["projected_compute_s"] + exposed + out["projected_input_wait_s"]
                 + out["projected_step_overhead_s"])
        assert abs(total - out["projected_s"]) <= 1e-12 * out["projected_s"], (total, out)
    else:
        assert abs(out["projected_s"] - p["epoch_time_s"]) <= 1e-12 * p["epoch_time_s"], (out, p)
PY

# (6) bad input: exit 2, the message names the file, line, column and value
bad_csv() {  # bad_csv WANTED... -- CSV_TEXT
  local wants=()
  while [ "$1" != "--" ]; do wants+=("$1"); shift; done
  printf '%s\n' "$2" >"$tmp/bad.csv"
  expect_rc 2 "bad csv ${wants[*]}" -- "$paradise" validate --measured "$tmp/bad.csv"
  for w in "${wants[@]}"; do
    grep -qF -- "$w" "$tmp/err" || bad "bad csv: message lacks '$w': $(cat "$tmp/err")"
  done
  ok
}
head="model,dataset,system,strategy,gpus,batch,precision,measured_iteration_s"
bad_csv "bad.csv:1" "column 'precision'" "required column" -- \
  "model,dataset,system,strategy,gpus,batch,measured_iteration_s"$'\n'"resnet50,imagenet,abci,data,8,512,0.3"
bad_csv "bad.csv:1" "measured_epoch_s" -- \
  "model,dataset,system,strategy,gpus,batch,precision"$'\n'"resnet50,imagenet,abci,data,8,512,fp32"
bad_csv "bad.csv:3" "column gpus 'eight'" "integer" -- \
  "$head"$'\n'"resnet50,imagenet,abci,data,8,512,fp32,0.3"$'\n'"resnet50,imagenet,abci,data,eight,512,fp32,0.3"
bad_csv "bad.csv:2" "column measured_iteration_s '0.3s'" "number" -- \
  "$head"$'\n'"resnet50,imagenet,abci,data,8,512,fp32,0.3s"
bad_csv "bad.csv:2" "column model 'resnet51'" "unknown model" -- \
  "$head"$'\n'"resnet51,imagenet,abci,data,8,512,fp32,0.3"
bad_csv "bad.csv:2" "column system 'nosuch'" -- \
  "$head"$'\n'"resnet50,imagenet,nosuch,data,8,512,fp32,0.3"
bad_csv "bad.csv:2" "column strategy 'zigzag'" -- \
  "$head"$'\n'"resnet50,imagenet,abci,zigzag,8,512,fp32,0.3"
bad_csv "bad.csv:2" "column precision 'fp64'" -- \
  "$head"$'\n'"resnet50,imagenet,abci,data,8,512,fp64,0.3"
bad_csv "bad.csv:2" "9 fields" "has 8" -- \
  "$head"$'\n'"resnet50,imagenet,abci,data,8,512,fp32,0.3,extra"
bad_csv "bad.csv:2" "column measured_iteration_s ''" -- \
  "$head"$'\n'"resnet50,imagenet,abci,data,8,512,fp32,"
bad_csv "bad.csv:1" "column 'accuracy'" -- \
  "$head,accuracy"$'\n'"resnet50,imagenet,abci,data,8,512,fp32,0.3,0.9"
# measurements that contradict each other: a part longer than the whole; an epoch that is
# not about the iteration x ceil(1,281,167 / 512) = 2,503 iterations (here 1 / (0.3 x 2503))
bad_csv "bad.csv:2" "column measured_compute_s '0.9'" "more than measured_iteration_s 0.3" -- \
  "$head,measured_compute_s"$'\n'"resnet50,imagenet,abci,data,8,512,fp32,0.3,0.9"
bad_csv "bad.csv:2" "column measured_epoch_s '1'" "0.00133x measured_iteration_s x 2503 iterations" -- \
  "$head,measured_epoch_s"$'\n'"resnet50,imagenet,abci,data,8,512,fp32,0.3,1"
# a measured peak far above the GPU's memory (16 GB stated for ABCI's V100) is a wrong unit,
# not a result; 16 GiB (17.18e9 B, what the V100 holds) is accepted, 1.25 x 16e9 + 1 is not
bad_csv "bad.csv:2" "column measured_memory_bytes '20000000001'" "more than 1.25x the 16.00 GB of a GPU of system 'abci'" -- \
  "$head,measured_memory_bytes"$'\n'"resnet50,imagenet,abci,data,8,512,fp32,0.3,20000000001"
printf '%s\n' "$head,measured_memory_bytes" "resnet50,imagenet,abci,data,8,512,fp32,0.3,17179869184" >"$tmp/gib.csv"
expect_rc 0 "validate a 16 GiB peak on a 16 GB V100" -- "$paradise" validate --measured "$tmp/gib.csv"
# the column at fault when both files are given: the layer-times file, not the layer config
bad_csv "bad.csv:2" "column layer_times '$tmp/nosuch.csv'" -- \
  "$head,layer_config,layer_times"$'\n'"$data/paradl/model/RESNET50_ImageNet_profall.net_sc,imagenet-paradl,abci,filter,8,512,fp32,0.3,$data/paradl/model/filter_resnet.lc,$tmp/nosuch.csv"
# the row's workload cannot be built: the columns at fault are named
bad_csv "bad.csv:2" "column layer_config '$tmp/nosuch.lc'" "cannot open" -- \
  "$head,layer_config"$'\n'"resnet50,imagenet,abci,data,8,512,fp32,0.3,$tmp/nosuch.lc"
bad_csv "bad.csv:2" "columns model, dataset 'resnet50, cosmoflow'" "takes 2-D inputs" -- \
  "$head"$'\n'"resnet50,cosmoflow,abci,data,8,512,fp32,0.3"

# (7) a run that was measured although the model says it is out of memory is an anomaly of
# the memory model, even with the time right: filter parallelism keeps the whole batch's
# activations on each of 8 ABCI GPUs (25.2 GB > 16 GB at batch 256); the time given here
# is the projection's own, so only the memory can be at fault.
want=$("$paradise" predict --model resnet50 --dataset imagenet --system abci --strategy filter --gpus 8 --batch 256 --format json |
  $py -c 'import json,sys; p=json.load(sys.stdin); assert p["status"]=="out_of_memory", p["status"]; print(repr(p["iteration_time_s"]))')
printf '%s\n' "$head" "resnet50,imagenet,abci,filter,8,256,fp32,$want" >"$tmp/oom.csv"
expect_rc 0 "validate a measured out-of-memory run" -- "$paradise" validate --measured "$tmp/oom.csv" --format json
$py - "$tmp/out" <<'PY' && ok || bad "measured but out of memory: $(cat "$tmp/out")"
import json, sys
v = json.load(open(sys.argv[1]))
r = v["rows"][0]
assert r["status"] == "out_of_memory" and abs(r["accuracy"] - 1) < 1e-12, r
assert r["anomaly"]["part"] == "memory", r["anomaly"]
assert r["anomaly"]["cause"].startswith("the run was measured, but the model says it does not fit (needs "), r
assert v["summary"]["anomalies"] == 1, v["summary"]
PY
# a byte that is not UTF-8 in an echoed column (a Latin-1 'é' from a spreadsheet): the JSON
# stays valid, with U+FFFD in its place
printf '%s\n' "$head,notes" "resnet50,imagenet,abci,data,8,512,fp32,0.3,caf"$'\xe9' >"$tmp/latin1.csv"
expect_rc 0 "validate a Latin-1 cell" -- "$paradise" validate --measured "$tmp/latin1.csv" --format json
$py -c 'import json,sys; r=json.load(open(sys.argv[1], encoding="utf-8"))["rows"][0]; assert r["notes"] == "caf\ufffd", r' "$tmp/out" \
  && ok || bad "a Latin-1 cell in JSON: $(cat "$tmp/out")"
# a p2 on a strategy without groups is refused, as predict's --p2 is (it was ignored)
printf '%s\n' "$head,p2" "resnet50,imagenet,abci,data,8,512,fp32,0.3,4" >"$tmp/p2.csv"
expect_rc 2 "validate a p2 on a data row" -- "$paradise" validate --measured "$tmp/p2.csv"
grep -qF "p2.csv:2: column p2 '4': GPUs per group of the hybrids (data+filter, data+spatial, data+pipeline); strategy 'data' has no groups (leave the cell empty)" "$tmp/err" && ok || bad "p2 on data: $(cat "$tmp/err")"
# an absurd but possible measurement (a nanosecond) prints in exponent form, not as many
# digits; an impossible one (1e-300 s, which gave an accuracy of -inf at 4.9e-324) is
# refused with its line, column and value
printf '%s\n' "$head" "resnet50,imagenet,abci,data,8,512,fp32,1e-9" >"$tmp/tiny.csv"
expect_rc 0 "validate 1e-9 s" -- "$paradise" validate --measured "$tmp/tiny.csv"
grep -Eq "mean accuracy .*: -[0-9.]+e\+[0-9]+ over 1 runs" "$tmp/out" && [ "$(wc -L <"$tmp/out")" -lt 400 ] && ok ||
  bad "1e-9 s: $(cat "$tmp/out")"
for t in 1e-300 4.9e-324 1e300; do
  printf '%s\n' "$head" "resnet50,imagenet,abci,data,8,512,fp32,$t" >"$tmp/tiny.csv"
  expect_rc 2 "validate $t s" -- "$paradise" validate --measured "$tmp/tiny.csv"
  grep -qF "tiny.csv:2: column measured_iteration_s '$t': must be in [1e-09, 1e+09] (implausible)" "$tmp/err" && ok ||
    bad "validate $t s: $(cat "$tmp/err")"
done

expect_rc 2 "missing file" -- "$paradise" validate --measured "$tmp/nosuch.csv"
grep -qF "nosuch.csv" "$tmp/err" && ok || bad "missing file named"
expect_rc 2 "bad threshold" -- "$paradise" validate --measured "$runs" --threshold 0
expect_rc 2 "infinite threshold" -- "$paradise" validate --measured "$runs" --threshold inf
grep -qF -- "--threshold 'inf': expected a relative error > 0 and at most 10 (1,000%)" "$tmp/err" && ok || bad "infinite threshold: $(cat "$tmp/err")"
expect_rc 2 "huge threshold" -- "$paradise" validate --measured "$runs" --threshold 1e300
grep -qF -- "--threshold '1e+300': expected a relative error > 0 and at most 10" "$tmp/err" && ok || bad "huge threshold: $(cat "$tmp/err")"
expect_rc 2 "bad variant" -- "$paradise" validate --measured "$runs" --variant x

finish validate_test
