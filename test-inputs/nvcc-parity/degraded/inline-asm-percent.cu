// nvcc passes inline PTX through as written: `%laneid` (a PTX special
// register) next to operands is accepted. Clang checks the asm string's %
// escapes and rejects it ("invalid % escape in inline assembly string"); no
// declaration can change that, so occlint degrades.
// flags: -std=c++17

__device__ unsigned laneId() {
  unsigned lane;
  asm("mov.u32 %0, %laneid;" : "=r"(lane));
  return lane;
}

__global__ void lanes(unsigned *out) { out[threadIdx.x] = laneId(); }

void launch(unsigned *out) { lanes<<<1, 96>>>(out); }
