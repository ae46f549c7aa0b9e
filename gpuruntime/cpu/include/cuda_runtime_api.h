/* ldcheck CPU backend: intentionally empty. ldcheck_cpu.h (force-included) already
 * provides what device code needs from this CUDA header. */
