// Command bench measures ldcheck's cost on a GPU machine: for each
// acceptance kernel at a launch that fills the GPU, the native kernel time
// (an unchecked run after a warm-up), the checked time (all phases), the
// slowdown, the fused check kernels' achieved bandwidth, and
// compute-sanitizer racecheck on the same launch (verdict and wall time).
// It prints a table last; the raw JSON reports go to -log.
//
//	bench -ldcheck bin/ldcheck -log $OUT/bench.log BUILDS_DIR
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// cases scale the acceptance launches up to fill a large GPU
// (1024 blocks of 256 threads is about the H100's resident limit).
var cases = []struct{ name, args string }{
	{"hs_scan_ok", "--kernel scan --grid 1024 --block 256 --arg data=float[262144]:rand"},
	{"hs_scan_racy", "--kernel scan --grid 1024 --block 256 --arg data=float[262144]:rand"},
	{"matmul_ok", "--kernel mm --grid 32,32 --block 16,16 --arg A=float[262144]:rand --arg B=float[262144]:rand --arg C=float[262144]:zero --arg n=512"},
	{"matmul_racy", "--kernel mm --grid 32,32 --block 16,16 --arg A=float[262144]:rand --arg B=float[262144]:rand --arg C=float[262144]:zero --arg n=512"},
	{"transpose_ok", "--kernel tr --grid 32,32 --block 32,8 --arg in=float[1048576]:rand --arg out=float[1048576]:zero --arg n=1024"},
	{"transpose_racy", "--kernel tr --grid 32,32 --block 32,8 --arg in=float[1048576]:rand --arg out=float[1048576]:zero --arg n=1024"},
	{"shift_ok", "--kernel k --grid 1024 --block 256 --arg in=float[262145]:rand --arg out=float[262144]:zero --arg n=262144"},
	{"loop_break_ok", "--kernel k --grid 1024 --block 64 --arg in=int[65536]:rand --arg out=int[65536]:zero"},
	{"device_sum_ww", "--kernel k --grid 1024 --block 64 --arg in=float[65536]:rand"},
	{"overlap_ww_global", "--kernel k --grid 1024 --block 32 --arg out=int[512]:zero"},
	{"shared_max_ww", "--kernel k --grid 1 --block 128 --arg in=float[128]:rand --arg out=float[1]:zero"},
}

type report struct {
	Verdict string
	Races   []struct{ Kind, Space, Scope string }
	Summary struct {
		Phases []struct {
			Name    string
			Seconds float64
			Bytes   int64
		}
	}
}

func main() {
	bin := flag.String("ldcheck", "bin/ldcheck", "the ldcheck binary")
	sanitizer := flag.String("sanitizer", "compute-sanitizer", "compute-sanitizer binary")
	logPath := flag.String("log", "bench.log", "raw output")
	flag.Parse()
	builds := flag.Arg(0)
	logf, err := os.Create(*logPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer logf.Close()
	run := func(timeout time.Duration, name string, args ...string) (string, time.Duration, error) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		fmt.Fprintf(logf, "$ %s %s\n%s%s(%v, %s)\n", name, strings.Join(args, " "), out.String(), errb.String(), err, d)
		return out.String() + errb.String(), d, err
	}
	fmt.Printf("%-18s %11s %11s %9s %10s %10s %-34s %-24s %9s\n", "kernel", "native ms", "checked ms", "slowdown", "ww GB/s", "rw GB/s", "ldcheck", "racecheck", "rc wall s")
	hazards := regexp.MustCompile(`RACECHECK SUMMARY: (\d+) hazard`)
	for _, c := range cases {
		dir := filepath.Join(builds, c.name)
		if _, _, err := run(5*time.Minute, *bin, "compile", "--device-only", "--arch", "sm_90", dir); err != nil {
			fmt.Printf("%-18s compile failed\n", c.name)
			continue
		}
		args := strings.Fields(c.args)
		nativeOut, _, _ := run(5*time.Minute, *bin, append(append([]string{"run", "--backend", "cuda", "--unchecked", "--warmup", "--format", "json"}, args...), dir)...)
		checkedOut, _, _ := run(5*time.Minute, *bin, append(append([]string{"run", "--backend", "cuda", "--warmup", "--format", "json"}, args...), dir)...)
		var native, checked report
		json.Unmarshal([]byte(nativeOut), &native)
		json.Unmarshal([]byte(checkedOut), &checked)
		nativeS, checkedS := 0.0, 0.0
		for _, p := range native.Summary.Phases {
			nativeS += p.Seconds
		}
		ww, rw := "-", "-"
		for _, p := range checked.Summary.Phases {
			checkedS += p.Seconds
			if p.Bytes > 0 && p.Seconds > 0 {
				bw := fmt.Sprintf("%.0f", float64(p.Bytes)/p.Seconds/1e9)
				if strings.HasPrefix(p.Name, "write-write") {
					ww = bw
				} else {
					rw = bw
				}
			}
		}
		verdict := checked.Verdict
		if len(checked.Races) > 0 {
			verdict = "race " + checked.Races[0].Kind + " " + checked.Races[0].Space + " " + checked.Races[0].Scope
		}
		rcOut, rcWall, rcErr := run(90*time.Second, *sanitizer, append(append([]string{"--tool", "racecheck",
			// ldcheck run does its work in a child process of itself.
			"--target-processes", "all", *bin, "run", "--backend", "cuda", "--unchecked"}, args...), dir)...)
		rc := "?"
		if m := hazards.FindStringSubmatch(rcOut); m != nil {
			rc = m[1] + " hazards"
		} else if rcErr != nil && rcWall >= 90*time.Second {
			rc = "timed out (>90 s)"
		}
		slow := "-"
		if nativeS > 0 {
			slow = fmt.Sprintf("%.1fx", checkedS/nativeS)
		}
		fmt.Printf("%-18s %11.3f %11.3f %9s %10s %10s %-34s %-24s %9.1f\n", c.name, nativeS*1000, checkedS*1000, slow, ww, rw, verdict, rc, rcWall.Seconds())
	}
}
