/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Writes a circuit (a SHA-256 block whose 254-bit digest is public, plus a Poseidon arity-2 hash
 * of it; the prover's input constraints appended) as an iden3 .r1cs, its witness as .wtns, and a
 * witness with one aux value changed; prints the counts for check.mjs, which has snarkjs check
 * them. usage: iden3_dump OUTDIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs/gadgets.h"
#include "cuzk/r1cs/r1cs.h"

static void circuit(cuzk_cs *cs) {
  cuzk_bool bits[512], out[256];
  uint64_t s = 0x1234567;
  for (int i = 0; i < 512; i++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    bits[i] = i % 97 == 3 ? cuzk_bool_const((s >> 40) & 1) : cuzk_bit_alloc(cs, (s >> 40) & 1);
  }
  cuzk_gadget_sha256(cs, out, bits, 512);
  cuzk_num d = cuzk_sha256_digest_to_num(cs, out);
  cuzk_num_inputize(cs, &d);
  const cuzk_poseidon_params *p;
  if (cuzk_poseidon_params_get(&p, 2) != CUZK_HASH_OK) return;
  cuzk_num in[2] = {d, cuzk_num_alloc(cs, &cuzk_fr_one)};
  cuzk_num h = cuzk_gadget_poseidon(cs, p, in);
  cuzk_num_inputize(cs, &h);
  cuzk_cs_enforce_input_constraints(cs);
}

static cuzk_cs *run(cuzk_cs_mode mode) {
  cuzk_cs_opts o;
  cuzk_cs_opts_default(&o, mode);
  cuzk_cs *cs;
  if (cuzk_cs_create(&cs, &o)) return NULL;
  circuit(cs);
  cuzk_cs_finish(cs);
  return cuzk_cs_error(cs) ? NULL : cs;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: iden3_dump OUTDIR\n");
    return 2;
  }
  char path[4096];
  cuzk_cs *rec = run(CUZK_CS_RECORD), *wit = run(CUZK_CS_WITNESS);
  if (!rec || !wit) return 1;
  snprintf(path, sizeof path, "%s/circuit.r1cs", argv[1]);
  if (cuzk_cs_write_iden3_r1cs(rec, path)) return 1;
  cuzk_cs_result r;
  cuzk_cs_result_get(wit, &r);
  snprintf(path, sizeof path, "%s/good.wtns", argv[1]);
  if (cuzk_write_iden3_wtns(path, r.inputs, r.num_inputs, r.aux, r.num_aux)) return 1;
  cuzk_fr *aux = malloc(r.num_aux * sizeof *aux);
  memcpy(aux, r.aux, r.num_aux * sizeof *aux);
  cuzk_fr_add(&aux[r.num_aux / 2], &aux[r.num_aux / 2], &cuzk_fr_one);
  snprintf(path, sizeof path, "%s/bad.wtns", argv[1]);
  if (cuzk_write_iden3_wtns(path, r.inputs, r.num_inputs, aux, r.num_aux)) return 1;
  printf("{\"constraints\":%zu,\"wires\":%zu,\"public\":%zu}\n", r.num_constraints,
         r.num_inputs + r.num_aux, r.num_inputs - 1);
  free(aux);
  cuzk_cs_destroy(rec);
  cuzk_cs_destroy(wit);
  return 0;
}
