// Test input for the launch values read through guards, helpers and sets
// (analyses/values/ValueGuards.cpp, ValueEvaluatorContext.cpp, facts/LaunchVariants.cpp), seen through
// cuda-occupancy-report's remark and cuda-launch-block-not-warp-multiple's warning (notes: how a value was derived).
// RUN-ARGS: --gpu=A100 --checks=-*,cuda-occupancy-report,cuda-launch-block-not-warp-multiple
#include <cuda_runtime.h>
#include <utility>

__global__ void work(float *p) { p[threadIdx.x] = 0.0f; } // expect-note 64 {{'work': registers unknown, 0 bytes of static shared memory declared}}

// Switch dispatch on the block size: exact inside a case; a fall-through from
// another label gives both values; default proves nothing.
void reduceDispatch(float *p, int threads) {
  dim3 block(threads);
  switch (threads) {
  case 512:
    work<<<216, block>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 4 blocks of 512 threads per SM}} [cuda-occupancy-report]
    break;
  case 96:
  case 256:
    work<<<216, block>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 21 blocks of 96 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 8 blocks of 256 threads per SM}} [cuda-occupancy-report]
    break;
  default:
    work<<<216, block>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block block.x, dynamic shared memory 0)}} [cuda-occupancy-report]
  }
}

// An if guard: exact under ==, a bound under <=.
void ifGuard(float *p, unsigned threads) {
  if (threads == 64)
    work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 32 blocks of 64 threads per SM}} [cuda-occupancy-report]
  else if (threads <= 32)
    work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block at most 32, dynamic shared memory 0)}} [cuda-occupancy-report]
}

// A helper with internal linkage and two callers: a complete set {100, 256}.
static void launchFill(float *p, int threads) { work<<<216, threads>>>(p); } // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 16 blocks of 100 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 8 blocks of 256 threads per SM}} [cuda-occupancy-report] expect-warning {{block of 100 threads is not a multiple of the warp size (32)}} [cuda-launch-block-not-warp-multiple]
void fillTwice(float *p) {
  launchFill(p, 100); // expect-note {{'launchFill' is called here with 'threads' = 100}}
  launchFill(p, 256);
}

// A helper other files may call: the value of the caller seen here, and an open set.
void launchExternal(float *p, int threads) { work<<<216, threads>>>(p); } // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 12 blocks of 160 threads per SM}} [cuda-occupancy-report]
void callExternal(float *p) { launchExternal(p, 160); }

// A sweep over a constant array of block sizes: one variant per element,
// each a deliberate choice (the checks that judge the block leave them).
void sweep(float *p) {
  int sizes[] = {64, 1024};
  for (int j = 0; j < 2; j++) {
    int bs = sizes[j];
    work<<<216, bs>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 32 blocks of 64 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 1024 threads per SM}} [cuda-occupancy-report]
  }
}

// Two levels of helpers, the value written at the outer call.
static void inner(float *p, int threads) { work<<<216, threads>>>(p); } // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 32 blocks of 48 threads per SM}} [cuda-occupancy-report] expect-warning {{block of 48 threads is not a multiple of the warp size (32): 16 of the 64 lanes}} [cuda-launch-block-not-warp-multiple]
static void outer(float *p, int threads) { inner(p, threads); } // expect-note {{'inner' is called here with 'threads' = 48}}
void twoLevels(float *p) { outer(p, 48); } // expect-note {{'outer' is called here with 'threads' = 48}}

// A runtime value through a helper stays unknown.
static void launchRuntime(float *p, int threads) { work<<<216, threads>>>(p); } // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block threads, dynamic shared memory 0)}} [cuda-occupancy-report]
void callRuntime(float *p, int n) { launchRuntime(p, n); }

// A caller whose value the helper's own test excludes: that variant never
// reaches the launch, so the launch has one variant (64), not an invalid 4096.
static void guardedHelper(float *p, int threads) {
  if (threads <= 1024)
    work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 32 blocks of 64 threads per SM}} [cuda-occupancy-report]
}
void guardedCallers(float *p) {
  guardedHelper(p, 64);
  guardedHelper(p, 4096);
}

// A finding for one caller's value is silenced at that caller: a NOLINT on
// the call, or NOLINTNEXTLINE above it, for the check it names. The other
// checks still speak (the remarks), and a caller without one still gets the
// warning, with the call as its note.
static void launchQuiet(float *p, int threads) { work<<<216, threads>>>(p); } // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 16 blocks of 100 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 9 blocks of 200 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 21 blocks of 80 threads per SM}} [cuda-occupancy-report] expect-warning {{block of 80 threads is not a multiple of the warp size (32)}} [cuda-launch-block-not-warp-multiple]
void quietCallers(float *p) {
  launchQuiet(p, 100); // NOLINT(cuda-launch-block-not-warp-multiple): a deliberate size
  // NOLINTNEXTLINE(cuda-launch-block-not-warp-multiple)
  launchQuiet(p, 200);
  launchQuiet(p, 80); // expect-note {{'launchQuiet' is called here with 'threads' = 80}}
}

// A helper whose body is one return statement (ceil_div and its like) is
// evaluated at its call, its parameters bound to the arguments there. A
// longer body (loops, branches), or a recursive one, is run when its
// arguments are exact; with a runtime argument it stays "the value returned
// by" the helper.
template <class T> T ceilDiv(T a, T b) { return (a + b - 1) / b; }
static int threadsFor(const int &items, int perThread) { return items / perThread; }
static int halved(int n) {
  int half = n / 2;
  return half;
}
static int halvedUntilWarp(int n) { return n <= 32 ? n : halvedUntilWarp(n / 2); }
static int largestPowerOfTwoAtMost(int n) {
  int p = 1;
  while (p * 2 <= n)
    p *= 2;
  return p;
}
void helperValues(float *p, int runtime) {
  int items = 100000;
  work<<<ceilDiv(items, 256), 256>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 8 blocks of 256 threads per SM, 64 of 64 warps (100.0% occupancy), limited by warps (registers unknown); the grid of 391 blocks fills 45.3% of one wave}} [cuda-occupancy-report]
  work<<<216, threadsFor(400, 4)>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 16 blocks of 100 threads per SM}} [cuda-occupancy-report] expect-warning {{block of 100 threads is not a multiple of the warp size (32)}} [cuda-launch-block-not-warp-multiple] expect-note {{'threadsFor' returns 100 here}}
  work<<<216, halved(256)>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 16 blocks of 128 threads per SM}} [cuda-occupancy-report]
  work<<<216, halvedUntilWarp(256)>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 32 blocks of 32 threads per SM}} [cuda-occupancy-report]
  work<<<216, largestPowerOfTwoAtMost(1000)>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 4 blocks of 512 threads per SM}} [cuda-occupancy-report]
  work<<<216, largestPowerOfTwoAtMost(runtime)>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block largestPowerOfTwoAtMost(runtime), dynamic shared memory 0)}} [cuda-occupancy-report]
  work<<<ceilDiv(runtime, 256), 256>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 8 blocks of 256 threads per SM}} [cuda-occupancy-report]
}

// A parameter the helper assigns before the launch (it rounds the block size
// its caller asks for): the launch reads that assignment, whose right side
// reads the argument (analyses/values/ReachingWrites.h).
static void launchRounded(float *p, int threads) {
  threads = largestPowerOfTwoAtMost(threads);
  work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 8 blocks of 256 threads per SM}} [cuda-occupancy-report]
}
void callRounded(float *p) { launchRounded(p, 300); }

// A clamp of the block size: decided per caller by its condition on the
// argument (128 is raised to 256, 512 is kept).
static void launchClamped(float *p, int threads) {
  if (threads < 256)
    threads = 256;
  work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 8 blocks of 256 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 4 blocks of 512 threads per SM}} [cuda-occupancy-report]
}
void callClamped(float *p) {
  launchClamped(p, 128);
  launchClamped(p, 512);
}

// A guard around a launch inside a declaration's initializer: the guard
// still holds (the walk up goes through the declaration).
void guardAroundDeclaration(float *p, int threads) {
  if (threads == 128) {
    cudaError_t launched = (work<<<216, threads>>>(p), cudaGetLastError()); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 16 blocks of 128 threads per SM}} [cuda-occupancy-report]
    (void)launched;
  }
}

// A sweep with an element that is not a warp multiple: no warning, the
// benchmark tries 48 on purpose (each element is a variant of its own).
void sweepOdd(float *p) {
  const int sizes[] = {48, 128};
  for (int j = 0; j < 2; j++)
    work<<<216, sizes[j]>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 32 blocks of 48 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 16 blocks of 128 threads per SM}} [cuda-occupancy-report]
}

// A helper handed to a timing template that calls it with the arguments it
// forwards: the calls through the template's parameter are the helper's
// calls, so its callers are all here and the set {96, 40} is complete (and
// 40, a swept element, gets no warning).
template <class Kernel, class... Args> void timeIt(int repeats, Kernel kernel, Args &&...args) {
  for (int i = 0; i < repeats; ++i)
    kernel(std::forward<Args>(args)...);
}
static void launchTimed(float *p, int threads) { work<<<216, threads>>>(p); } // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 21 blocks of 96 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 32 blocks of 40 threads per SM}} [cuda-occupancy-report]
void timedSweep(float *p) {
  int sizes[] = {96, 40};
  for (int j = 0; j < 2; j++) {
    int threads = sizes[j];
    timeIt(10, launchTimed, p, threads);
  }
}

// A helper other files may call, with two callers here: both values, an open
// set (a compile database that shows no other file naming it would close it:
// tests/tool/lint/ProjectDatabaseTest.cpp).
void launchExternalTwice(float *p, int threads) { work<<<216, threads>>>(p); } // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 16 blocks of 128 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 12 blocks of 160 threads per SM}} [cuda-occupancy-report]
void callExternalTwice(float *p) {
  launchExternalTwice(p, 128);
  launchExternalTwice(p, 160);
}

// Two sweeps over the same five sizes: ten paths to the launch, five
// distinct variants (the bound of 8 counts variants, not paths).
static void launchSwept(float *p, int threads) { work<<<216, threads>>>(p); } // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 32 blocks of 64 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 16 blocks of 128 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 8 blocks of 256 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 4 blocks of 512 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 1024 threads per SM}} [cuda-occupancy-report]
void sweptTwice(float *p) {
  const int sizes[] = {64, 128, 256, 512, 1024};
  for (int j = 0; j < 5; j++)
    launchSwept(p, sizes[j]);
  for (int k = 0; k < 5; k++)
    launchSwept(p, sizes[k]);
}

// A dispatcher hands one of two launch helpers to a driver that calls it:
// each helper's values come from the calls that hand that helper over, never
// from the other's (launchHandedA gets 64 only, launchHandedB 192 only).
static void launchHandedA(float *p, int threads) { work<<<216, threads>>>(p); } // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 32 blocks of 64 threads per SM}} [cuda-occupancy-report]
static void launchHandedB(float *p, int threads) { work<<<216, threads>>>(p); } // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 10 blocks of 192 threads per SM}} [cuda-occupancy-report]
static void drive(void (*launch)(float *, int), float *p, int threads) { launch(p, threads); }
void dispatchToDrivers(float *p, int which) {
  switch (which) {
  case 0:
    drive(launchHandedA, p, 64);
    break;
  default:
    drive(launchHandedB, p, 192);
    break;
  }
}

// A launch under a guard that no caller's value passes: the callers never
// reach it, so it has no values to analyse, and the reason says so.
static void launchWhenSmall(float *p, int threads) {
  if (threads < 64)
    work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block threads, dynamic shared memory 0)}} [cuda-occupancy-report]
}
void callNeverSmall(float *p) {
  launchWhenSmall(p, 128);
  launchWhenSmall(p, 256);
}

// An if-else chain that sets the block in every arm: one variant per arm
// its conditions let run (all three here; only the arm of the caller's
// value when a caller decides them).
void chainAssigned(float *p, int mode) {
  int threads;
  if (mode == 0)
    threads = 64;
  else if (mode == 1)
    threads = 96;
  else
    threads = 160;
  work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 32 blocks of 64 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 21 blocks of 96 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 12 blocks of 160 threads per SM}} [cuda-occupancy-report]
}
static void chainDecided(float *p, int mode) {
  int threads;
  if (mode == 0) {
    threads = 224;
  } else {
    threads = 288;
  }
  work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 9 blocks of 224 threads per SM}} [cuda-occupancy-report]
}
void callChainDecided(float *p) { chainDecided(p, 0); }

// ?: with two constants: each arm is a variant. Two conditions written the
// same way on a value that does not change take the same arm together (384
// threads with y = 1, 416 with y = 2; never 384 x 2 or 416 x 1).
void twoConstants(float *p, bool big) {
  int threads = big ? 320 : 352;
  work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 6 blocks of 320 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 5 blocks of 352 threads per SM}} [cuda-occupancy-report]
  work<<<216, dim3(big ? 384 : 416, big ? 1 : 2)>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 5 blocks of 384 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 832 threads per SM}} [cuda-occupancy-report]
}

// A range-for over a list of sizes: a sweep, each element a variant (72, not
// a warp multiple, is tried on purpose: no warning).
void rangeSweep(float *p) {
  for (int threads : {72, 448})
    work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 21 blocks of 72 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 4 blocks of 448 threads per SM}} [cuda-occupancy-report]
}

// A helper of one return statement that builds the dim3.
static dim3 blockOf(int threads) { return dim3(threads, 1, 1); }
void dim3Helper(float *p) {
  work<<<216, blockOf(544)>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 3 blocks of 544 threads per SM}} [cuda-occupancy-report]
}

// The member of an object the function does not own is not followed:
// unknown, and the reason says so (JSON).
struct LaunchShape {
  int threads = 256;
  int blocks = 216;
};
void memberValue(float *p, const LaunchShape *shape) {
  work<<<216, shape->threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block shape->threads, dynamic shared memory 0)}} [cuda-occupancy-report]
}
// Members of a local object, read through their writes: a dim3 set member by
// member, a default member initializer, a braced initializer; an object whose
// address is taken is not followed.
void dim3Members(float *p) {
  dim3 block;
  block.x = 480;
  work<<<216, block>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 4 blocks of 480 threads per SM}} [cuda-occupancy-report]
}
void structMembers(float *p) {
  LaunchShape shape;
  shape.threads = 992;
  work<<<shape.blocks, shape.threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 992 threads per SM}} [cuda-occupancy-report]
  LaunchShape braced{288, 432};
  work<<<braced.blocks, braced.threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 7 blocks of 288 threads per SM}} [cuda-occupancy-report]
}
void fillShape(LaunchShape *shape);
void escapedMembers(float *p) {
  LaunchShape shape;
  fillShape(&shape);
  work<<<216, shape.threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block shape.threads, dynamic shared memory 0)}} [cuda-occupancy-report]
}
// A parameter's members are the caller's object's, read at each call: a
// local object through its writes, a braced temporary, a const global; by
// reference to const, or by value (the function's own writes followed). An
// object the caller reaches through a pointer is not followed.
static void launchShape(float *p, const LaunchShape &shape) {
  work<<<shape.blocks, shape.threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 12 blocks of 160 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 9 blocks of 224 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 1024 threads per SM}} [cuda-occupancy-report]
}
constexpr LaunchShape kWideShape{1024, 104};
void shapeCallers(float *p) {
  LaunchShape shape;
  shape.threads = 160;
  launchShape(p, shape);
  launchShape(p, LaunchShape{224, 352});
  launchShape(p, kWideShape);
}
static void launchCopied(float *p, LaunchShape shape) {
  shape.blocks = 432;
  work<<<shape.blocks, shape.threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 740 threads per SM}} [cuda-occupancy-report] expect-warning {{block of 740 threads is not a multiple of the warp size (32)}} [cuda-launch-block-not-warp-multiple]
}
void copiedCaller(float *p) {
  launchCopied(p, LaunchShape{740, 0}); // expect-note {{'launchCopied' is called here with 'shape.threads' = 740}}
}
static void launchPointed(float *p, const LaunchShape &shape) {
  work<<<216, shape.threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block shape.threads, dynamic shared memory 0)}} [cuda-occupancy-report]
}
void pointedCaller(float *p, const LaunchShape *shape) { launchPointed(p, *shape); }
// By reference to const, but the function casts the const away and writes
// the member: modified, so the caller's value is not followed.
static void launchCastAway(float *p, const LaunchShape &shape) {
  const_cast<LaunchShape &>(shape).threads += 32;
  work<<<216, shape.threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block shape.threads, dynamic shared memory 0)}} [cuda-occupancy-report]
}
void castAwayCaller(float *p) { launchCastAway(p, LaunchShape{160, 0}); }
// An exact block with a runtime amount of dynamic shared memory: the block is
// one value (JSON values.blockComplete), the launch's values are not all known.
void runtimeSharedMemory(float *p, unsigned bytes) {
  work<<<216, 128, bytes>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block 128, dynamic shared memory bytes)}} [cuda-occupancy-report]
}

// A switch that sets the block in every label group, with a default: one
// variant per group the selector can take; decided by the caller's value:
// that group only (an enumerator, or a value no label names: the default).
enum class Precision { Half, Single, Double };
void switchAssigned(float *p, Precision precision) {
  int threads;
  switch (precision) {
  case Precision::Half:
    threads = 576;
    break;
  case Precision::Single:
    threads = 608;
    break;
  default:
    threads = 640;
  }
  work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 3 blocks of 576 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 3 blocks of 608 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 3 blocks of 640 threads per SM}} [cuda-occupancy-report]
}
static void switchDecided(float *p, int bytes) {
  int threads;
  switch (bytes) {
  case 2:
    threads = 672;
    break;
  default:
    threads = 704;
    break;
  }
  work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 704 threads per SM}} [cuda-occupancy-report]
}
void callSwitchDecided(float *p) { switchDecided(p, 8); }
// No default, but a label for every enumerator: the two groups.
void enumSwitch(float *p, Precision precision) {
  int threads = 0;
  switch (precision) {
  case Precision::Half:
  case Precision::Single:
    threads = 736;
    break;
  case Precision::Double:
    threads = 768;
    break;
  }
  work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 736 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 768 threads per SM}} [cuda-occupancy-report]
}

// A lambda the function holds in a variable and only calls: its parameters
// take the calls' arguments, one variant per call (both parameters from the
// same call); a lambda handed on can be called elsewhere: unknown.
void lambdaCalled(float *p) {
  auto launch = [&](int blocks, int threads) {
    work<<<blocks, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 800 threads per SM}} [cuda-occupancy-report] expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 864 threads per SM}} [cuda-occupancy-report]
  };
  launch(216, 800);
  launch(432, 864);
}
template <class Launch> void callTwice(Launch launch) {
  launch(896);
  launch(896);
}
void lambdaHandedOn(float *p) {
  auto launch = [&](int threads) {
    work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block threads, dynamic shared memory 0)}} [cuda-occupancy-report]
  };
  callTwice(launch);
}
// A lambda reading its function's parameter: the function's callers give it.
static void lambdaCaptures(float *p, int threads) {
  auto launch = [&](int blocks) {
    work<<<blocks, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): at most 2 blocks of 928 threads per SM}} [cuda-occupancy-report]
  };
  launch(216);
}
void callLambdaCaptures(float *p) { lambdaCaptures(p, 928); }
// A lambda that modifies what it captures by reference: not followed.
void lambdaModifies(float *p) {
  int threads = 960;
  auto grow = [&] { threads *= 2; };
  grow();
  work<<<216, threads>>>(p); // expect-remark {{predicted occupancy of 'work' on A100 80GB (sm_80, 108 SMs): unknown (block threads, dynamic shared memory 0)}} [cuda-occupancy-report]
}
