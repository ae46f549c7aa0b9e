#!/usr/bin/env bash
# GPU machine: Nsight Compute on level 1's check kernels alone, one case of
# BenchmarkPageChecks (what limits them: the issue rate, the memory, or
# the waits on dependent loads), with the header's -D knobs of
# LDCHECK_BENCH_NVCC if set (as checkvars.sh):
#   CGO_ENABLED=0 go test -c -o .dev/t/gpuruntime.test ./gpuruntime   # here; carry .dev/t
#   OUT=dir benchmarks/profile/checkncu.sh [CASE/KERNEL ..., default 128B-1copy/ww]
# Prints throughput against the peaks, occupancy, the warps' stall reasons
# and, per launch, registers; writes $OUT/checkncu.csv (ncu's raw page).
# (First run in the forty-eighth session, ncu of CUDA 13 on the H200; the
# L2 sector counts were added after its device time was spent: their
# names are ncu's documented ones, not yet run.)
set -u
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH
# prof [--metrics LIST]: one ncu run of case $c.
prof() {
  ncu --clock-control none -k regex:'^ldc_pages_(ww|rw|index)' --launch-count 4 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis "$@" \
    -f -o "$OUT/checkncu-$i" .dev/t/gpuruntime.test -test.run '^$' -test.bench "PageChecks/$c\$" -test.benchtime 1x >"$OUT/checkncu-run-$i.txt" 2>&1
}
[ $# -gt 0 ] || set -- 128B-1copy/ww
i=0
for c in "$@"; do
i=$((i + 1))
# What the L2 serves, in sectors of 32 bytes (the write-write kernel's L2
# was at 79% with the DRAM at 52%); without them where ncu knows them not.
prof --metrics lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_requests_srcunit_tex.sum,dram__sectors_read.sum,dram__sectors_write.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum
rc=$?
[ $rc = 0 ] || { echo "== $c: ncu rc $rc with the L2 sector metrics, again without"; prof; rc=$?; }
echo "== $c: ncu rc $rc"
ncu --import "$OUT/checkncu-$i.ncu-rep" --page raw --csv >"$OUT/checkncu-$i.csv"
python3 - "$OUT/checkncu-$i.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = rows[0]
want = ["Kernel Name", "gpu__time_duration.sum", "launch__registers_per_thread", "sm__warps_active.avg.pct_of_peak_sustained_active",
        "sm__throughput.avg.pct_of_peak_sustained_elapsed", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
        "dram__bytes.sum.per_second", "dram__cycles_active.avg.pct_of_peak_sustained_elapsed", "lts__throughput.avg.pct_of_peak_sustained_elapsed",
        "lts__t_sector_hit_rate.pct", "smsp__issue_active.avg.per_cycle_active",
        # what the L2 serves (sectors of 32 bytes): the write-write kernel's L2 was at 79% with the DRAM at 52%
        "lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum", "lts__t_sectors_op_atom.sum", "lts__t_requests_srcunit_tex.sum",
        "lts__t_sectors_srcunit_tex_lookup_miss.sum", "dram__sectors_read.sum", "dram__sectors_write.sum"]
idx = {h: i for i, h in enumerate(head)}
for r in rows[2:]:
    print(" | ".join("%s=%s" % (w.replace(".pct_of_peak_sustained", "%"), r[idx[w]]) for w in want if w in idx))
    st = sorted(((float(r[i].replace(",", "") or 0), h) for h, i in idx.items()
                 if "warps_issue_stalled" in h and h.endswith("per_issue_active.ratio")), reverse=True)[:6]
    for v, h in st:
        print("    %10.2f %s" % (v, h))
PY
done
