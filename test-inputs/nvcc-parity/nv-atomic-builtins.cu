// nvcc (CUDA 12.8+) has built-in atomics with a memory order and a scope:
// __nv_atomic_load_n(ptr, __NV_ATOMIC_RELAXED), __nv_atomic_store(ptr, &v,
// order, scope), __nv_atomic_fetch_add... The order and scope constants come
// from crt/device_functions.h, which Clang's wrapper does not include, and the
// functions are nvcc built-ins Clang does not have.
// flags: -std=c++17

__device__ float atomicMaxFloat(float *address, float value) {
  unsigned *bits = reinterpret_cast<unsigned *>(address);
  unsigned old = __nv_atomic_load_n(bits, __NV_ATOMIC_RELAXED);
  unsigned assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __float_as_uint(fmaxf(value, __uint_as_float(assumed))));
  } while (assumed != old);
  return __uint_as_float(old);
}

__global__ void publish(int *flags, int *data, float *best, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int value = i;
  __nv_atomic_store(data + i, &value, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_fetch_add(flags, 1, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
  int seen;
  __nv_atomic_load(flags, &seen, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  atomicMaxFloat(best, float(seen));
}

void launch(int *flags, int *data, float *best, int n) { publish<<<(n + 255) / 256, 256>>>(flags, data, best, n); }
