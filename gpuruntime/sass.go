package gpuruntime

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"ldcheck/privatize/manifest"
)

// sassModule is a PTX module of a build to compile ahead for the GPU, with
// the register cap a run loads it with.
type sassModule struct {
	ptx  string
	regs int
}

// sassModules are the modules a run loads at its start or on its common
// paths: the checked, level-1 and one-pass modules with each register cap
// a run may load them with (RegisterCap, and LargeBlockRegisterCap for
// blocks of 288 to 512 threads, where the JIT took 27 to 62 s of a first
// run on the H100; the one-pass module also with
// SmallBlockOnePassRegisterCap), and the tracing, native and tested
// modules uncapped.
// The deterministic and intra-warp modules are left to the JIT: only
// their modes load them.
func sassModules(m *manifest.Manifest) []sassModule {
	var out []sassModule
	for _, regs := range []int{RegisterCap, LargeBlockRegisterCap} {
		for _, p := range []string{m.PTX, m.BlockPTX, m.OnePassPTX} {
			if p != "" {
				out = append(out, sassModule{p, regs})
			}
		}
	}
	if m.OnePassPTX != "" {
		out = append(out, sassModule{m.OnePassPTX, SmallBlockOnePassRegisterCap})
	}
	for _, p := range []string{m.TracePTX, m.NativePTX, m.TestedPTX} {
		if p != "" {
			out = append(out, sassModule{p, 0})
		}
	}
	return out
}

// sassArch is the architecture to compile SASS for: --arch, else the GPU
// present; "" when neither says (SASS for a guess would not load).
func sassArch(opt BuildOptions) string {
	if opt.Arch != "" {
		return opt.Arch
	}
	return detectArch()
}

// compileSASS has ptxas compile the modules for arch, all at once, into
// the cubins SASSPath names. The driver's JIT would otherwise compile each
// at a run's start (tens of seconds for an instrumented module, paid by
// every first run of a build, and by every run once the driver's cache is
// full). A failure is a note: the run compiles the PTX as before.
func compileSASS(ctx context.Context, dir, nvcc, arch string, mods []sassModule) []string {
	if arch == "" {
		return []string{"no SASS compiled ahead (no GPU here and no --arch): the driver compiles the PTX at a run's start"}
	}
	ptxas := filepath.Join(filepath.Dir(nvcc), "ptxas")
	if _, err := os.Stat(ptxas); err != nil {
		if ptxas, err = exec.LookPath("ptxas"); err != nil {
			return []string{"no SASS compiled ahead (no ptxas beside " + nvcc + "): the driver compiles the PTX at a run's start"}
		}
	}
	errs := make([]error, len(mods))
	atOnce(len(mods), runtime.NumCPU(), func(i int) {
		mod := mods[i]
		args := []string{"-arch=" + arch}
		if mod.regs > 0 {
			args = append(args, fmt.Sprintf("-maxrregcount=%d", mod.regs))
		}
		args = append(args, "-o", SASSPath(mod.ptx, arch, mod.regs), mod.ptx)
		errs[i] = run(ctx, dir, ptxas, args)
	})
	var made []string
	var notes []string
	for i, mod := range mods {
		if errs[i] != nil {
			notes = append(notes, fmt.Sprintf("no SASS for %s (the driver compiles it at a run's start): %v", mod.ptx, errs[i]))
			continue
		}
		made = append(made, SASSPath(mod.ptx, arch, mod.regs))
	}
	if len(made) > 0 {
		notes = append([]string{fmt.Sprintf("SASS for %s (ptxas, loaded instead of the JIT): %s", arch, strings.Join(made, ", "))}, notes...)
	}
	return notes
}

// removeSASS removes the cubins of an earlier compile of dir: the PTX they
// were made of is about to change.
func removeSASS(dir string) error {
	old, err := filepath.Glob(filepath.Join(dir, "*.sm_*.r*.cubin"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return fmt.Errorf("remove stale SASS: %w", err)
		}
	}
	return nil
}
