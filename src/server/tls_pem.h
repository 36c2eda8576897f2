/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The TLS files checked before gRPC gets them (docs/config.md "Checks at start"). gRPC takes any
 * bytes as a certificate or key and fails only when a port is added, as "cannot listen", with no
 * word on which file is wrong; OpenSSL's libcrypto (the library gRPC itself uses for TLS here)
 * parses them first so that the message names the file and the fault.
 */
#ifndef CUZK_SERVER_TLS_PEM_H
#define CUZK_SERVER_TLS_PEM_H

#include <stddef.h>

#include "cuzk/server/rpc.h"

/* cert_pem: one or more PEM certificates (the chain, the server's first); key_pem: an unencrypted
 * PEM private key matching the first certificate; ca_pem (NULL: none): one or more PEM
 * certificates. The paths are only for the message, which names the option: "tls_cert '/p': not a
 * PEM certificate", "tls_key '/k' does not match tls_cert '/c'". CUZK_RPC_EINVAL on a fault,
 * CUZK_RPC_ENOMEM. Leaves OpenSSL's error queue empty. */
cuzk_rpc_err cuzk_tls_pem_check(const char *cert_path, const char *cert_pem, const char *key_path,
                                const char *key_pem, const char *ca_path, const char *ca_pem,
                                char *err, size_t errlen);

#endif
