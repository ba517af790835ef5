// The host program of the emulation (cuda_runtime.h beside it): runs the
// test input's run(d, n) on a buffer of exactly n floats (n from argv[1]) and
// prints a checksum of what the kernels left in it, so that two versions of
// a launch can be compared byte for byte.
#include <cstdio>
#include <cstdlib>
#include <cstring>

void run(float *d, int n);

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const int N = std::atoi(argv[1]);
  float *D = new float[N];
  for (int I = 0; I < N; ++I)
    D[I] = float(I % 1000) * 0.5f;
  run(D, N);
  unsigned long long Hash = 1469598103934665603ull; // FNV-1a over the bytes
  for (int I = 0; I < N; ++I) {
    unsigned char Bytes[sizeof(float)];
    std::memcpy(Bytes, &D[I], sizeof(float));
    for (unsigned char B : Bytes)
      Hash = (Hash ^ B) * 1099511628211ull;
  }
  std::printf("n %d checksum %016llx\n", N, Hash);
  delete[] D;
  return 0;
}
