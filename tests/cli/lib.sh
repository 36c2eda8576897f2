# SPDX-License-Identifier: MIT OR Apache-2.0
# Helpers of the cuzk-bench command tests, sourced after the test sets D (its scratch directory).
fail() { echo "FAIL: $*" >&2; exit 1; }
rejects() { # rejects WHAT NEEDLE CMD...: CMD fails and says NEEDLE
  what=$1 needle=$2
  shift 2
  if "$@" >"$D/out" 2>&1; then fail "$what: accepted"; fi
  grep -q -- "$needle" "$D/out" || { cat "$D/out" >&2; fail "$what: no '$needle' in the message"; }
}
