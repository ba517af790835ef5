// Stands for a library header reached through an include path (-I): under
// nvcc it sees __NVCC__; under occlint's Clang parse it must not, as
// libraries then use nvcc-only code (libcu++, nv/target).
#pragma once
#if defined(__NVCC__)
#define LIBRARY_SAW_NVCC 1
#endif
