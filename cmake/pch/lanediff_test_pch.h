// Precompiled for every test unit (cmake/lanediff.cmake, LANEDIFF_PCH): the project set
// (lanediff_project_pch.h: the library set, the generated protobuf headers and the most
// included project headers) plus GoogleTest and GoogleMock.
// g++ builds on the library set only (cmake/lanediff.cmake, lanediff_use_pch).
#if defined(__clang__)
#include "cmake/pch/lanediff_project_pch.h"
#else
#include "cmake/pch/lanediff_pch.h"
#endif

#include "gmock/gmock.h"
#include "gtest/gtest.h"
