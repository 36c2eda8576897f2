/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Error strings of cuzk_porep_err, the filecoin and porep layers' codes. */
#include "cuzk/filecoin/sector.h"

const char *cuzk_porep_strerror(cuzk_porep_err e) {
  switch (e) {
  case CUZK_POREP_OK: return "success";
  case CUZK_POREP_EINVAL: return "invalid argument";
  case CUZK_POREP_ESIZE: return "unsupported sector size";
  case CUZK_POREP_EPROOF: return "unknown registered seal proof";
  case CUZK_POREP_ENOPROOF: return "sector size has no registered seal proof (test-only size)";
  case CUZK_POREP_EPARTITION: return "partition number out of range for this proof";
  case CUZK_POREP_ENOTFR32: return "data node is not Fr32-padded (bit 254 or 255 set)";
  case CUZK_POREP_ENOMEM: return "out of memory";
  case CUZK_POREP_ECRYPTO: return "libsodium initialisation failed";
  case CUZK_POREP_EFORMAT: return "malformed C1 document";
  }
  return "unknown porep error";
}
