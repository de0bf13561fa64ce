#!/usr/bin/env bash
# Layering: the harness executes, the model computes. Fails when
#  - device_harness/runner.h (the interface every device implements) includes anything from
#    model/ops (a device needs the batch, not the model's arithmetic);
#  - a file under model/ includes a device_harness/ or fuzz/ header;
#  - the kernels' register layout (RegisterConvention, register_convention.h) is defined
#    anywhere but device_harness/register_convention.h.
#   device_harness/layering_test.sh [REPO]
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$root"
fail=0
if grep -n '#include "model/ops/' device_harness/runner.h; then
  echo "layering_test: device_harness/runner.h includes model/ops (above)"; fail=1
fi
if grep -rn --include='*.h' --include='*.cc' -E '#include "(device_harness|fuzz)/' model/; then
  echo "layering_test: model/ includes a device_harness/ or fuzz/ header (above)"; fail=1
fi
defs=$(grep -rln --include='*.h' --include='*.cc' -E '^(struct|class) RegisterConvention\b' \
  model device_harness fuzz || true)
if [[ "$defs" != "device_harness/register_convention.h" ]]; then
  echo "layering_test: RegisterConvention must be defined in device_harness/register_convention.h" \
       "only; defined in: ${defs:-nowhere}"; fail=1
fi
[[ $fail == 0 ]] && echo "layering_test: ok"
exit $fail
