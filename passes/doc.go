// Package passes is ldcheck's front end: it parses a CUDA source file with
// libclang (through the binding in passes/clang) and runs small analyses over
// the AST, each declaring its inputs and results: kernels and parameters,
// __shared__ and module-scope variables, barriers, AP regions (the code
// between barriers), target variables, atomics, regions that run once
// (per variable, or by index proofs over the subscripts: disjoint.go, with
// the run-time stride tests they need, Kernel.Conditions; where a variable
// can change between two accesses, loop counters read across their step,
// strided and bounded counters, and the assignment that reaches a use:
// versions.go; warp and lane arithmetic, folded rows and per-thread
// columns: warps.go), targets no two
// threads of a block, or of the grid, can race on, and those no two blocks
// share (Target.BlockRaceFree, GridRaceFree, BlocksApart: onepass.go, with
// the tests of the launch the host makes before it relies on them:
// launchproof.go),
// the accesses a __threadfence() and an atomic ticket order (FenceOrder),
// kernels whose threads end every region at one place (Kernel.UniformEnds:
// uniformends.go), and unsupported constructs.
//
// Results are plain Go types (see Analysis) that privatize consumes. This
// package must not rewrite source, compile, or run anything on a device.
package passes
