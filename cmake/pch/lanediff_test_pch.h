// Precompiled for every test unit (cmake/lanediff.cmake, LANEDIFF_PCH): the project set
// (lanediff_project_pch.h: the library set, the generated protobuf headers and the most
// included project headers) plus GoogleTest and GoogleMock.
#include "cmake/pch/lanediff_project_pch.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
