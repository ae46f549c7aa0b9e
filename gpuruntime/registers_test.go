package gpuruntime

import "testing"

func TestRegisterCapFor(t *testing.T) {
	for _, c := range []struct{ threads, want int }{
		{32, RegisterCap},
		{256, RegisterCap}, // two blocks fit at 128
		{288, LargeBlockRegisterCap},
		{320, LargeBlockRegisterCap},
		{384, LargeBlockRegisterCap},
		{448, LargeBlockRegisterCap},
		{512, LargeBlockRegisterCap}, // the last size two blocks of which fit at 64
		{640, RegisterCap},           // a second block would need fewer than 64: one block, from a variant for its size
		{1024, RegisterCap},
	} {
		got := RegisterCapFor(c.threads)
		if got != c.want {
			t.Errorf("RegisterCapFor(%d) = %d, want %d", c.threads, got, c.want)
		}
		if got != RegisterCap && 2*c.threads*got > registersPerSM {
			t.Errorf("RegisterCapFor(%d) = %d: two blocks need %d registers, more than an SM has", c.threads, got, 2*c.threads*got)
		}
	}
}

func TestOnePassRegisterCapFor(t *testing.T) {
	for _, c := range []struct{ threads, want int }{
		{32, LargeBlockRegisterCap},         // 32 blocks an SM, the most it holds
		{64, SmallBlockOnePassRegisterCap},  // 32 blocks an SM (the most) instead of 16
		{128, SmallBlockOnePassRegisterCap}, // 16 blocks an SM (2048 threads) instead of 4
		{160, RegisterCap},
		{256, RegisterCap}, // 64 spills ld_nbody_racy's tile loop (2x)
		{512, LargeBlockRegisterCap},
		{1024, RegisterCap},
	} {
		if got := OnePassRegisterCapFor(c.threads); got != c.want {
			t.Errorf("OnePassRegisterCapFor(%d) = %d, want %d", c.threads, got, c.want)
		}
	}
}
