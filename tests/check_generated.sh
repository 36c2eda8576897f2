#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The generated sources are exactly what their generators write today (a hand edit, or a generator
# changed without regenerating, fails here): src/field/consts.c (scripts/gen-field-consts.py,
# formatted with the repository's .clang-format) and src/field/mont_x86_64_adx.S
# (scripts/gen-mont-adx.py). usage: check_generated.sh SOURCE_DIR
set -eu
S=$1
command -v clang-format >/dev/null || { echo "skipped: no clang-format"; exit 77; }
python3 "$S/scripts/gen-field-consts.py" | (cd "$S" && clang-format --assume-filename=src/field/consts.c) |
  diff -u "$S/src/field/consts.c" - || { echo "FAIL: src/field/consts.c differs from its generator"; exit 1; }
python3 "$S/scripts/gen-mont-adx.py" | diff -u "$S/src/field/mont_x86_64_adx.S" - ||
  { echo "FAIL: src/field/mont_x86_64_adx.S differs from its generator"; exit 1; }
echo "check_generated: src/field/consts.c and src/field/mont_x86_64_adx.S match their generators"
