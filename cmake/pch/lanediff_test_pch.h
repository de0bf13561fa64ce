// Precompiled for every test unit (cmake/lanediff.cmake, LANEDIFF_PCH): the library set plus
// GoogleTest and GoogleMock.
#include "cmake/pch/lanediff_pch.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
