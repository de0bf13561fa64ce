// Precompiled for every library and binary unit that links lanediff_proto, directly or through
// another library (cmake/lanediff.cmake, LANEDIFF_PCH): the library set plus the generated
// protobuf headers and the model, proto and device_harness headers that most of those units
// include (each is in 50 to 150 of the 200 units of a build). Parsing them again in every
// unit was about half of a test unit's compile time and a third of a library unit's.
// Editing one of these headers rebuilds this header and every unit that uses it, where before
// it rebuilt the units that include it (most of them anyway). A unit sees these declarations
// whether it includes them or not: device_harness/layering_test.sh checks what sources include,
// and a build with -DLANEDIFF_PCH=OFF shows a missing include.
#include "cmake/pch/lanediff_pch.h"

#include "proto/lanediff.pb.h"
#include "proto/report.pb.h"
#include "proto/file_io.h"
#include "proto/text_format.h"
#include "proto/validate.h"

#include "model/base/lanes.h"
#include "model/base/status.h"
#include "model/fp/f32.h"
#include "model/fp/fp8.h"
#include "model/fp/fp8_decode.h"
#include "model/fp/fp8_format.h"
#include "model/isa/resolve.h"
#include "model/isa/testcase.h"
#include "model/isa/vop3.h"
#include "model/ops/ops.h"
#include "model/targets/hypotheses.h"
#include "model/targets/targets.h"

#include "device_harness/code_object.h"
#include "device_harness/kernel_state.h"
#include "device_harness/register_convention.h"
#include "device_harness/resolve_case.h"
#include "device_harness/runner.h"
