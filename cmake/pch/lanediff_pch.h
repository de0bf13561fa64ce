// Precompiled for lanediff_proto and the libraries that do not link it (model_fp,
// model_targets, model_ops, the small fuzz/cli libraries; cmake/lanediff.cmake,
// lanediff_use_pch), and included by the other two headers of this folder: the standard,
// Abseil and protobuf runtime headers that most units include. Parsing them was most of each
// unit's compile time. Only headers from outside the project belong here (project headers go
// in lanediff_project_pch.h, which lanediff_proto's own units cannot use: it includes the
// headers protoc generates for them). Each source still includes what it uses: the header is
// forced into every unit, so a missing include of one of these shows only in a build with
// -DLANEDIFF_PCH=OFF.
#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/types/span.h"

// What a generated *.pb.h includes (protoc 3.21).
#include "google/protobuf/arena.h"
#include "google/protobuf/arenastring.h"
#include "google/protobuf/extension_set.h"
#include "google/protobuf/generated_enum_reflection.h"
#include "google/protobuf/generated_message_reflection.h"
#include "google/protobuf/generated_message_util.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/map.h"
#include "google/protobuf/map_entry.h"
#include "google/protobuf/map_field_inl.h"
#include "google/protobuf/message.h"
#include "google/protobuf/metadata_lite.h"
#include "google/protobuf/repeated_field.h"
#include "google/protobuf/unknown_field_set.h"
