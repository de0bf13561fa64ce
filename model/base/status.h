// Status propagation macros. Debian 12's Abseil (20220623) has absl::Status and StatusOr but
// not the return-if-error macros, so the project defines its own pair once, here.
//
//   absl::StatusOr<int> Parse(absl::string_view s);
//   absl::Status Use(absl::string_view s) {
//     LANEDIFF_ASSIGN_OR_RETURN(int n, Parse(s));
//     LANEDIFF_RETURN_IF_ERROR(Check(n));
//     return absl::OkStatus();
//   }
#ifndef LANEDIFF_MODEL_BASE_STATUS_H_
#define LANEDIFF_MODEL_BASE_STATUS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define LANEDIFF_RETURN_IF_ERROR(expr)                  \
  do {                                                  \
    ::absl::Status lanediff_status_ = (expr);           \
    if (!lanediff_status_.ok()) return lanediff_status_; \
  } while (0)

#define LANEDIFF_STATUS_CONCAT_INNER_(a, b) a##b
#define LANEDIFF_STATUS_CONCAT_(a, b) LANEDIFF_STATUS_CONCAT_INNER_(a, b)

#define LANEDIFF_ASSIGN_OR_RETURN(lhs, expr) \
  LANEDIFF_ASSIGN_OR_RETURN_IMPL_(LANEDIFF_STATUS_CONCAT_(lanediff_statusor_, __LINE__), lhs, expr)

#define LANEDIFF_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                    \
  if (!statusor.ok()) return std::move(statusor).status();   \
  lhs = std::move(statusor).value()

#endif  // LANEDIFF_MODEL_BASE_STATUS_H_
