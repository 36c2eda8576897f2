/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The TLS files' PEM text checked with OpenSSL's libcrypto (tls_pem.h): every certificate block
 * parses, the key parses without a passphrase, and it is the first certificate's key. */
#include "server/tls_pem.h"

#include "cuzk/util/errmsg.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdbool.h>
#include <string.h>

/* Never asks for a passphrase: OpenSSL's default would prompt on the terminal. */
static int no_passphrase(char *buf, int size, int rwflag, void *user) {
  (void)buf, (void)size, (void)rwflag, (void)user;
  return -1;
}

/* The certificates in pem: how many parse before the end or before a "BEGIN CERTIFICATE" block
 * that does not (*broken then); *first keeps the first one. Blocks of other types are skipped,
 * as gRPC skips them. -1 out of memory. */
static int read_certs(const char *pem, X509 **first, bool *broken) {
  BIO *b = BIO_new_mem_buf(pem, -1);
  if (!b) return -1;
  int n = 0;
  X509 *x;
  while ((x = PEM_read_bio_X509(b, NULL, NULL, NULL)) != NULL) {
    if (n++ == 0 && first)
      *first = x;
    else
      X509_free(x);
  }
  /* the loop ends at the end of the text (no further start line) or at a block that failed */
  unsigned long e = ERR_peek_last_error();
  *broken = !(ERR_GET_LIB(e) == ERR_LIB_PEM && ERR_GET_REASON(e) == PEM_R_NO_START_LINE);
  ERR_clear_error();
  BIO_free(b);
  return n;
}

static cuzk_rpc_err check_certs(const char *opt, const char *path, const char *pem, X509 **first,
                                char *err, size_t errlen) {
  bool broken = false;
  int n = read_certs(pem, first, &broken);
  if (n < 0) return CUZK_FAIL(err, errlen, CUZK_RPC_ENOMEM, "out of memory");
  if (broken)
    return CUZK_FAIL(err, errlen, CUZK_RPC_EINVAL,
                     "%s '%s': certificate %d of the file does not parse (not a PEM certificate)",
                     opt, path, n + 1);
  if (n == 0)
    return CUZK_FAIL(err, errlen, CUZK_RPC_EINVAL, "%s '%s': not a PEM certificate", opt, path);
  return CUZK_RPC_OK;
}

cuzk_rpc_err cuzk_tls_pem_check(const char *cert_path, const char *cert_pem, const char *key_path,
                                const char *key_pem, const char *ca_path, const char *ca_pem,
                                char *err, size_t errlen) {
  X509 *cert = NULL;
  EVP_PKEY *key = NULL;
  cuzk_rpc_err e = check_certs("tls_cert", cert_path, cert_pem, &cert, err, errlen);
  if (!e && ca_pem) e = check_certs("tls_client_ca", ca_path, ca_pem, NULL, err, errlen);
  if (!e) {
    BIO *b = BIO_new_mem_buf(key_pem, -1);
    if (!b) e = CUZK_FAIL(err, errlen, CUZK_RPC_ENOMEM, "out of memory");
    if (b) key = PEM_read_bio_PrivateKey(b, NULL, no_passphrase, NULL);
    BIO_free(b);
    if (!e && !key)
      e = strstr(key_pem, "ENCRYPTED")
              ? CUZK_FAIL(err, errlen, CUZK_RPC_EINVAL,
                          "tls_key '%s': an encrypted private key (the daemon cannot ask for a "
                          "passphrase: give it unencrypted, readable by the daemon's user only)",
                          key_path)
              : CUZK_FAIL(err, errlen, CUZK_RPC_EINVAL, "tls_key '%s': not a PEM private key",
                          key_path);
  }
  if (!e && X509_check_private_key(cert, key) != 1)
    e = CUZK_FAIL(err, errlen, CUZK_RPC_EINVAL, "tls_key '%s' does not match tls_cert '%s'",
                  key_path, cert_path);
  EVP_PKEY_free(key);
  X509_free(cert);
  ERR_clear_error(); /* gRPC reads the same thread's queue */
  return e;
}
