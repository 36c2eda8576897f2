/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The proof-kind descriptors (cuzk/kinds/kinds.h) against the proto's own enum, as protoc-c
 * generated it from proto/cuzk/v1/proving.proto: every ProofKind value but UNSPECIFIED has a
 * descriptor with its name, every descriptor a ProofKind value; every Priority value is
 * cuzk_priority's. */
#include <string.h>

#include "check.h"
#include "cuzk/kinds/kinds.h"
#include "cuzk/v1/proving.pb-c.h"

int main(void) {
  const ProtobufCEnumDescriptor *d = &cuzk__v1__proof_kind__descriptor;
  unsigned named = 0;
  for (unsigned i = 0; i < d->n_values; i++) {
    const cuzk_kind *k = cuzk_kind_of((cuzk_proof_kind)d->values[i].value);
    if (d->values[i].value == CUZK_KIND_UNSPECIFIED) {
      CHECK(k == NULL);
      continue;
    }
    CHECK_MSG(k && !strcmp(k->proto, d->values[i].name), "%s = %d", d->values[i].name,
              d->values[i].value);
    named += k != NULL;
  }
  const cuzk_kind *k;
  for (size_t i = 0; (k = cuzk_kind_at(i)); i++) {
    const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value(d, (int)k->id);
    CHECK_MSG(v && !strcmp(v->name, k->proto), "%s", k->proto);
  }
  CHECK(named == 4 && d->n_values == 5);
  static const char *const prio[] = {"PRIORITY_UNSPECIFIED", "LOW", "NORMAL", "HIGH", "CRITICAL"};
  const ProtobufCEnumDescriptor *p = &cuzk__v1__priority__descriptor;
  CHECK(p->n_values == 5);
  for (int v = CUZK_PRIORITY_DEFAULT; v <= CUZK_PRIORITY_CRITICAL; v++) {
    const ProtobufCEnumValue *e = protobuf_c_enum_descriptor_get_value(p, v);
    CHECK_MSG(e && !strcmp(e->name, prio[v]), "priority %d", v);
  }
  return check_summary("test_kinds_proto");
}
